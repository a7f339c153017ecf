// A preloaded library that counts the file system calls a process makes through the C library,
// for SystemCallCountTests: each wrapped function adds one to its counter and calls the real one
// (found with dlsym(RTLD_NEXT)). At exit the counts are appended to the file named by
// LIVEPAIR_CALL_COUNT_LOG as "name count" lines. It needs no ptrace, so it works where strace
// cannot trace (a CI sandbox where strace ran the program but saw no call).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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
    COUNT(call_open); REAL(int (*)(const char *, int, ...), "open"); return real(path, flags, mode);
}
int open64(const char *path, int flags, ...) {
    va_list arguments; va_start(arguments, flags); mode_t mode = mode_argument(flags, arguments); va_end(arguments);
    COUNT(call_open); REAL(int (*)(const char *, int, ...), "open64"); return real(path, flags, mode);
}
int __open_2(const char *path, int flags) {
    COUNT(call_open); REAL(int (*)(const char *, int), "__open_2"); return real(path, flags);
}
int __open64_2(const char *path, int flags) {
    COUNT(call_open); REAL(int (*)(const char *, int), "__open64_2"); return real(path, flags);
}
int openat(int directory, const char *path, int flags, ...) {
    va_list arguments; va_start(arguments, flags); mode_t mode = mode_argument(flags, arguments); va_end(arguments);
    COUNT(call_openat); REAL(int (*)(int, const char *, int, ...), "openat"); return real(directory, path, flags, mode);
}
int openat64(int directory, const char *path, int flags, ...) {
    va_list arguments; va_start(arguments, flags); mode_t mode = mode_argument(flags, arguments); va_end(arguments);
    COUNT(call_openat); REAL(int (*)(int, const char *, int, ...), "openat64"); return real(directory, path, flags, mode);
}
int __openat_2(int directory, const char *path, int flags) {
    COUNT(call_openat); REAL(int (*)(int, const char *, int), "__openat_2"); return real(directory, path, flags);
}
int __openat64_2(int directory, const char *path, int flags) {
    COUNT(call_openat); REAL(int (*)(int, const char *, int), "__openat64_2"); return real(directory, path, flags);
}

int stat(const char *path, struct stat *buffer) {
    COUNT(call_stat); REAL(int (*)(const char *, struct stat *), "stat"); return real(path, buffer);
}
int stat64(const char *path, struct stat64 *buffer) {
    COUNT(call_stat); REAL(int (*)(const char *, struct stat64 *), "stat64"); return real(path, buffer);
}
int lstat(const char *path, struct stat *buffer) {
    COUNT(call_lstat); REAL(int (*)(const char *, struct stat *), "lstat"); return real(path, buffer);
}
int lstat64(const char *path, struct stat64 *buffer) {
    COUNT(call_lstat); REAL(int (*)(const char *, struct stat64 *), "lstat64"); return real(path, buffer);
}
int fstat(int descriptor, struct stat *buffer) {
    COUNT(call_fstat); REAL(int (*)(int, struct stat *), "fstat"); return real(descriptor, buffer);
}
int fstat64(int descriptor, struct stat64 *buffer) {
    COUNT(call_fstat); REAL(int (*)(int, struct stat64 *), "fstat64"); return real(descriptor, buffer);
}
int fstatat(int directory, const char *path, struct stat *buffer, int flags) {
    COUNT(call_fstatat); REAL(int (*)(int, const char *, struct stat *, int), "fstatat"); return real(directory, path, buffer, flags);
}
int fstatat64(int directory, const char *path, struct stat64 *buffer, int flags) {
    COUNT(call_fstatat); REAL(int (*)(int, const char *, struct stat64 *, int), "fstatat64"); return real(directory, path, buffer, flags);
}
int statx(int directory, const char *path, int flags, unsigned int mask, struct statx *buffer) {
    COUNT(call_statx); REAL(int (*)(int, const char *, int, unsigned int, struct statx *), "statx"); return real(directory, path, flags, mask, buffer);
}

int fcntl(int descriptor, int command, ...) {
    va_list arguments; va_start(arguments, command); void *argument = va_arg(arguments, void *); va_end(arguments);
    COUNT(call_fcntl); REAL(int (*)(int, int, ...), "fcntl"); return real(descriptor, command, argument);
}
int fcntl64(int descriptor, int command, ...) {
    va_list arguments; va_start(arguments, command); void *argument = va_arg(arguments, void *); va_end(arguments);
    COUNT(call_fcntl); REAL(int (*)(int, int, ...), "fcntl64"); return real(descriptor, command, argument);
}

ssize_t listxattr(const char *path, char *list, size_t size) {
    COUNT(call_listxattr); REAL(ssize_t (*)(const char *, char *, size_t), "listxattr"); return real(path, list, size);
}
ssize_t llistxattr(const char *path, char *list, size_t size) {
    COUNT(call_llistxattr); REAL(ssize_t (*)(const char *, char *, size_t), "llistxattr"); return real(path, list, size);
}
ssize_t getxattr(const char *path, const char *name, void *value, size_t size) {
    COUNT(call_getxattr); REAL(ssize_t (*)(const char *, const char *, void *, size_t), "getxattr"); return real(path, name, value, size);
}
ssize_t lgetxattr(const char *path, const char *name, void *value, size_t size) {
    COUNT(call_lgetxattr); REAL(ssize_t (*)(const char *, const char *, void *, size_t), "lgetxattr"); return real(path, name, value, size);
}
ssize_t fgetxattr(int descriptor, const char *name, void *value, size_t size) {
    COUNT(call_fgetxattr); REAL(ssize_t (*)(int, const char *, void *, size_t), "fgetxattr"); return real(descriptor, name, value, size);
}

ssize_t read(int descriptor, void *buffer, size_t size) {
    COUNT(call_read); REAL(ssize_t (*)(int, void *, size_t), "read"); return real(descriptor, buffer, size);
}
ssize_t __read_chk(int descriptor, void *buffer, size_t size, size_t capacity) {
    COUNT(call_read); REAL(ssize_t (*)(int, void *, size_t, size_t), "__read_chk"); return real(descriptor, buffer, size, capacity);
}
ssize_t pread(int descriptor, void *buffer, size_t size, off_t offset) {
    COUNT(call_pread); REAL(ssize_t (*)(int, void *, size_t, off_t), "pread"); return real(descriptor, buffer, size, offset);
}
ssize_t pread64(int descriptor, void *buffer, size_t size, off64_t offset) {
    COUNT(call_pread); REAL(ssize_t (*)(int, void *, size_t, off64_t), "pread64"); return real(descriptor, buffer, size, offset);
}
