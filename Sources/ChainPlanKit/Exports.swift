// The public API: `import ChainPlanKit` brings every stage of the pipeline, lowest first.
@_exported import ChainPlanCore
@_exported import ChainPlanReaders
@_exported import ChainPlanHashing
@_exported import ChainPlanGraph
@_exported import ChainPlanInference
@_exported import ChainPlanPlanning
@_exported import ChainPlanStore
@_exported import ChainPlanOutput
