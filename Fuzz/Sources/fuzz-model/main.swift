import FuzzHarness

Harness.run(Harness.modelContents)
