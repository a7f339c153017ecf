#ifndef LIVEPAIR_CMICROHTTPD_SHIM_H
#define LIVEPAIR_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// The daemon flags LivePair runs with: an internal thread pool polling with epoll, connections
/// that may be suspended while their work runs elsewhere, and listening-socket reuse off.
static inline unsigned int livepair_mhd_pool_flags(void) {
    return MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
}

/// Typed wrapper for the variadic MHD_start_daemon: listens on the IPv4 address `host` (dotted
/// quad) and `port` (0: any free port), with `pool_size` worker threads, each connection dropped
/// after `timeout_seconds` without traffic, at most `connection_limit` connections and
/// `memory_limit` bytes of buffer per connection. Returns NULL when `host` is not an IPv4 address
/// or the daemon cannot start (port in use, ...).
static inline struct MHD_Daemon *livepair_mhd_start(
    const char *host, uint16_t port, unsigned int pool_size, unsigned int timeout_seconds,
    unsigned int connection_limit, size_t memory_limit,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof(address));
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) return NULL;
    return MHD_start_daemon(
        livepair_mhd_pool_flags(), port, NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)&address,
        MHD_OPTION_THREAD_POOL_SIZE, pool_size,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_END);
}

/// As `livepair_mhd_start`, on `listen_fd`: a socket already bound and listening (IPv4 or IPv6),
/// which the daemon takes over. Returns NULL when the daemon cannot start.
static inline struct MHD_Daemon *livepair_mhd_start_on_socket(
    int listen_fd, unsigned int pool_size, unsigned int timeout_seconds,
    unsigned int connection_limit, size_t memory_limit,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context) {
    return MHD_start_daemon(
        livepair_mhd_pool_flags(), 0, NULL, NULL, handler, handler_context,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
        MHD_OPTION_THREAD_POOL_SIZE, pool_size,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
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
