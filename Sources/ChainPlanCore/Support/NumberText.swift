import Foundation

/// Numbers as every chainplan output writes them, whatever the user's locale: `1,234,567`
/// grouped with commas, a point before decimals (`en_US_POSIX`), ASCII digits. Output must not change with
/// `LANG`, or goldens, baselines and CI logs would differ between machines.
package enum NumberText {
    private static let locale = Locale(identifier: "en_US_POSIX")

    /// `1234567` → `1,234,567`: ASCII digits grouped by three with commas, built here rather than
    /// by a locale (en_US_POSIX itself does not group).
    package static func grouped<Value: BinaryInteger>(_ value: Value) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// `fixed(0.12345, digits: 2)` → `0.12`.
    package static func fixed(_ value: Double, digits: Int) -> String {
        String(format: "%.\(digits)f", locale: locale, value)
    }

    /// The shortest form of `value` (`%g`): `5`, `0.25`.
    package static func short(_ value: Double) -> String {
        String(format: "%g", locale: locale, value)
    }
}
