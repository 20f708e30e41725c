import FuzzHarness

Harness.run(Harness.escaping)
