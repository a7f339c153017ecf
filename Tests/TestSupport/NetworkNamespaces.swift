import Foundation

/// Network namespaces for node processes, made by `scripts/netns-test.sh` (root only): one
/// namespace per node, each joined by a veth pair to a bridge in this namespace whose address
/// (`serverAddress`) the servers listen on. `cut` sets a node's bridge port down (its packets are
/// lost, as in a network partition), `restore` brings it back. `delete()` removes everything; a
/// watchdog the script starts removes it too if this process dies first.
///
/// When namespaces cannot be made (not root, no `ip`, no kernel support), `init` throws the
/// script's reason: a test that needs them fails with it, it never skips.
public final class NetworkNamespaces: Sendable {
    /// Why the namespaces could not be made or changed.
    public struct Failure: Error, CustomStringConvertible {
        /// The script's explanation.
        public let description: String
    }

    /// The bridge's address in this namespace (a /24 of 10.0.0.0/8 unused on the machine).
    public let serverAddress: String
    /// The namespace of each node, for `ip netns exec NAME`.
    public let names: [String]
    /// Each node's address (on the bridge's subnet).
    public let addresses: [String]
    private let directory: String

    /// `scripts/netns-test.sh` at the package root.
    public static let script: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("scripts/netns-test.sh")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
        }
        return "scripts/netns-test.sh"
    }()

    /// Makes `nodes` namespaces and the bridge.
    public init(nodes: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-netns-\(UUID().uuidString)").path
        let made = ChildProcess.runCapturingText(
            "/usr/bin/env", ["NETNS_OWNER_PID=\(getpid())", "/bin/bash", Self.script, "create", directory, "\(nodes)"])
        guard made.status == 0 else {
            try? FileManager.default.removeItem(atPath: directory)
            throw Failure(description: "network namespaces could not be made (\(Self.script) create): \(made.error)")
        }
        var values: [String: String] = [:]
        for line in made.output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        guard let server = values["NETNS_SERVER"], let names = values["NETNS_NAMES"]?.split(separator: " ").map(String.init),
            let addresses = values["NETNS_ADDRESSES"]?.split(separator: " ").map(String.init),
            names.count == nodes, addresses.count == nodes
        else {
            _ = ChildProcess.runCapturingText("/bin/bash", [Self.script, "delete", directory])
            throw Failure(description: "\(Self.script) create printed no settings: \(made.output)")
        }
        serverAddress = server
        self.names = names
        self.addresses = addresses
    }

    /// Cuts node `index` off the bridge.
    public func cut(_ index: Int) throws { try change("cut", index) }

    /// Brings node `index` back.
    public func restore(_ index: Int) throws { try change("restore", index) }

    private func change(_ command: String, _ index: Int) throws {
        let outcome = ChildProcess.runCapturingText("/bin/bash", [Self.script, command, directory, "\(index)"])
        guard outcome.status == 0 else { throw Failure(description: "\(Self.script) \(command) \(index): \(outcome.error)") }
    }

    /// Removes the veths, the bridge and the namespaces (processes still inside keep theirs until they end).
    public func delete() {
        _ = ChildProcess.runCapturingText("/bin/bash", [Self.script, "delete", directory])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The `ip` executable (iproute2).
    public static let ip: URL = {
        let found = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first { FileManager.default.isExecutableFile(atPath: $0) }
        return URL(fileURLWithPath: found ?? "/usr/sbin/ip")
    }()

    /// The arguments of `ip` that run `command` (an executable path and its arguments) in node
    /// `index`'s namespace.
    public func arguments(runningInNode index: Int, _ command: [String]) -> [String] { ["netns", "exec", names[index]] + command }
}
