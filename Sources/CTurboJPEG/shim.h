#ifndef LIVEPAIR_CTURBOJPEG_SHIM_H
#define LIVEPAIR_CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>

/* TJSCALED and TJPAD are function-like macros: re-exported as functions. */
static inline int livepair_tjscaled(int dimension, tjscalingfactor factor) { return TJSCALED(dimension, factor); }
static inline int livepair_tjpad(int width) { return TJPAD(width); }
#endif
