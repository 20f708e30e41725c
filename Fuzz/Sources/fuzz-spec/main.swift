import FuzzHarness

Harness.run(Harness.spec)
