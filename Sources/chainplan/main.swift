import ChainPlanCLI

AllocatorTuning.apply()
await ChainPlan.mainWithRemappedExitCodes()
