/// chainplan's own version, printed by `--version` and written into reports.
package enum ChainPlanVersion {
    package static let string = "0.1.0"
}
