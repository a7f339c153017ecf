/// Small helpers that keep the wording of messages consistent across commands.
package enum Wording {
    /// "1 file", "2 files", "0 files"; `plural` for words that do not just take an "s".
    package static func count(_ number: Int, _ singular: String, plural: String? = nil) -> String {
        "\(number) " + (number == 1 ? singular : plural ?? singular + "s")
    }
}
