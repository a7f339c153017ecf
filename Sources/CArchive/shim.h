#ifndef LIVEPAIR_CARCHIVE_SHIM_H
#define LIVEPAIR_CARCHIVE_SHIM_H

// libarchive (Debian's libarchive-dev 3.6): zip and tar.gz parts of exports, read as streams.
#include <archive.h>
#include <archive_entry.h>

// The status macros as constants Swift can import (ARCHIVE_OK and friends are plain #defines of
// integers, which import; AE_IFREG and the other file types are octal #defines, re-exported here
// with an explicit type).
static const unsigned int livepair_archive_regular_file = AE_IFREG;
static const unsigned int livepair_archive_directory = AE_IFDIR;

#endif
