import FuzzHarness

Harness.run(Harness.mappingModel)
