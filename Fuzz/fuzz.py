#!/usr/bin/env python3
"""make fuzz: build the libFuzzer targets, seed them, replay the kept regressions, fuzz.

Usage: python3 Fuzz/fuzz.py [TARGET ...]     (default: every target)
Environment: FUZZ_SECONDS (seconds per target, default DEFAULT_SECONDS below), FUZZ_JOBS (parallel
workers per target, default DEFAULT_JOBS). Fuzz/README.md has the figures these defaults give.

Seeds come from Chains/, Tests/Fixtures and ../shared/corpus, gathered into
.build/fuzz/corpus/<target>/ (never into git); the corpus folder keeps what libFuzzer
adds, so later runs start from there. Inputs that once crashed a target live in
Tests/Fixtures/fuzz/<target>/ and are replayed before fuzzing (and by `make test`). A crash writes its input to
.build/fuzz/artifacts/<target>/ and fails the run.

Leaks: libFuzzer's leak check after every input re-runs the input and then scans the whole heap
with LeakSanitizer whenever an input ends with more allocations than frees (Swift's lazy caches
and the suppressed Foundation leaks do that on most inputs): it took 75-95% of the time and
made the targets 5 to 25 times slower. So the fuzzing loop runs with -detect_leaks=0, and every
input the loop kept (the grown corpus, each a distinct behaviour) and every kept regression is
then run once more with the per-input leak check on: a leak still fails the run, with the input.

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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUZZ = os.path.join(ROOT, "Fuzz")
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus"))
WORK = os.path.join(ROOT, ".build", "fuzz")
TARGETS = ["spec", "model", "mapping", "archive", "plist", "escaping"]
MAX_LEN = 64 * 1024  # libFuzzer's -max_len
MAX_SEED = MAX_LEN  # a bigger seed would be cut at MAX_LEN (for XML, into a malformed document)
DEFAULT_SECONDS = 180
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


def gather(target):
    folder = os.path.join(WORK, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    count = 0
    for name, data in seeds(target):
        digest = hashlib.sha1(data).hexdigest()
        path = os.path.join(folder, "seed-" + digest)
        if not os.path.exists(path):
            with open(path, "wb") as handle:
                handle.write(data)
        count += 1
    return folder, count


# Modules compiled with libFuzzer's coverage instrumentation: chainplan's own, the harness, and
# Yams (the spec target's YAML parser reads the fuzzed bytes). The other dependencies (GRDB,
# swift-crypto, ArgumentParser: no fuzzed input steers them) get AddressSanitizer only, so
# libFuzzer's scan of the coverage counters after every input skips theirs.
COVERED_MODULES = re.compile(r"(ChainPlan\w*|FuzzHarness|fuzz_\w+|Yams)")

# swift-frontend for the fuzz build: the driver runs it (-driver-use-frontend-path) for every
# compile job, and it drops the fuzzer's coverage from modules outside COVERED_MODULES.
FRONTEND_WRAPPER = """#!/usr/bin/env python3
# Written by Fuzz/fuzz.py (see COVERED_MODULES there).
import os, re, subprocess, sys, tempfile
FRONTEND = {frontend!r}
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
            text = open(arg[1:]).read().replace("-sanitize=fuzzer,address", "-sanitize=address")
            handle, path = tempfile.mkstemp(suffix=".resp", dir=os.path.dirname(arg[1:]))
            os.write(handle, text.encode()); os.close(handle)
            written.append(path)
            arg = "@" + path
        fixed.append("-sanitize=address" if arg == "-sanitize=fuzzer,address" else arg)
    args = fixed
if written:
    status = subprocess.call([FRONTEND] + args)
    for path in written:
        os.remove(path)
    sys.exit(status)
os.execv(FRONTEND, [FRONTEND] + args)
"""


def toolset():
    """A SwiftPM toolset: sanitizers and testable imports for every module (libFuzzer's coverage
    only for COVERED_MODULES, through the frontend wrapper), linked with the toolchain's lld
    (gold fails on the sanitizer runtime's debug info)."""
    swift = os.path.realpath(shutil.which("swift") or sys.exit("swift is not on PATH"))
    bin_dir = os.path.dirname(swift)
    lld = os.path.join(bin_dir, "ld.lld")
    if not os.path.exists(lld):
        sys.exit(f"the Swift toolchain has no ld.lld beside {swift}")
    frontend = os.path.join(bin_dir, "swift-frontend")
    if not os.path.exists(frontend):
        sys.exit(f"the Swift toolchain has no swift-frontend beside {swift}")
    os.makedirs(WORK, exist_ok=True)
    wrapper = os.path.join(WORK, "swift-frontend-coverage")
    with open(wrapper, "w") as handle:
        handle.write(FRONTEND_WRAPPER.format(frontend=frontend, pattern=COVERED_MODULES.pattern))
    os.chmod(wrapper, 0o755)
    path = os.path.join(WORK, "toolset.json")
    with open(path, "w") as handle:
        # The driver finds the sanitizer runtimes from the resource directory, which it would
        # otherwise look for beside the wrapper.
        json.dump({"schemaVersion": "1.0",
                   "swiftCompiler": {"extraCLIOptions": [
                       "-sanitize=fuzzer,address", "-enable-testing", "-driver-use-frontend-path", wrapper,
                       "-resource-dir", os.path.join(os.path.dirname(bin_dir), "lib", "swift")]},
                   "linker": {"path": lld}}, handle)
    return path


def build():
    command = ["swift", "build", "--package-path", FUZZ, "--scratch-path", WORK, "-c", "release", "--toolset", toolset()]
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


def run(binary, target, seconds, jobs):
    corpus, seeded = gather(target)
    artifacts = os.path.join(WORK, "artifacts", target) + os.sep
    os.makedirs(artifacts, exist_ok=True)
    base = ["-timeout=10", "-rss_limit_mb=2048", f"-max_len={MAX_LEN}", f"-artifact_prefix={artifacts}"]
    regressions = os.path.join(ROOT, "Tests", "Fixtures", "fuzz", target)
    kept = []
    if os.path.isdir(regressions):
        kept = sorted(os.path.join(regressions, n) for n in os.listdir(regressions) if not n.startswith("."))
    if kept:
        # Replayed with the per-input leak check on (libFuzzer's default).
        replay = subprocess.run([binary] + base + TARGET_OPTIONS.get(target, []) + kept,
                                env=environment(), capture_output=True, text=True)
        if replay.returncode != 0:
            sys.stderr.write(replay.stderr[-4000:])
            return {"target": target, "runs": 0, "crashed": True, "seeds": seeded, "replayed": len(kept)}
    options = base + [f"-max_total_time={seconds}", "-print_final_stats=1", "-detect_leaks=0"]
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
    with open(log, "w") as handle:
        result = subprocess.run([binary] + options + TARGET_OPTIONS.get(target, []) + [corpus],
                                env=environment(), stdout=handle, stderr=subprocess.STDOUT, cwd=logs)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # With -jobs the main log repeats each worker's log: count the workers' logs only.
    names = sorted(n for n in os.listdir(logs) if n != "fuzz.log") if jobs > 1 else ["fuzz.log"]
    text = "".join(open(os.path.join(logs, name), errors="replace").read() for name in names)
    if jobs > 1 and result.returncode != 0:
        text += open(log, errors="replace").read()
    runs = stats(text, "number_of_executed_units")
    crashed = result.returncode != 0 or any(f"ERROR: {tool}" in text for tool in ("libFuzzer", "AddressSanitizer", "LeakSanitizer"))
    if crashed:
        sys.stderr.write(text[-6000:])
    else:
        # The leak check on every input the loop kept (see the module comment).
        check = subprocess.run([binary] + base + ["-runs=0"] + TARGET_OPTIONS.get(target, []) + [corpus],
                               env=environment(), capture_output=True, text=True)
        if check.returncode != 0:
            sys.stderr.write(check.stderr[-6000:])
            crashed = True
    return {"target": target, "runs": runs, "crashed": crashed, "seeds": seeded, "replayed": len(kept),
            "corpus": len(os.listdir(corpus)), "rate": runs // max(seconds, 1), "cpu": cpu,
            "peak_rss": max([int(m) for m in re.findall(r"stat::peak_rss_mb:\s*(\d+)", text)] or [0])}


def main():
    targets = sys.argv[1:] or TARGETS
    unknown = [t for t in targets if t not in TARGETS]
    if unknown:
        sys.exit(f"unknown fuzz target {unknown[0]!r}; targets: {', '.join(TARGETS)}")
    seconds = int(os.environ.get("FUZZ_SECONDS") or DEFAULT_SECONDS)
    jobs = int(os.environ.get("FUZZ_JOBS") or DEFAULT_JOBS)
    bin_path = build()
    results = [run(os.path.join(bin_path, "fuzz-" + t), t, seconds, jobs) for t in targets]
    print()
    print(f"Budget: {seconds} s per target, {jobs} job(s); {os.cpu_count()} CPUs.")
    print(f"| target | runs | runs/s (all jobs) | CPU s | runs per CPU-second | peak RSS MB | seeds | corpus after | regressions replayed | result |")
    print(f"|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['target']} | {r['runs']:,} | {r.get('rate', 0):,} | {r.get('cpu', 0):.0f} | "
              f"{int(r['runs'] / r['cpu']) if r.get('cpu') else 0:,} | {r.get('peak_rss', '-')} | {r['seeds']} | "
              f"{r.get('corpus', '-')} | {r['replayed']} | "
              f"{'CRASH (see .build/fuzz/artifacts/' + r['target'] + ')' if r['crashed'] else 'clean'} |")
    sys.exit(1 if any(r["crashed"] for r in results) else 0)


if __name__ == "__main__":
    main()
