#ifndef LIVEPAIR_CEXIF_SHIM_H
#define LIVEPAIR_CEXIF_SHIM_H
#include <stddef.h>
#include <libexif/exif-data.h>
#include <libexif/exif-loader.h>
#include <libexif/exif-utils.h>

/* The entry for `tag` in IFD `ifd` of `data`, or NULL (exif_data_get_entry is a macro over a C array). */
static inline ExifEntry *livepair_exif_entry(ExifData *data, ExifIfd ifd, ExifTag tag) {
    if (data == NULL || ifd < 0 || ifd >= EXIF_IFD_COUNT || data->ifd[ifd] == NULL) return NULL;
    return exif_content_get_entry(data->ifd[ifd], tag);
}
/* How many entries libexif loaded across all IFDs (0 when it found no Exif structure). */
static inline unsigned int livepair_exif_entry_count(ExifData *data) {
    unsigned int total = 0;
    if (data == NULL) return 0;
    for (int ifd = 0; ifd < EXIF_IFD_COUNT; ifd++) {
        if (data->ifd[ifd] != NULL) total += data->ifd[ifd]->count;
    }
    return total;
}
#endif
