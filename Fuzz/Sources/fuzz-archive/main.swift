import FuzzHarness

Harness.run(Harness.keyedArchive)
