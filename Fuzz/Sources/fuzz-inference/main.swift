import FuzzHarness

Harness.run(Harness.inference)
