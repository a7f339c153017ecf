import Foundation

/// Options shared by the benchmarks.
struct BenchmarkOptions {
    /// Files in the corpus.
    var fileCount = 1020
    /// True when `--files` was given (benchmarks with a count of their own take it then).
    var fileCountGiven = false
    /// Where the sample files come from.
    var samples = "SampleMedia"
    /// Where the corpus is written; nil for a temporary directory.
    var work: String?
    /// Passes of the LivePair side.
    var rounds = 5
    /// For `validate`: the second measurement uses this many times the files (1 skips it).
    var scale = 10
    /// For `ingest`: a PostgreSQL catalog URL; the import then also runs with the catalog there
    /// (a fresh schema, dropped after) and the local store, beside the SQLite library.
    var catalog: String?
    /// For `ingest --nodes`: an `s3://BUCKET/PREFIX` store the node runs also use (each run under a
    /// prefix of its own; endpoint and keys from LIVEPAIR_S3_ENDPOINT and AWS_*).
    var store: String?
    /// For `ingest`: node counts; each runs that many `livepair import --files-from -` processes.
    var nodes: [Int] = []
    /// For `serve`: run only this part (`slowloris`, `jobs`, `gallery`, `gallery-list`).
    var only: String?

    /// Errors in the options.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses `--files N --samples DIR --work DIR --rounds N --scale N --catalog URL --store URL --nodes N,N --only PART`.
    init(_ arguments: [String], defaultFileCount: Int) throws {
        fileCount = defaultFileCount
        var index = 0
        func value() throws -> String {
            guard index + 1 < arguments.count else { throw Invalid(description: "missing value for \(arguments[index])") }
            index += 1
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--files":
                guard let count = Int(try value()), count > 0 else { throw Invalid(description: "--files needs a positive number") }
                fileCount = count
                fileCountGiven = true
            case "--samples": samples = try value()
            case "--work": work = try value()
            case "--catalog": catalog = try value()
            case "--store": store = try value()
            case "--only": only = try value()
            case "--nodes":
                let counts = try value().split(separator: ",").map { Int($0) }
                guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) > 0 && ($0 ?? 0) <= 64 }) else {
                    throw Invalid(description: "--nodes takes counts from 1 to 64, such as 1,2,4")
                }
                nodes = counts.compactMap { $0 }
            case "--rounds":
                guard let count = Int(try value()), count > 0 else { throw Invalid(description: "--rounds needs a positive number") }
                rounds = count
            case "--scale":
                guard let factor = Int(try value()), factor > 0 else { throw Invalid(description: "--scale needs a positive number") }
                scale = factor
            default: throw Invalid(description: "unknown option \(arguments[index])")
            }
            index += 1
        }
    }
}
