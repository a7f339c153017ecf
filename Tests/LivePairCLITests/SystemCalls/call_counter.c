// A preloaded library that counts the file system calls a process makes on its input files
// through the C library, for SystemCallCountTests: each wrapped function calls the real one (found
// with dlsym(RTLD_NEXT)) and adds one to its counter when the call is on an input. At exit the
// counts are appended to the file named by LIVEPAIR_CALL_COUNT_LOG as "name count" lines. It needs
// no ptrace, so it works where strace cannot trace (a CI sandbox where strace ran the program but
// saw no call).
//
// An input is a path under LIVEPAIR_CALL_COUNT_UNDER (a folder; without it every path is one), or a
// descriptor that an open of such a path returned (until it is closed). A relative path is counted
// too, since its folder is not known. Calls the process makes on anything else are not counted:
// libdispatch's thread pool monitor, for one, opens and reads /proc/<thread>/stat once a second
// while work waits in a queue, so how often it does depends on the machine's load, not on the files.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <unistd.h>

enum call {
    call_open, call_openat, call_stat, call_lstat, call_fstat, call_fstatat, call_statx,
    call_fcntl, call_listxattr, call_llistxattr, call_getxattr, call_lgetxattr, call_fgetxattr,
    call_read, call_pread, call_count
};
static const char *const names[call_count] = {
    "open", "openat", "stat", "lstat", "fstat", "fstatat", "statx",
    "fcntl", "listxattr", "llistxattr", "getxattr", "lgetxattr", "fgetxattr",
    "read", "pread",
};
static unsigned long counts[call_count];

#define COUNT(c) __atomic_fetch_add(&counts[c], 1, __ATOMIC_RELAXED)
#define COUNT_PATH(c, path) do { if (is_input_path(path)) COUNT(c); } while (0)
#define COUNT_DESCRIPTOR(c, descriptor) do { if (is_input_descriptor(descriptor)) COUNT(c); } while (0)

// Descriptors below this are tracked; a process of these tests opens far fewer.
#define TRACKED_DESCRIPTORS 65536
static unsigned char input_descriptors[TRACKED_DESCRIPTORS];

// Whether `path` is an input: under LIVEPAIR_CALL_COUNT_UNDER, or relative.
static bool is_input_path(const char *path) {
    if (!path || path[0] != '/') return true;
    const char *under = getenv("LIVEPAIR_CALL_COUNT_UNDER");
    if (!under || !under[0]) return true;
    size_t length = strlen(under);
    while (length > 1 && under[length - 1] == '/') length--;
    return strncmp(path, under, length) == 0 && (path[length] == '/' || path[length] == 0);
}

static bool is_input_descriptor(int descriptor) {
    return descriptor >= 0 && descriptor < TRACKED_DESCRIPTORS
        && __atomic_load_n(&input_descriptors[descriptor], __ATOMIC_RELAXED);
}

// Whether a *at call's `path` (empty, with AT_EMPTY_PATH) names `directory` itself.
static bool names_descriptor(const char *path, int flags) {
    return path && !path[0] && (flags & AT_EMPTY_PATH);
}
#define COUNT_STAT_AT(c, directory, path, flags) do { \
    if (names_descriptor(path, flags)) COUNT_DESCRIPTOR(c, directory); else COUNT_PATH(c, path); } while (0)

// Records what an open returned: whether `descriptor` now names an input. Counts the open if so.
static int opened(enum call c, const char *path, int descriptor) {
    bool input = is_input_path(path);
    if (input) COUNT(c);
    if (descriptor >= 0 && descriptor < TRACKED_DESCRIPTORS)
        __atomic_store_n(&input_descriptors[descriptor], input, __ATOMIC_RELAXED);
    return descriptor;
}
#define REAL(type, name) static __typeof__(type) real = 0; if (!real) real = (type)dlsym(RTLD_NEXT, name)

__attribute__((destructor)) static void write_counts(void) {
    const char *path = getenv("LIVEPAIR_CALL_COUNT_LOG");
    if (!path) return;
    // Written with the real calls the counters do not see (fopen's open is inside the C library).
    FILE *log = fopen(path, "a");
    if (!log) return;
    for (int index = 0; index < call_count; index++)
        fprintf(log, "%s %lu\n", names[index], __atomic_load_n(&counts[index], __ATOMIC_RELAXED));
    fclose(log);
}

static mode_t mode_argument(int flags, va_list arguments) {
    return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(arguments, int) : 0;
}

int open(const char *path, int flags, ...) {
    va_list arguments; va_start(arguments, flags); mode_t mode = mode_argument(flags, arguments); va_end(arguments);
    REAL(int (*)(const char *, int, ...), "open"); return opened(call_open, path, real(path, flags, mode));
}
int open64(const char *path, int flags, ...) {
    va_list arguments; va_start(arguments, flags); mode_t mode = mode_argument(flags, arguments); va_end(arguments);
    REAL(int (*)(const char *, int, ...), "open64"); return opened(call_open, path, real(path, flags, mode));
}
int __open_2(const char *path, int flags) {
    REAL(int (*)(const char *, int), "__open_2"); return opened(call_open, path, real(path, flags));
}
int __open64_2(const char *path, int flags) {
    REAL(int (*)(const char *, int), "__open64_2"); return opened(call_open, path, real(path, flags));
}
int openat(int directory, const char *path, int flags, ...) {
    va_list arguments; va_start(arguments, flags); mode_t mode = mode_argument(flags, arguments); va_end(arguments);
    REAL(int (*)(int, const char *, int, ...), "openat"); return opened(call_openat, path, real(directory, path, flags, mode));
}
int openat64(int directory, const char *path, int flags, ...) {
    va_list arguments; va_start(arguments, flags); mode_t mode = mode_argument(flags, arguments); va_end(arguments);
    REAL(int (*)(int, const char *, int, ...), "openat64"); return opened(call_openat, path, real(directory, path, flags, mode));
}
int __openat_2(int directory, const char *path, int flags) {
    REAL(int (*)(int, const char *, int), "__openat_2"); return opened(call_openat, path, real(directory, path, flags));
}
int __openat64_2(int directory, const char *path, int flags) {
    REAL(int (*)(int, const char *, int), "__openat64_2"); return opened(call_openat, path, real(directory, path, flags));
}

int stat(const char *path, struct stat *buffer) {
    COUNT_PATH(call_stat, path); REAL(int (*)(const char *, struct stat *), "stat"); return real(path, buffer);
}
int stat64(const char *path, struct stat64 *buffer) {
    COUNT_PATH(call_stat, path); REAL(int (*)(const char *, struct stat64 *), "stat64"); return real(path, buffer);
}
int lstat(const char *path, struct stat *buffer) {
    COUNT_PATH(call_lstat, path); REAL(int (*)(const char *, struct stat *), "lstat"); return real(path, buffer);
}
int lstat64(const char *path, struct stat64 *buffer) {
    COUNT_PATH(call_lstat, path); REAL(int (*)(const char *, struct stat64 *), "lstat64"); return real(path, buffer);
}
int fstat(int descriptor, struct stat *buffer) {
    COUNT_DESCRIPTOR(call_fstat, descriptor); REAL(int (*)(int, struct stat *), "fstat"); return real(descriptor, buffer);
}
int fstat64(int descriptor, struct stat64 *buffer) {
    COUNT_DESCRIPTOR(call_fstat, descriptor); REAL(int (*)(int, struct stat64 *), "fstat64"); return real(descriptor, buffer);
}
int fstatat(int directory, const char *path, struct stat *buffer, int flags) {
    COUNT_STAT_AT(call_fstatat, directory, path, flags); REAL(int (*)(int, const char *, struct stat *, int), "fstatat"); return real(directory, path, buffer, flags);
}
int fstatat64(int directory, const char *path, struct stat64 *buffer, int flags) {
    COUNT_STAT_AT(call_fstatat, directory, path, flags); REAL(int (*)(int, const char *, struct stat64 *, int), "fstatat64"); return real(directory, path, buffer, flags);
}
int statx(int directory, const char *path, int flags, unsigned int mask, struct statx *buffer) {
    COUNT_STAT_AT(call_statx, directory, path, flags); REAL(int (*)(int, const char *, int, unsigned int, struct statx *), "statx"); return real(directory, path, flags, mask, buffer);
}

int fcntl(int descriptor, int command, ...) {
    va_list arguments; va_start(arguments, command); void *argument = va_arg(arguments, void *); va_end(arguments);
    COUNT_DESCRIPTOR(call_fcntl, descriptor); REAL(int (*)(int, int, ...), "fcntl"); return real(descriptor, command, argument);
}
int fcntl64(int descriptor, int command, ...) {
    va_list arguments; va_start(arguments, command); void *argument = va_arg(arguments, void *); va_end(arguments);
    COUNT_DESCRIPTOR(call_fcntl, descriptor); REAL(int (*)(int, int, ...), "fcntl64"); return real(descriptor, command, argument);
}

ssize_t listxattr(const char *path, char *list, size_t size) {
    COUNT_PATH(call_listxattr, path); REAL(ssize_t (*)(const char *, char *, size_t), "listxattr"); return real(path, list, size);
}
ssize_t llistxattr(const char *path, char *list, size_t size) {
    COUNT_PATH(call_llistxattr, path); REAL(ssize_t (*)(const char *, char *, size_t), "llistxattr"); return real(path, list, size);
}
ssize_t getxattr(const char *path, const char *name, void *value, size_t size) {
    COUNT_PATH(call_getxattr, path); REAL(ssize_t (*)(const char *, const char *, void *, size_t), "getxattr"); return real(path, name, value, size);
}
ssize_t lgetxattr(const char *path, const char *name, void *value, size_t size) {
    COUNT_PATH(call_lgetxattr, path); REAL(ssize_t (*)(const char *, const char *, void *, size_t), "lgetxattr"); return real(path, name, value, size);
}
ssize_t fgetxattr(int descriptor, const char *name, void *value, size_t size) {
    COUNT_DESCRIPTOR(call_fgetxattr, descriptor); REAL(ssize_t (*)(int, const char *, void *, size_t), "fgetxattr"); return real(descriptor, name, value, size);
}

ssize_t read(int descriptor, void *buffer, size_t size) {
    COUNT_DESCRIPTOR(call_read, descriptor); REAL(ssize_t (*)(int, void *, size_t), "read"); return real(descriptor, buffer, size);
}
ssize_t __read_chk(int descriptor, void *buffer, size_t size, size_t capacity) {
    COUNT_DESCRIPTOR(call_read, descriptor); REAL(ssize_t (*)(int, void *, size_t, size_t), "__read_chk"); return real(descriptor, buffer, size, capacity);
}
ssize_t pread(int descriptor, void *buffer, size_t size, off_t offset) {
    COUNT_DESCRIPTOR(call_pread, descriptor); REAL(ssize_t (*)(int, void *, size_t, off_t), "pread"); return real(descriptor, buffer, size, offset);
}
ssize_t pread64(int descriptor, void *buffer, size_t size, off64_t offset) {
    COUNT_DESCRIPTOR(call_pread, descriptor); REAL(ssize_t (*)(int, void *, size_t, off64_t), "pread64"); return real(descriptor, buffer, size, offset);
}

int close(int descriptor) {
    if (descriptor >= 0 && descriptor < TRACKED_DESCRIPTORS)
        __atomic_store_n(&input_descriptors[descriptor], 0, __ATOMIC_RELAXED);
    REAL(int (*)(int), "close"); return real(descriptor);
}
