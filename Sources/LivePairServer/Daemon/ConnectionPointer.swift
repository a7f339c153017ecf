/// A libmicrohttpd connection handed to another thread, which only resumes it
/// (`MHD_resume_connection` may be called from any thread).
struct ConnectionPointer: @unchecked Sendable {
    // @unchecked: the pointer is only passed back to MHD_resume_connection, which is thread-safe.
    let pointer: OpaquePointer
}
