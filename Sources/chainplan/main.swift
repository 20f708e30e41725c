import ChainPlanCLI

await ChainPlan.mainWithRemappedExitCodes()
