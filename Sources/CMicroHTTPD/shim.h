#ifndef LIVEPAIR_CMICROHTTPD_SHIM_H
#define LIVEPAIR_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// The daemon flags LivePair runs with: an internal thread pool polling with epoll, connections
/// that may be suspended while their work runs elsewhere, and listening-socket reuse off.
static inline unsigned int livepair_mhd_pool_flags(void) {
    return MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
}

/// Called from the URI log callback on the request target as sent (it lies in the connection's
/// read buffer, which libmicrohttpd parses in place): ends it just after its `?`, so that
/// libmicrohttpd keeps no query arguments (the server parses the query itself, with a limit;
/// thousands of arguments would otherwise fill the connection's memory and stall it).
static inline void livepair_mhd_detach_query(const char *target) {
    char *question = strchr((char *)target, '?');
    if (question != NULL) question[1] = '\0';
}

struct livepair_header_walk {
    const char *line_end;
    int intact;
};

static inline enum MHD_Result livepair_mhd_header_gap(void *context, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    struct livepair_header_walk *walk = (struct livepair_header_walk *)context;
    ptrdiff_t gap = key - walk->line_end;
    if (gap < 1 || gap > 2) walk->intact = 0;
    walk->line_end = value == NULL ? key + strlen(key) : value + strlen(value);
    return MHD_YES;
}

/// Whether no header line of the request holds a raw NUL byte. libmicrohttpd parses the request
/// head in place and hands out C strings, so "Bearer tok\0junk" would read as "Bearer tok": each
/// line's text must end right before its line ending (1 or 2 bytes, now NULs), which is right
/// before the next line's name; after the last line the next byte is a NUL too (its LF or the
/// blank line's). `version` is the request's HTTP version as the access handler got it.
static inline int livepair_mhd_header_lines_intact(struct MHD_Connection *connection, const char *version) {
    struct livepair_header_walk walk = { version + strlen(version), 1 };
    MHD_get_connection_values(connection, MHD_HEADER_KIND, livepair_mhd_header_gap, &walk);
    return walk.intact && walk.line_end[1] == '\0';
}

/// Typed wrapper for the variadic MHD_get_connection_info: the connection's socket (-1 when unknown).
static inline int livepair_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// Whether a connection notification says it opened (1) or closed (0).
static inline int livepair_mhd_connection_opened(enum MHD_ConnectionNotificationCode code) {
    return code == MHD_CONNECTION_NOTIFY_STARTED;
}

/// Raises the soft limit of open files to the hard limit; returns the limit now in force.
static inline uint64_t livepair_raise_open_file_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 1024;
    if (limit.rlim_cur < limit.rlim_max) {
        struct rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
    }
    return limit.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)limit.rlim_cur;
}

/// Typed wrapper for the variadic MHD_start_daemon, on `listen_fd`: a socket already bound and
/// listening (IPv4 or IPv6), which the daemon takes over; with `pool_size` worker threads, each
/// connection dropped after `timeout_seconds` without traffic, at most `connection_limit`
/// connections (at most `per_ip_limit` from one client address) and `memory_limit` bytes of buffer
/// per connection; `notify` hears each connection open and close, `target` sees each request
/// target as sent. Returns NULL when the daemon cannot start.
static inline struct MHD_Daemon *livepair_mhd_start_on_socket(
    int listen_fd, unsigned int pool_size, unsigned int timeout_seconds,
    unsigned int connection_limit, unsigned int per_ip_limit, size_t memory_limit,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    MHD_NotifyConnectionCallback notify, void *notify_context,
    void *(*target)(void *context, const char *uri, struct MHD_Connection *connection), void *target_context) {
    return MHD_start_daemon(
        livepair_mhd_pool_flags(), 0, NULL, NULL, handler, handler_context,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
        MHD_OPTION_THREAD_POOL_SIZE, pool_size,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_NOTIFY_CONNECTION, notify, notify_context,
        MHD_OPTION_URI_LOG_CALLBACK, target, target_context,
        MHD_OPTION_END);
}

/// Typed wrapper for the variadic MHD_get_daemon_info: the port the daemon listens on (0 when unknown).
static inline uint16_t livepair_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// MHD_YES and MHD_NO as plain integers (their enum type differs between libmicrohttpd versions).
static inline enum MHD_Result livepair_mhd_yes(void) { return MHD_YES; }
static inline enum MHD_Result livepair_mhd_no(void) { return MHD_NO; }

/// Adds a response header; returns 1 on success.
static inline int livepair_mhd_add_header(struct MHD_Response *response, const char *name, const char *value) {
    return MHD_add_response_header(response, name, value) == MHD_YES;
}

/// A header of the request (NULL when absent).
static inline const char *livepair_mhd_header(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

/// A query argument of the request (NULL when absent).
static inline const char *livepair_mhd_query(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, name);
}

/// Calls `iterator` for every header (`query` 0) or query argument (`query` 1) of the request.
static inline int livepair_mhd_values(struct MHD_Connection *connection, int query, MHD_KeyValueIterator iterator, void *context) {
    return MHD_get_connection_values(connection, query ? MHD_GET_ARGUMENT_KIND : MHD_HEADER_KIND, iterator, context);
}

/// A response whose body is copied from `data`.
static inline struct MHD_Response *livepair_mhd_response_bytes(const void *data, size_t size) {
    return MHD_create_response_from_buffer(size, (void *)data, MHD_RESPMEM_MUST_COPY);
}

/// A response that sends `size` bytes of the open file `fd` from `offset` (the response closes `fd`).
static inline struct MHD_Response *livepair_mhd_response_file(int fd, uint64_t offset, uint64_t size) {
    return MHD_create_response_from_fd_at_offset64(size, fd, offset);
}

/// A response of unknown length (sent chunked) whose bytes `reader` gives as they come; `release`
/// is called once with `context` when the response is destroyed.
static inline struct MHD_Response *livepair_mhd_response_stream(
    void *context, MHD_ContentReaderCallback reader, MHD_ContentReaderFreeCallback release) {
    return MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, reader, context, release);
}

/// What a content reader returns at the end of its stream.
static inline ssize_t livepair_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }

/// Whether the request ended normally (its response was sent).
static inline int livepair_mhd_completed_ok(enum MHD_RequestTerminationCode code) {
    return code == MHD_REQUEST_TERMINATED_COMPLETED_OK;
}

#endif
