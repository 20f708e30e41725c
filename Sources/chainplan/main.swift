import ChainPlanCLI

AllocatorTuning.apply()
ChainPlan.applyExitingProcessSettings()
await ChainPlan.mainWithRemappedExitCodes()
