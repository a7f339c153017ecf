#ifndef LIVEPAIR_CHEIF_SHIM_H
#define LIVEPAIR_CHEIF_SHIM_H
/* libheif 1.15 is used for encoding only: it cannot open HEIC files from iOS 17 and later. */
#include <libheif/heif.h>
#endif
