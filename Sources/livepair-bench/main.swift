import Foundation

/// `livepair-bench`: performance figures for LivePair's hot paths, each measured side by side
/// with the reference tool it replaces, in one run.
let usage = """
    USAGE: livepair-bench <benchmark> [options]

    BENCHMARKS:
      identify     Identify >= 1,000 files (copies of SampleMedia) with LivePair and with one
                   exiftool process; print both times, the speedup and peak memory.

      validate     Identify, pair and validate (metadata only) >= 2,000 files: distinct Live Photos
                   with renamed halves in nested folders, plus every other sample; against one
                   exiftool process reading the same identifiers; then linearity at 10x the files.

      exif         Parse the Exif blocks of every still sample with LivePair's reader and with
                   libexif (--files = iterations, default 1020), one thread each.

      takeout      A Google Takeout of --files files (default 5,000: half media, half JSON
                   sidecars) in 10 zip parts, imported beside the same media from a plain folder
                   (livepair import), --rounds times interleaved (default 3); target: the parts'
                   median <= 1.2x the folder's.

      load         Load every real pair in SampleMedia/live at 512x512 (degraded result, final
                   result, all frames) against the full still decode, ffmpeg and heif-convert;
                   then cancellation latency on the 24 MP pair (--rounds default 3 here).

      package      Make >= 200 Live Photo pairs from camera files without re-encoding (--files =
                   pairs, default 200) against exiftool writing only the identifier
                   (-Keys:ContentIdentifier=UUID) into the same movies, one process per movie and one
                   batched process (--rounds default 3 here).

      cli          The livepair process from spawn to exit, beside exiftool in the same run:
                   start-up against a Swift program importing only Foundation (40 runs), then
                   inspect --json over >= 1,200 files and validate --json and pair --json over
                   >= 2,400 files (1,200 distinct Live Photos, made once and cached in the
                   temporary folder) against one exiftool process reading the identifiers
                   (targets 100x and 50x); then pair --json over 1,200 hard links to one file
                   beside 1,200 distinct same-size files. Needs livepair and livepair-media built
                   next to livepair-bench (swift build -c release).
      walk         Walk a tree of --files empty files (default 20000, 200 per folder) with
                   LivePair's FileCollector and with a FileManager enumerator; both times.

      ingest       Import >= 1,000 Live Photo pairs (--files = pairs, default 1000; copies of the
                   real pairs with fresh identifiers) into a new library with durable commits,
                   against `cp -r` + `sync` of the same bytes; pairs/s and the ratio. With
                   --catalog URL, also with a PostgreSQL catalog (a fresh schema) and the local
                   store, against the SQLite library's copy mode (target <= 1.5x). With
                   --nodes 1,2,4 (needs --catalog), also through that many node processes
                   (`livepair import --files-from - --json-lines`, 8 jobs shared) on PostgreSQL +
                   a local store and, with --store s3://BUCKET/PREFIX, PostgreSQL + S3, beside
                   the SQLite library through one node: pairs/s, per-upload p50/p99 (targets:
                   local store <= 1.5x, S3 with 4 nodes <= 2x the SQLite library's copy mode).

      serve        Upload >= 1,000 Live Photo pairs (--files = pairs, default 1000) to `livepair
                   serve`'s server over loopback from 8 clients, beside in-process ingestion of the
                   same corpus in the same run: pairs/s, p50/p99 latency; then cached still.jpg and
                   motion.mp4 GETs from 8 clients: requests/s and p99; then 2,000 slowloris
                   connections (from 127.0.0.1, then 50 each from 127.0.1.1-40) for a minute
                   each while 127.0.0.2 asks /healthz every 100 ms: p99 and max (target <= 1 s);
                   and 16 Live Photos uploaded to a server whose derivative jobs are on: the
                   time until their jobs are drained, and the grid's first still.jpg GETs of
                   those (made by the jobs) beside a server without jobs (made on demand).
                   --only slowloris or --only jobs runs that part alone; --only gallery runs
                   the listing's page walk over 2,000 photos (alone: --only gallery-list) and
                   the gallery in Chromium over 200 Live Photos.

    OPTIONS:
      --files N         Number of files in the corpus (default 1020 for identify, 2000 for validate).
      --samples DIR     Source of the copies (default ./SampleMedia).
      --work DIR        Where the corpus is written (default: a new temporary directory, removed after).
      --catalog URL     For ingest: a PostgreSQL URI (scripts/postgres-test.sh start DIR prints one).
      --store URL       For ingest --nodes: s3://BUCKET/PREFIX (LIVEPAIR_S3_ENDPOINT, AWS_* keys).
      --nodes N,N       For ingest: node counts (livepair import --files-from processes).
      --only PART       For serve: only this part (slowloris, jobs, gallery, gallery-list).
      --rounds N        LivePair passes; the best is reported (default 5).
      --scale N         validate: measure again at N times the files (default 10; 1 skips it).
    """

let arguments = Array(CommandLine.arguments.dropFirst())
guard let benchmark = arguments.first, !["-h", "--help"].contains(benchmark) else {
    print(usage)
    exit(arguments.isEmpty ? 64 : 0)
}
switch benchmark {
case "package":
    do {
        var options = try BenchmarkOptions(Array(arguments.dropFirst()), defaultFileCount: 200)
        if !arguments.contains("--rounds") { options.rounds = 3 }
        exit(try PackageBenchmark(options: options).run())
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n\(usage)\n".utf8))
        exit(1)
    }
case "ingest":
    do {
        let options = try BenchmarkOptions(Array(arguments.dropFirst()), defaultFileCount: 1000)
        exit(try IngestBenchmark(options: options).run())
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n\(usage)\n".utf8))
        exit(1)
    }
case "serve":
    do {
        let options = try BenchmarkOptions(Array(arguments.dropFirst()), defaultFileCount: 1000)
        exit(try ServeBenchmark(options: options).run())
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n\(usage)\n".utf8))
        exit(1)
    }
case "takeout":
    do {
        var options = try BenchmarkOptions(Array(arguments.dropFirst()), defaultFileCount: 5000)
        if !arguments.contains("--rounds") { options.rounds = 3 }
        exit(try TakeoutImportBenchmark(options: options).run())
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n\(usage)\n".utf8))
        exit(1)
    }
case "walk":
    do {
        exit(try WalkBenchmark(options: try BenchmarkOptions(Array(arguments.dropFirst()), defaultFileCount: 20000)).run())
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n\(usage)\n".utf8))
        exit(1)
    }
case "load":
    do {
        var options = try BenchmarkOptions(Array(arguments.dropFirst()), defaultFileCount: 1)
        if !arguments.contains("--rounds") { options.rounds = 3 }
        exit(try LoadBenchmark(options: options).run())
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n\(usage)\n".utf8))
        exit(1)
    }
case "cli":
    do {
        var options = try BenchmarkOptions(Array(arguments.dropFirst()), defaultFileCount: 1)
        if !arguments.contains("--rounds") { options.rounds = 3 }
        exit(try CLIBenchmark(options: options).run())
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        exit(1)
    }
case "identify", "validate", "exif":
    let options: BenchmarkOptions
    do {
        options = try BenchmarkOptions(Array(arguments.dropFirst()), defaultFileCount: benchmark == "validate" ? 2000 : 1020)
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n\(usage)\n".utf8))
        exit(64)
    }
    do {
        switch benchmark {
        case "validate": exit(try ValidateBenchmark(options: options).run())
        case "exif": exit(try ExifBenchmark(options: options).run())
        default: exit(try IdentifyBenchmark(options: options).run())
        }
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        exit(1)
    }
default:
    FileHandle.standardError.write(Data("Error: Unknown benchmark '\(benchmark)'.\n\(usage)\n".utf8))
    exit(64)
}
