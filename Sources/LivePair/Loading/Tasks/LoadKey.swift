/// What makes two requests the same work, so that concurrent identical requests share one decode.
///
/// It lists exactly the fields that change the decoded result: the kind of work, the files, the
/// geometry and the delivery mode. Per-request fields (handler, progress handler, caller
/// placeholder, synchronous flag) are not part of it.
struct LoadKey: Hashable, Sendable {
    /// The kind of work.
    enum Kind: Hashable, Sendable {
        /// A Live Photo (still + movie).
        case livePhoto
        /// A still image.
        case still
        /// A movie frame at a time (nil: the still-image time, else the middle).
        case movieFrame(time: Double?)
    }

    /// The kind of work.
    let kind: Kind
    /// The files read, in request order.
    let paths: [String]
    /// Size, content mode, resize mode and crop.
    let geometry: ImageGeometry
    /// Degraded-then-final, final only or fast only.
    let deliveryMode: DeliveryMode
}
