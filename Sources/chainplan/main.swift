import ChainPlanCLI

AllocatorTuning.apply()
ChainPlan.applyExitingProcessSettings()
ChainPlan.prepare(arguments: Array(CommandLine.arguments.dropFirst()))
await ChainPlan.mainWithRemappedExitCodes()
