#ifndef LIVEPAIR_CFFMPEG_SHIM_H
#define LIVEPAIR_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libavutil/display.h>
#include <libswscale/swscale.h>
#include <malloc.h>

/* Function-like macros and compound constants Swift cannot import. */
static inline int livepair_averror(int errnum) { return AVERROR(errnum); }
static inline int livepair_averror_eof(void) { return AVERROR_EOF; }
static inline int livepair_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int livepair_averror_exit(void) { return AVERROR_EXIT; }
static inline int livepair_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t livepair_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int livepair_av_time_base(void) { return AV_TIME_BASE; }
/* Writes the message for an FFmpeg error code into buffer (NUL-terminated). */
static inline void livepair_av_strerror(int errnum, char *buffer, size_t size) {
    av_strerror(errnum, buffer, size);
}
/* Maps every block of at least `size` bytes on its own (a fixed glibc mmap threshold). */
static inline int livepair_map_blocks_from(int size) { return mallopt(M_MMAP_THRESHOLD, size); }
#endif
