extension Duration {
    /// The duration in seconds, as the reports and time limits use it.
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
