// The declarations are in include/CFuzzer.h; libFuzzer itself comes with -sanitize=fuzzer.
