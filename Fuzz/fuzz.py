#!/usr/bin/env python3
"""make fuzz: build the libFuzzer targets, seed them, replay the kept regressions, fuzz, replay.

Usage: python3 Fuzz/fuzz.py [TARGET ...]     (default: every target)
Environment: FUZZ_RUNS (runs per target, shared by the jobs; default DEFAULT_RUNS below),
FUZZ_SECONDS (wall-clock cap per target, default DEFAULT_SECONDS), FUZZ_JOBS (parallel workers per
target, default DEFAULT_JOBS), FUZZ_ASAN=1 (run the loop itself under AddressSanitizer).
Fuzz/README.md has the figures these defaults give.

Seeds come from Chains/, Tests/Fixtures and ../shared/corpus, gathered into
.build/fuzz/corpus/<target>/ (never into git); the corpus folder keeps what libFuzzer
adds, so later runs start from there. Inputs that once crashed a target live in
Tests/Fixtures/fuzz/<target>/ and are replayed before fuzzing (and by `make test`). A crash writes its input to
.build/fuzz/artifacts/<target>/ and fails the run.

Two builds: the loop runs in one with libFuzzer's coverage only (.build/fuzz-fast), 3 to 10 times
as many runs per CPU-second as under AddressSanitizer; the regressions before the loop, and after
it every input the loop kept (the grown corpus, one per behaviour it found) and every seed too
large for the loop's -max_len, run in one with AddressSanitizer (.build/fuzz) and the per-input
leak check. Any finding in either fails the run. The targets in ASAN_LOOP (archive) and, with
FUZZ_ASAN=1, all of them run the loop itself in the ASan build.

Leaks: libFuzzer's leak check after every input re-runs the input and then scans the whole heap
with LeakSanitizer whenever an input ends with more allocations than frees (Swift's lazy caches
and the suppressed Foundation leaks do that on most inputs): it took 75-95% of the time and
made the targets 5 to 25 times slower. So the loop runs with -detect_leaks=0, and the leak check
runs in the replay after it.

Stores in ../shared/corpus are read through copies: nothing there is opened in place.
"""
import base64
import hashlib
import json
import os
import re
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUZZ = os.path.join(ROOT, "Fuzz")
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus"))
WORK = os.path.join(ROOT, ".build", "fuzz")  # the AddressSanitizer build, corpora, logs, artifacts
FAST = os.path.join(ROOT, ".build", "fuzz-fast")  # the loop's build without AddressSanitizer
TARGETS = ["spec", "model", "inference", "mapping", "archive", "plist", "escaping"]
# libFuzzer's -max_len, per target (see max_len). A seed over it would be cut into a malformed
# document, so it is not put in the loop's corpus: it is replayed under AddressSanitizer after
# the loop instead, whole (seeds up to MAX_SEED).
# XML and keyed archives: 16 KiB (the grammar and the readers' paths are the same in a 4-KiB
# model as in a 60-KiB one, which only repeats entities; a 64-KiB input cost 4 to 6 times as much
# per run). README: "Third round".
# Chain specs: 4 KiB. A run costs in proportion to the findings it reports (five report formats,
# two of them parsed back), and a fuzzed spec can have one finding per 2 bytes up to the listing
# cap of 1,000 per code; every construct of the grammar, and that cap (1,001 duplicate entries
# `2,`), fits in 4 KiB, as does a chain of 100+ versions (README: "Stop 29").
MAX_LEN = {"spec": 4 * 1024, "model": 16 * 1024, "inference": 16 * 1024, "mapping": 16 * 1024, "archive": 16 * 1024}
DEFAULT_MAX_LEN = 64 * 1024
MAX_SEED = 1024 * 1024
# Targets whose loop runs under AddressSanitizer by default: `archive` drives BinaryArchiveReader,
# which walks the bytes through UnsafeBufferPointer (unchecked in release builds); under ASan at
# 16 KiB it still reaches 1,000,000 runs well within the cap (README: "Third round").
ASAN_LOOP = {"archive"}
# The default budget: 1,000,000 runs per target, shared by the jobs, each target stopped after at
# most DEFAULT_SECONDS of wall-clock time whatever it reached (README: "Third round").
DEFAULT_RUNS = 1_000_000
DEFAULT_SECONDS = 900
DEFAULT_JOBS = 2
# Per-target libFuzzer options. fuzz-escaping renders SVG on chainplan's Graphviz thread, which
# hands the result over and then releases its copy; LeakSanitizer's per-input check can run
# before that and reports it. Memory over 1,000 renders of one input, with
# ASan's quarantine off, stays flat (86.6 MB after 200, 89.5 MB after 1,000), so leak checks
# are off for that target only.
TARGET_OPTIONS = {"escaping": ["-detect_leaks=0"]}


def files(top, predicate):
    if not os.path.isdir(top):
        return
    for folder, dirs, names in os.walk(top):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(folder, name)
            if os.path.isfile(path) and not os.path.islink(path) and predicate(path):
                yield path


def small(path):
    return os.path.getsize(path) <= MAX_SEED


def sqlite_file(path):
    with open(path, "rb") as handle:
        return handle.read(16) == b"SQLite format 3\x00"


def snapshots(xml_path):
    """The base64 model snapshots embedded in an xcmapping.xml, decoded."""
    text = open(xml_path, encoding="utf-8", errors="replace").read()
    for match in re.finditer(r'name="(?:source|destination)modeldata"[^>]*>([^<]+)<', text):
        try:
            yield base64.b64decode(re.sub(r"\s+", "", match.group(1)))
        except ValueError:
            continue


def metadata_plists(store):
    """Z_PLIST blobs of a store, read from a private copy."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "store.sqlite")
        shutil.copyfile(store, copy)
        for suffix in ("-wal", "-shm"):
            if os.path.exists(store + suffix):
                shutil.copyfile(store + suffix, copy + suffix)
        try:
            db = sqlite3.connect(copy)
            rows = db.execute("SELECT Z_PLIST FROM Z_METADATA").fetchall()
            db.close()
        except sqlite3.Error:
            return []
        return [bytes(row[0]) for row in rows if row[0]]


def seeds(target):
    """(name, bytes) seed inputs for one target."""
    chains = os.path.join(ROOT, "Chains")
    fixtures = os.path.join(ROOT, "Tests", "Fixtures")
    if target == "spec":
        spec = lambda p: p.endswith((".json", ".yaml", ".yml", ".lock")) and small(p)
        for top in (chains, os.path.join(fixtures, "Specs"), os.path.join(fixtures, "hostile"), os.path.join(fixtures, "Golden")):
            for path in files(top, spec):
                yield path, open(path, "rb").read()
    elif target == "model":
        contents = lambda p: os.path.basename(p) == "contents" and small(p)
        for top in (chains, fixtures, SHARED):
            for path in files(top, contents):
                yield path, open(path, "rb").read()
    elif target == "inference":
        # One model (compared with itself and a baseline), and each pair of neighbouring versions
        # of a bundle, joined by a NUL byte (compared in both directions).
        yield from seeds("model")
        for top in (chains, fixtures, SHARED):
            bundles = {}
            for path in files(top, lambda p: os.path.basename(p) == "contents" and p.split(os.sep)[-2].endswith(".xcdatamodel")):
                bundles.setdefault(os.path.dirname(os.path.dirname(path)), []).append(path)
            for versions in bundles.values():
                for first, second in zip(versions, versions[1:]):
                    data = open(first, "rb").read() + b"\0" + open(second, "rb").read()
                    if len(data) <= MAX_SEED:
                        yield f"{first}+{os.path.basename(os.path.dirname(second))}", data
    elif target == "mapping":
        for top in (fixtures, SHARED):
            for path in files(top, lambda p: p.endswith("xcmapping.xml") and small(p)):
                yield path, open(path, "rb").read()
    elif target == "archive":
        for top in (fixtures, SHARED):
            for path in files(top, lambda p: p.endswith("xcmapping.xml")):
                for index, data in enumerate(snapshots(path)):
                    if len(data) <= MAX_SEED:
                        yield f"{path}#{index}", data
    elif target == "plist":
        for top in (fixtures, SHARED):
            for path in files(top, lambda p: p.endswith(".plist") and small(p)):
                yield path, open(path, "rb").read()
            for path in files(top, sqlite_file):
                for index, data in enumerate(metadata_plists(path)):
                    yield f"{path}#{index}", data
    elif target == "escaping":
        for path in files(os.path.join(fixtures, "HostileNames"), small):
            for line in open(path, "rb").read().split(b"\n"):
                if line.strip():
                    yield f"{path}:{line[:16]!r}", line
        for name in ["Model 2", 'a"b\\c', "<script>alert(1)</script>", "]; a -> b //", "\u202eevil", "%0A:,", "{{x}}", "é\u0000\r\n"]:
            yield name, name.encode()


def max_len(target):
    return MAX_LEN.get(target, DEFAULT_MAX_LEN)


def gather(target):
    """The loop's corpus folder (seeds up to the target's -max_len, and what earlier runs added),
    the folder of larger seeds (replayed only), and the number of seeds."""
    folder = os.path.join(WORK, "corpus", target)
    large = os.path.join(WORK, "large-seeds", target)
    os.makedirs(folder, exist_ok=True)
    shutil.rmtree(large, ignore_errors=True)
    os.makedirs(large)
    count = 0
    for name, data in seeds(target):
        digest = hashlib.sha1(data).hexdigest()
        path = os.path.join(folder if len(data) <= max_len(target) else large, "seed-" + digest)
        if not os.path.exists(path):
            with open(path, "wb") as handle:
                handle.write(data)
        count += 1
    # Inputs an earlier run kept under a larger -max_len: replayed this once, then out of the loop.
    for name in os.listdir(folder):
        if os.path.getsize(os.path.join(folder, name)) > max_len(target):
            shutil.move(os.path.join(folder, name), os.path.join(large, name))
    return folder, large, count


# Modules compiled with libFuzzer's coverage instrumentation: chainplan's own, the harness, and
# Yams (the spec target's YAML parser reads the fuzzed bytes). The other dependencies (GRDB,
# swift-crypto, ArgumentParser: no fuzzed input steers them) get AddressSanitizer only, so
# libFuzzer's scan of the coverage counters after every input skips theirs.
COVERED_MODULES = re.compile(r"(ChainPlan\w*|FuzzHarness|fuzz_\w+|Yams)")

# swift-frontend for the fuzz builds: the driver runs it (-driver-use-frontend-path) for every
# compile job, and it drops the fuzzer's coverage from modules outside COVERED_MODULES (they keep
# the build's other sanitizer, if it has one).
FRONTEND_WRAPPER = """#!/usr/bin/env python3
# Written by Fuzz/fuzz.py (see COVERED_MODULES there).
import os, re, subprocess, sys, tempfile
FRONTEND = {frontend!r}
FLAG = {flag!r}
OTHER = {other!r}
args = sys.argv[1:]
def expanded(arg):
    if arg.startswith("@") and os.path.isfile(arg[1:]):
        return open(arg[1:]).read().split("\\n")
    return [arg]
words = [word.strip().strip('"') for arg in args for word in expanded(arg)]
modules = [words[i + 1] for i, word in enumerate(words[:-1]) if word == "-module-name"]
written = []
if modules and not re.fullmatch({pattern!r}, modules[-1]):
    fixed = []
    for arg in args:
        if arg.startswith("@") and os.path.isfile(arg[1:]):
            lines = open(arg[1:]).read().split("\\n")
            lines = [line for line in lines if line.strip().strip('"') != FLAG or OTHER]
            lines = [OTHER if line.strip().strip('"') == FLAG else line for line in lines]
            handle, path = tempfile.mkstemp(suffix=".resp", dir=os.path.dirname(arg[1:]))
            os.write(handle, "\\n".join(lines).encode()); os.close(handle)
            written.append(path)
            arg = "@" + path
        if arg == FLAG:
            arg = OTHER
        if arg:
            fixed.append(arg)
    args = fixed
if written:
    status = subprocess.call([FRONTEND] + args)
    for path in written:
        os.remove(path)
    sys.exit(status)
os.execv(FRONTEND, [FRONTEND] + args)
"""


def toolset(sanitize, scratch):
    """A SwiftPM toolset: `-sanitize=<sanitize>` and testable imports for every module (libFuzzer's
    coverage only for COVERED_MODULES, through the frontend wrapper), linked with the toolchain's
    lld (gold fails on the sanitizer runtime's debug info)."""
    swift = os.path.realpath(shutil.which("swift") or sys.exit("swift is not on PATH"))
    bin_dir = os.path.dirname(swift)
    lld = os.path.join(bin_dir, "ld.lld")
    if not os.path.exists(lld):
        sys.exit(f"the Swift toolchain has no ld.lld beside {swift}")
    frontend = os.path.join(bin_dir, "swift-frontend")
    if not os.path.exists(frontend):
        sys.exit(f"the Swift toolchain has no swift-frontend beside {swift}")
    os.makedirs(scratch, exist_ok=True)
    flag = "-sanitize=" + sanitize
    other = ",".join(name for name in sanitize.split(",") if name != "fuzzer")
    wrapper = os.path.join(scratch, "swift-frontend-coverage")
    with open(wrapper, "w") as handle:
        handle.write(FRONTEND_WRAPPER.format(frontend=frontend, pattern=COVERED_MODULES.pattern,
                                             flag=flag, other="-sanitize=" + other if other else ""))
    os.chmod(wrapper, 0o755)
    path = os.path.join(scratch, "toolset.json")
    with open(path, "w") as handle:
        # The driver finds the sanitizer runtimes from the resource directory, which it would
        # otherwise look for beside the wrapper.
        json.dump({"schemaVersion": "1.0",
                   "swiftCompiler": {"extraCLIOptions": [
                       flag, "-enable-testing", "-driver-use-frontend-path", wrapper,
                       "-resource-dir", os.path.join(os.path.dirname(bin_dir), "lib", "swift")]},
                   "linker": {"path": lld}}, handle)
    return path


def build(sanitize="fuzzer,address", scratch=WORK):
    """Builds the targets with `-sanitize=<sanitize>` into `scratch`; returns the binaries' folder."""
    command = ["swift", "build", "--package-path", FUZZ, "--scratch-path", scratch, "-c", "release",
               "--toolset", toolset(sanitize, scratch)]
    subprocess.run(command, check=True)
    return subprocess.run(command + ["--show-bin-path"], check=True, capture_output=True, text=True).stdout.strip()


def environment():
    env = dict(os.environ)
    suppressions = os.path.join(FUZZ, "lsan-suppressions.txt")
    env["LSAN_OPTIONS"] = f"suppressions={suppressions}:print_suppressions=0"
    env["ASAN_OPTIONS"] = "detect_stack_use_after_return=0:allocator_may_return_null=1"
    # Swift's crash backtracer reads every thread's stack, the Graphviz worker's included, and
    # AddressSanitizer stops it there, hiding the crash it was reporting: libFuzzer's own
    # report (the failed check's message, the input) is enough.
    env["SWIFT_BACKTRACE"] = "enable=no"
    return env


def stats(text, name):
    return sum(int(m) for m in re.findall(r"stat::" + name + r":\s*(\d+)", text))


def replay(binary, target, inputs, length):
    """Runs `inputs` (files or folders) once each through the AddressSanitizer build with the
    per-input leak check on; the failure's log, or None."""
    artifacts = os.path.join(WORK, "artifacts", target) + os.sep
    check = subprocess.run([binary, "-timeout=10", "-rss_limit_mb=2048", f"-max_len={length}",
                            f"-artifact_prefix={artifacts}", "-runs=0"] + TARGET_OPTIONS.get(target, []) + inputs,
                           env=environment(), capture_output=True, text=True)
    return check.stderr[-6000:] if check.returncode != 0 else None


def run(binaries, target, runs_wanted, seconds, jobs):
    """Replays the target's regressions, fuzzes it with `binaries["loop"]`, then replays what the
    loop kept and the seeds too large for it with `binaries["asan"]`."""
    corpus, large, seeded = gather(target)
    artifacts = os.path.join(WORK, "artifacts", target) + os.sep
    os.makedirs(artifacts, exist_ok=True)
    regressions = os.path.join(ROOT, "Tests", "Fixtures", "fuzz", target)
    kept = []
    if os.path.isdir(regressions):
        kept = sorted(os.path.join(regressions, n) for n in os.listdir(regressions) if not n.startswith("."))
    result = {"target": target, "runs": 0, "crashed": False, "seeds": seeded, "replayed": len(kept)}
    if kept:
        failure = replay(binaries["asan"], target, kept, MAX_SEED)
        if failure:
            sys.stderr.write(failure)
            return dict(result, crashed=True)
    options = ["-timeout=10", "-rss_limit_mb=2048", f"-max_len={max_len(target)}", f"-artifact_prefix={artifacts}",
               f"-runs={-(-runs_wanted // jobs)}", f"-max_total_time={seconds}", "-print_final_stats=1", "-detect_leaks=0"]
    dictionary = os.path.join(FUZZ, "Dictionaries", target + ".dict")
    if os.path.exists(dictionary):
        options.append(f"-dict={dictionary}")
    if jobs > 1:
        options += [f"-jobs={jobs}", f"-workers={jobs}"]
    logs = os.path.join(WORK, "logs", target)
    shutil.rmtree(logs, ignore_errors=True)
    os.makedirs(logs)
    log = os.path.join(logs, "fuzz.log")
    # With -jobs, each worker writes fuzz-<n>.log into the working directory: the log folder.
    # CPU time of the fuzzing processes: on a shared machine the wall-clock rate says as much
    # about the other processes as about the target; runs per CPU-second does not.
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    with open(log, "w") as handle:
        loop = subprocess.run([binaries["loop"]] + options + TARGET_OPTIONS.get(target, []) + [corpus],
                              env=environment(), stdout=handle, stderr=subprocess.STDOUT, cwd=logs)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.monotonic() - began
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # With -jobs the main log repeats each worker's log: count the workers' logs only.
    names = sorted(n for n in os.listdir(logs) if n != "fuzz.log") if jobs > 1 else ["fuzz.log"]
    text = "".join(open(os.path.join(logs, name), errors="replace").read() for name in names)
    if jobs > 1 and loop.returncode != 0:
        text += open(log, errors="replace").read()
    runs = stats(text, "number_of_executed_units")
    crashed = loop.returncode != 0 or any(f"ERROR: {tool}" in text for tool in ("libFuzzer", "AddressSanitizer", "LeakSanitizer"))
    if crashed:
        sys.stderr.write(text[-6000:])
    else:
        # Every input the loop kept (the grown corpus, one per behaviour it found) and every seed
        # too large for the loop, once more under AddressSanitizer with the leak check.
        start = time.monotonic()
        failure = replay(binaries["asan"], target, [corpus], max_len(target)) or \
            (os.listdir(large) and replay(binaries["asan"], target, [large], MAX_SEED))
        result["replay_seconds"] = time.monotonic() - start
        if failure:
            sys.stderr.write(failure)
            crashed = True
    return dict(result, runs=runs, crashed=crashed, corpus=len(os.listdir(corpus)), large=len(os.listdir(large)),
                rate=int(runs / max(wall, 1)), wall=wall, cpu=cpu,
                peak_rss=max([int(m) for m in re.findall(r"stat::peak_rss_mb:\s*(\d+)", text)] or [0]))


def main():
    targets = sys.argv[1:] or TARGETS
    unknown = [t for t in targets if t not in TARGETS]
    if unknown:
        sys.exit(f"unknown fuzz target {unknown[0]!r}; targets: {', '.join(TARGETS)}")
    runs = int(os.environ.get("FUZZ_RUNS") or DEFAULT_RUNS)
    seconds = int(os.environ.get("FUZZ_SECONDS") or DEFAULT_SECONDS)
    jobs = int(os.environ.get("FUZZ_JOBS") or DEFAULT_JOBS)
    full_asan = os.environ.get("FUZZ_ASAN", "0") not in ("", "0")
    asan = build("fuzzer,address", WORK)
    # The loop's build: libFuzzer's coverage only, unless FUZZ_ASAN=1 (README: "Third round").
    loop = asan if full_asan or set(targets) <= ASAN_LOOP else build("fuzzer", FAST)
    binaries = lambda t: {"asan": os.path.join(asan, "fuzz-" + t),
                          "loop": os.path.join(asan if t in ASAN_LOOP else loop, "fuzz-" + t)}
    results = [run(binaries(t), t, runs, seconds, jobs) for t in targets]
    print()
    print(f"Budget: {runs:,} runs or at most {seconds} s per target, {jobs} job(s); {os.cpu_count()} CPUs; "
          f"loop {'under AddressSanitizer' if full_asan else 'with coverage only (under AddressSanitizer: ' + ', '.join(sorted(ASAN_LOOP)) + '), then a replay under AddressSanitizer'}.")
    print(f"| target | runs | wall s | runs/s (all jobs) | CPU s | runs per CPU-second | peak RSS MB | seeds | corpus after | "
          f"large seeds | ASan replay s | regressions replayed | result |")
    print(f"|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['target']} | {r['runs']:,} | {r.get('wall', 0):.0f} | {r.get('rate', 0):,} | {r.get('cpu', 0):.0f} | "
              f"{int(r['runs'] / r['cpu']) if r.get('cpu') else 0:,} | {r.get('peak_rss', '-')} | {r['seeds']} | "
              f"{r.get('corpus', '-')} | {r.get('large', '-')} | {r.get('replay_seconds', 0):.0f} | {r['replayed']} | "
              f"{'CRASH (see .build/fuzz/artifacts/' + r['target'] + ')' if r['crashed'] else 'clean'} |")
    short = [r["target"] for r in results if r["runs"] < runs and not r["crashed"]]
    if short:
        print(f"Stopped by the {seconds}-s cap before {runs:,} runs: {', '.join(short)}.")
    sys.exit(1 if any(r["crashed"] for r in results) else 0)


if __name__ == "__main__":
    main()
