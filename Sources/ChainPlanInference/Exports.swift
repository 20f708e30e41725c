// The stages this one builds on, visible in every file of this target (and to its clients).
@_exported import ChainPlanHashing
