import Dispatch
import Foundation
import LivePairLogging
import LivePairServer

/// `serve`'s signals: SIGTERM and SIGINT stop the server gracefully, SIGHUP reloads the tokens.
/// Handled from the moment this value is made (before `listening` is logged), so a signal sent as
/// soon as that line appears is never lost: the initializer returns only once Dispatch has
/// registered every source (a signal between `SIG_IGN` and the registration would be ignored, and a
/// loaded machine can delay the registration past the first request).
struct SignalHandling {
    private let done = DispatchSemaphore(value: 0)
    private let sources: [any DispatchSourceSignal]

    /// Starts handling SIGTERM, SIGINT and SIGHUP for `server`.
    init(server: LivePairServer, tokens: TokenStore, logger: Logger) {
        let done = self.done
        let queue = DispatchQueue(label: "livepair.serve.signals")
        var sources: [any DispatchSourceSignal] = []
        let registered = DispatchGroup()
        for signalNumber in [SIGTERM, SIGINT, SIGHUP] {
            signal(signalNumber, SIG_IGN)  // Dispatch's source then takes the signal
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                if signalNumber == SIGHUP {
                    do throws(TokenStore.LoadError) {
                        try tokens.reload()
                        logger.info("tokens reloaded", metadata: ["tokens": .int(tokens.count)])
                    } catch {
                        logger.error("tokens not reloaded", metadata: ["reason": .string(error.description)])
                    }
                    return
                }
                logger.info("stopping", metadata: ["signal": .int(Int(signalNumber))])
                server.stop()
                done.signal()
            }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            sources.append(source)
        }
        registered.wait()
        self.sources = sources
    }

    /// Blocks until SIGTERM or SIGINT has stopped the server.
    func waitForTermination() {
        done.wait()
        withExtendedLifetime(sources) {}
    }
}
