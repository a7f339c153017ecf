import Dispatch

/// Runs the pieces of one decode (HEIC tiles, JPEG strips) on all cores, each writing its own
/// disjoint part of one output buffer, and turns their outcomes into one.
enum ParallelPieces {
    /// Runs `piece` for every index below `count` (inline when there is one), checking
    /// `isCancelled` before each. Once a piece fails or the work is cancelled, no new piece
    /// starts. `piece` gets the index and `output`, of which it must write only its own part.
    ///
    /// - Throws: `MediaError.cancelled` when a piece found the work cancelled; otherwise the
    ///   failure of the first failed piece, by index.
    static func run(
        count: Int, output: UnsafeMutableRawPointer, isCancelled: @escaping @Sendable () -> Bool,
        _ piece: @escaping @Sendable (_ index: Int, _ output: UnsafeMutableRawPointer) throws(MediaError) -> Void
    ) throws(MediaError) {
        let stop = CancellationFlag()
        var failures = [MediaError?](repeating: nil, count: count)
        failures.withUnsafeMutableBufferPointer { slots in
            let shared = Destinations(output: output, failures: slots)
            let run: @Sendable (Int) -> Void = { index in
                if stop.isCancelled { return }
                if isCancelled() {
                    shared.record(.cancelled, at: index)
                    stop.cancel()
                    return
                }
                do throws(MediaError) {
                    try piece(index, shared.output)
                } catch {
                    shared.record(error, at: index)
                    stop.cancel()
                }
            }
            if count == 1 { run(0) } else { DispatchQueue.concurrentPerform(iterations: count, execute: run) }
        }
        if failures.contains(where: { $0 == .cancelled }) { throw .cancelled }
        if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
    }
}

/// The output and the per-piece failure slots shared by the parallel pieces.
///
/// `@unchecked Sendable` is sound here: every piece writes only its own part of the output and
/// its own failure slot, and `concurrentPerform` returns only after all pieces, before the
/// buffers are read or freed.
private struct Destinations: @unchecked Sendable {
    let output: UnsafeMutableRawPointer
    let failures: UnsafeMutableBufferPointer<MediaError?>

    func record(_ error: MediaError, at index: Int) { failures[index] = error }
}
