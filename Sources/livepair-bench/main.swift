import Foundation

/// `livepair-bench`: performance figures for LivePair's hot paths, each measured side by side
/// with the reference tool it replaces, in one run.
let usage = """
    USAGE: livepair-bench <benchmark> [options]

    BENCHMARKS:
      identify     Identify >= 1,000 files (copies of SampleMedia) with LivePair and with one
                   exiftool process; print both times, the speedup and peak memory.

    OPTIONS (identify):
      --files N         Number of files in the corpus (default 1020).
      --samples DIR     Source of the copies (default ./SampleMedia).
      --work DIR        Where the corpus is written (default: a new temporary directory, removed after).
      --rounds N        LivePair passes; the best is reported (default 5).
    """

let arguments = Array(CommandLine.arguments.dropFirst())
guard let benchmark = arguments.first, !["-h", "--help"].contains(benchmark) else {
    print(usage)
    exit(arguments.isEmpty ? 64 : 0)
}
switch benchmark {
case "identify":
    let options: BenchmarkOptions
    do {
        options = try BenchmarkOptions(Array(arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n\(usage)\n".utf8))
        exit(64)
    }
    do {
        exit(try IdentifyBenchmark(options: options).run())
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        exit(1)
    }
default:
    FileHandle.standardError.write(Data("Error: Unknown benchmark '\(benchmark)'.\n\(usage)\n".utf8))
    exit(64)
}
