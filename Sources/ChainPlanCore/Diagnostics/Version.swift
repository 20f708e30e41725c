/// chainplan's own version, printed by `--version` and written into reports.
public enum ChainPlanVersion {
    public static let string = "0.1.0"
}
