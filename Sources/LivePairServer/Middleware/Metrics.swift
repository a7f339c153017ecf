import Foundation
import LivePairLibrary
import Synchronization

/// Counters and a latency histogram for `GET /metrics` (Prometheus text format 0.0.4).
final class Metrics: Sendable {
    /// Upper bounds of the latency histogram, in seconds.
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct State {
        var requests: [String: Int] = [:]  // "route|status"
        var uploads: [String: Int] = [:]  // outcome
        var bytesIn: Int64 = 0
        var bytesOut: Int64 = 0
        var errors = 0
        var aborted = 0
        var bucketCounts = [Int](repeating: 0, count: Metrics.buckets.count)
        var count = 0
        var sum = 0.0
        var derivativesMade = 0
    }

    private let state = Mutex(State())

    /// Counts one finished request.
    func record(_ record: ExchangeRecord) {
        state.withLock { state in
            let route = record.response?.annotations["route"] ?? "-"
            let status = record.response?.status ?? 0
            state.requests["\(route)|\(status)", default: 0] += 1
            if let outcome = record.response?.annotations["outcome"] { state.uploads[outcome, default: 0] += 1 }
            state.bytesIn += record.bytesReceived
            if record.completed { state.bytesOut += record.response?.bodyLength ?? 0 }
            if status >= 500 { state.errors += 1 }
            if !record.completed { state.aborted += 1 }
            for (index, bound) in Self.buckets.enumerated() where record.seconds <= bound { state.bucketCounts[index] += 1 }
            state.count += 1
            state.sum += record.seconds
        }
    }

    /// Counts one derivative (still, placeholder, motion) made by the loader.
    func derivativeMade() { state.withLock { $0.derivativesMade += 1 } }

    /// The text exposition, with the media pool's gauges and the catalog's derivative jobs by
    /// state (left out when the catalog could not be read).
    func exposition(mediaPool: MediaWorkPool, jobs: [DerivativeJobState: Int]? = nil) -> String {
        let state = state.withLock { $0 }
        let pool = mediaPool.snapshot
        var lines: [String] = []
        lines.append("# HELP livepair_media_workers Threads of the media pool (decoding and encoding).")
        lines.append("# TYPE livepair_media_workers gauge")
        lines.append("livepair_media_workers \(mediaPool.workers)")
        lines.append("# HELP livepair_media_busy Media threads working now.")
        lines.append("# TYPE livepair_media_busy gauge")
        lines.append("livepair_media_busy \(pool.busy)")
        lines.append("# HELP livepair_media_queued Media tasks waiting for a thread.")
        lines.append("# TYPE livepair_media_queued gauge")
        lines.append("livepair_media_queued \(pool.queued)")
        lines.append("# HELP livepair_media_rejected_total Requests answered 503 because the media queue was full.")
        lines.append("# TYPE livepair_media_rejected_total counter")
        lines.append("livepair_media_rejected_total \(pool.rejected)")
        lines.append("# HELP livepair_http_requests_total Requests answered, by route and status.")
        lines.append("# TYPE livepair_http_requests_total counter")
        for key in state.requests.keys.sorted() {
            let parts = key.split(separator: "|", maxSplits: 1).map(String.init)
            lines.append(
                "livepair_http_requests_total{route=\"\(parts[0])\",status=\"\(parts.count > 1 ? parts[1] : "0")\"} \(state.requests[key] ?? 0)")
        }
        lines.append("# HELP livepair_uploads_total Uploads decided, by outcome.")
        lines.append("# TYPE livepair_uploads_total counter")
        for outcome in ["accepted", "pending", "duplicate", "rejected"] {
            lines.append("livepair_uploads_total{outcome=\"\(outcome)\"} \(state.uploads[outcome] ?? 0)")
        }
        lines.append("# HELP livepair_http_received_bytes_total Request body bytes received.")
        lines.append("# TYPE livepair_http_received_bytes_total counter")
        lines.append("livepair_http_received_bytes_total \(state.bytesIn)")
        lines.append("# HELP livepair_http_sent_bytes_total Response body bytes sent.")
        lines.append("# TYPE livepair_http_sent_bytes_total counter")
        lines.append("livepair_http_sent_bytes_total \(state.bytesOut)")
        lines.append("# HELP livepair_http_errors_total Responses with a 5xx status.")
        lines.append("# TYPE livepair_http_errors_total counter")
        lines.append("livepair_http_errors_total \(state.errors)")
        lines.append("# HELP livepair_http_aborted_total Requests that ended without a complete response (timeouts, clients gone).")
        lines.append("# TYPE livepair_http_aborted_total counter")
        lines.append("livepair_http_aborted_total \(state.aborted)")
        lines.append("# HELP livepair_derivatives_made_total Stills, placeholders and motion movies made by the loader.")
        lines.append("# TYPE livepair_derivatives_made_total counter")
        lines.append("livepair_derivatives_made_total \(state.derivativesMade)")
        if let jobs {
            lines.append("# HELP livepair_derivative_jobs Derivative jobs in the catalog (every node's), by state.")
            lines.append("# TYPE livepair_derivative_jobs gauge")
            for state in DerivativeJobState.allCases {
                lines.append("livepair_derivative_jobs{state=\"\(state.rawValue)\"} \(jobs[state] ?? 0)")
            }
        }
        lines.append("# HELP livepair_http_request_duration_seconds Time from the headers to the end of the response.")
        lines.append("# TYPE livepair_http_request_duration_seconds histogram")
        for (index, bound) in Self.buckets.enumerated() {
            lines.append("livepair_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(state.bucketCounts[index])")
        }
        lines.append("livepair_http_request_duration_seconds_bucket{le=\"+Inf\"} \(state.count)")
        lines.append("livepair_http_request_duration_seconds_sum \(String(format: "%.6f", state.sum))")
        lines.append("livepair_http_request_duration_seconds_count \(state.count)")
        return lines.joined(separator: "\n") + "\n"
    }
}
