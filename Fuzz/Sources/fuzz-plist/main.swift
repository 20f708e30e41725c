import FuzzHarness

Harness.run(Harness.storeMetadata)
