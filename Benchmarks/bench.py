#!/usr/bin/env python3
"""make bench: chainplan's performance targets, side by side with the tools people would use instead.

Every figure is the median of repeated runs of whole processes (start-up included on both sides);
every comparison is measured in one run, alternating the two commands. Peak memory is the child's
ru_maxrss from wait4. Inputs are generated (seeded) under .build/bench; nothing generated goes into git.

Usage: bench.py [GROUP ...]   groups: budgets history swiftdata chains corpus classify deferred hash graph dryrun wide version (default: all)
Environment: BENCH_RUNS (default 5), CHAINPLAN (default .build/release/chainplan), PYTHON_PEERS
(an interpreter with alembic, default .build/bench/venv/bin/python).
Writes Benchmarks/results.json, Benchmarks/RESULTS.md and Benchmarks/scaling.svg.
"""
import datetime
import glob
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check import evaluate  # noqa: E402  (the targets live in check.py)

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "Benchmarks"
WORK = ROOT / ".build" / "bench"
INPUTS = WORK / "inputs"
CHAINPLAN = os.environ.get("CHAINPLAN", str(ROOT / ".build" / "release" / "chainplan"))
PEER_PYTHON = os.environ.get("PYTHON_PEERS", str(WORK / "venv" / "bin" / "python"))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
# The Makefile's STATIC_STDLIB: on Linux, release binaries link Swift's runtime and Foundation in.
RELEASE_LINK_FLAGS = ["--static-swift-stdlib", "-Xlinker", "--no-export-dynamic"] if platform.system() == "Linux" else []
CORPUS = ROOT.parent / "shared" / "corpus"
GROUPS = ["budgets", "history", "swiftdata", "version", "chains", "corpus", "classify", "deferred", "hash", "graph", "dryrun", "wide"]
WIDE_SIZES = (750, 3000, 12000)  # the largest: 7 MB of model XML, under libxml2's 10-MB limit


class BenchError(Exception):
    pass


def run_once(command, cwd=None):
    """(seconds, peak RSS in KB) of one process; fails loudly on a signal or an unexpected status."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    stderr = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code < 0 or code > 1:  # chainplan exits 1 on findings; anything else is a broken run
        raise BenchError(f"{' '.join(map(str, command))} exited with {code}: {stderr.strip()[:300]}")
    return elapsed, usage.ru_maxrss


def run_sequence(commands, cwd=None):
    """One sample of several processes run back to back: total seconds, largest peak RSS."""
    total, peak = 0.0, 0
    for command in commands:
        seconds, rss = run_once(command, cwd)
        total += seconds
        peak = max(peak, rss)
    return total, peak


def measure(variants, runs=RUNS):
    """Median seconds and peak RSS (KB) of each variant: {label: [command, ...]}, alternating."""
    samples = {label: [] for label in variants}
    peaks = {label: 0 for label in variants}
    labels = list(variants)
    for round_ in range(runs):
        order = labels if round_ % 2 == 0 else list(reversed(labels))
        for label in order:
            seconds, rss = run_sequence(variants[label])
            samples[label].append(seconds)
            peaks[label] = max(peaks[label], rss)
    return {label: {"median": statistics.median(samples[label]), "samples": samples[label], "rss_kb": peaks[label]}
            for label in labels}


def cp(*arguments):
    return [CHAINPLAN, *map(str, arguments)]


# --- groups -------------------------------------------------------------------------------------

def group_version(figures, details):
    result = measure({"chainplan --version": [cp("--version")]}, runs=max(RUNS, 11))
    figures["version.seconds"] = result["chainplan --version"]["median"]
    details["version"] = result


def group_chains(figures, details):
    subprocess.run([sys.executable, BENCH / "gen_chains.py", INPUTS, "1000,10000,100000"], check=True)
    rows = {}
    for kind in ("array", "tree", "branchy"):
        for size in (1000, 10000, 100000):
            spec = INPUTS / f"{kind}-{size}.json"
            variants = {
                "text": [cp("validate", spec, "-o", "/dev/null"), cp("paths", spec, "-o", "/dev/null")],
                "json": [cp("validate", spec, "--format", "json", "-o", "/dev/null"),
                         cp("paths", spec, "--format", "json", "-o", "/dev/null")],
            }
            result = measure(variants)
            rows[f"{kind}.{size}"] = result
            # The target is on the commands as people run them (text); JSON, which encodes the whole
            # document twice, is reported beside it.
            figures[f"chains.{kind}.{size}.seconds"] = result["text"]["median"]
            figures[f"chains.{kind}.{size}.json_seconds"] = result["json"]["median"]
            figures[f"chains.{kind}.{size}.rss_mb"] = max(result["text"]["rss_kb"], result["json"]["rss_kb"]) / 1024
        figures[f"chains.{kind}.scaling"] = figures[f"chains.{kind}.100000.seconds"] / figures[f"chains.{kind}.10000.seconds"]
    if not Path(PEER_PYTHON).exists():
        raise BenchError(f"{PEER_PYTHON} is missing: run 'make bench-deps' (it installs alembic in .build/bench/venv)")
    for kind in ("array", "tree"):
        spec = INPUTS / f"{kind}-10000.json"
        result = measure({
            "chainplan": [cp("paths", spec, "--format", "json", "-o", "/dev/null")],
            "alembic": [[PEER_PYTHON, BENCH / "peers" / "alembic_revmap.py", spec]],
        })
        inside = subprocess.run([PEER_PYTHON, BENCH / "peers" / "alembic_revmap.py", spec],
                                capture_output=True, text=True, check=True).stdout.split()
        rows[f"alembic.{kind}.10000"] = result
        figures[f"chains.alembic.{kind}.speedup"] = result["alembic"]["median"] / result["chainplan"]["median"]
        figures[f"chains.alembic.{kind}.inprocess_seconds"] = float(inside[-1])
        figures[f"chains.alembic.{kind}.inprocess_speedup"] = float(inside[-1]) / result["chainplan"]["median"]
    # The branchy tree (1,000 bases merging): Alembic walks from every base, which takes minutes,
    # so it runs once with a time limit; a stopped run gives a lower bound on the ratio.
    spec = INPUTS / "branchy-10000.json"
    chainplan_seconds = measure({"chainplan": [cp("paths", spec, "--format", "json", "-o", "/dev/null")]})["chainplan"]["median"]
    limit = float(os.environ.get("BENCH_ALEMBIC_LIMIT", "90"))
    started = time.perf_counter()
    try:
        subprocess.run([PEER_PYTHON, BENCH / "peers" / "alembic_revmap.py", spec], capture_output=True, timeout=limit, check=True)
        alembic_seconds, stopped = time.perf_counter() - started, False
    except subprocess.TimeoutExpired:
        alembic_seconds, stopped = limit, True
    figures["chains.alembic.branchy.seconds"] = alembic_seconds
    figures["chains.alembic.branchy.stopped"] = 1.0 if stopped else 0.0
    figures["chains.alembic.branchy.speedup"] = alembic_seconds / chainplan_seconds
    details["chains"] = rows


def corpus_bundles():
    bundles = sorted(Path(p) for p in glob.glob(str(CORPUS / "**" / "*.xcdatamodeld"), recursive=True))
    if not bundles:
        raise BenchError(f"no model bundles under {CORPUS}")
    return bundles


def group_corpus(figures, details):
    """Every model version of the corpus: one chainplan process over all bundles against one xmllint
    process over all their files (the parse floor); and one process per bundle on both sides."""
    if not shutil.which("xmllint"):
        raise BenchError("xmllint is missing: run 'make bench-deps' (apt libxml2-utils)")
    bundles = corpus_bundles()
    per_bundle = [sorted(glob.glob(str(bundle / "*.xcdatamodel" / "contents"))) for bundle in bundles]
    files = [f for contents in per_bundle for f in contents]
    result = measure({
        "chainplan inspect (one process)": [cp("inspect", *bundles, "-o", "/dev/null")],
        "xmllint --noout (one process)": [["xmllint", "--noout", *files]],
        "chainplan inspect (per bundle)": [cp("inspect", bundle, "-o", "/dev/null") for bundle in bundles],
        "xmllint --noout (per bundle)": [["xmllint", "--noout", *contents] for contents in per_bundle],
    })
    one, floor = result["chainplan inspect (one process)"]["median"], result["xmllint --noout (one process)"]["median"]
    figures["corpus.ratio"] = one / floor
    figures["corpus.seconds"] = one
    figures["corpus.per_bundle_ratio"] = (result["chainplan inspect (per bundle)"]["median"]
                                          / result["xmllint --noout (per bundle)"]["median"])
    details["corpus"] = dict(result, bundles=len(bundles), files=len(files))


def group_classify(figures, details):
    woo = CORPUS / "woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld"
    churn_dir = WORK / "churn"
    if not (churn_dir / "churn.json").exists():
        subprocess.run([sys.executable, BENCH / "gen_model.py", churn_dir, "100", "200", "20"], check=True)
    result = measure({
        # Classification, not JSON encoding of every change, is what is measured: text output.
        "woocommerce": [cp("validate", woo, "-o", "/dev/null")],
        "churn": [cp("validate", churn_dir / "churn.json", "-o", "/dev/null")],
    })
    figures["classify.woocommerce.seconds"] = result["woocommerce"]["median"]
    figures["classify.churn.seconds"] = result["churn"]["median"]
    figures["classify.churn.rss_mb"] = result["churn"]["rss_kb"] / 1024
    details["classify"] = result


def round_ratios(result, label, base):
    """Median of the per-round ratios of two variants measured together (each round runs both back
    to back, so a slow moment of the machine weighs on both sides of its ratio)."""
    return statistics.median(a / b for a, b in zip(result[label]["samples"], result[base]["samples"]))


def group_deferred(figures, details):
    """What deferred lightweight migration's analysis adds to classifying WooCommerce (issue 23: at most
    10%): each command with `--deferred` against itself without, alternated. `validate` is the
    classification `make bench` times; `paths --format json` is the output that also lists every direct
    jump's SQLite work (115 jumps, 10,470 table rows)."""
    woo = CORPUS / "woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld"
    pairs = {
        "validate": ["validate", woo, "-o", "/dev/null"],
        "validate json": ["validate", woo, "--format", "json", "-o", "/dev/null"],
        "paths": ["paths", woo, "-o", "/dev/null"],
        "paths json": ["paths", woo, "--format", "json", "-o", "/dev/null"],
    }
    variants = {}
    for name, arguments in pairs.items():
        variants[name] = [cp(*arguments)]
        variants[name + " --deferred"] = [cp(*arguments, "--deferred")]
    result = measure(variants, runs=max(RUNS, 9))
    for name in pairs:
        key = "deferred." + name.replace(" ", "_")
        figures[key + ".ratio"] = round_ratios(result, name + " --deferred", name)
        figures[key + ".seconds"] = result[name + " --deferred"]["median"]
    details["deferred"] = result


def group_hash(figures, details):
    """`chainplan hash` over all 117 WooCommerce versions against loading them (`inspect`, which
    reads and resolves every version): issue 36's budget is at most 1.5x."""
    woo = CORPUS / "woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld"
    result = measure({
        "hash": [cp("hash", woo, "-o", "/dev/null")],
        "load (inspect)": [cp("inspect", woo, "-o", "/dev/null")],
    }, runs=max(RUNS, 15))
    figures["hash.woocommerce.seconds"] = result["hash"]["median"]
    figures["hash.woocommerce.ratio"] = round_ratios(result, "hash", "load (inspect)")
    details["hash"] = result


def group_graph(figures, details):
    """In-process rendering (libgvc, through ChainPlanKit) against `dot -Tsvg` on the same DOT text, measured
    by Benchmarks/GraphBench in one process, alternating; plus whole `chainplan graph` processes."""
    if not shutil.which("dot"):
        raise BenchError("dot is missing: run 'make bench-deps' (apt graphviz)")
    subprocess.run([sys.executable, BENCH / "gen_chains.py", INPUTS, "1000"], check=True)
    spec = INPUTS / "array-1000.json"
    dot_file = WORK / "array-1000.dot"
    run_once(cp("graph", spec, "--format", "dot", "-o", dot_file))
    # Whole processes: the machine's slow moments move a single process by ±10%, so each round
    # runs both and the figure is the median of the rounds' ratios.
    processes = measure({
        "chainplan graph (svg)": [cp("graph", spec, "-o", "/dev/null")],
        "dot -Tsvg": [["dot", "-Tsvg", dot_file, "-o", "/dev/null"]],
    }, runs=max(RUNS, 41))
    figures["graph.1000.process_ratio"] = round_ratios(processes, "chainplan graph (svg)", "dot -Tsvg")
    details["graph"] = {"processes": processes}
    # In process: GraphBench links chainplan's rendering stage, whose types are `package`
    # declarations (not public API); a separate package reads them through `@testable import`,
    # so it is built with testing enabled.
    package = BENCH / "GraphBench"
    subprocess.run(["swift", "build", "-c", "release", "-Xswiftc", "-enable-testing", "--package-path", package], check=True,
                   stdout=subprocess.DEVNULL)
    output = subprocess.run([package / ".build" / "release" / "GraphBench"], capture_output=True, text=True, check=True,
                            env=dict(os.environ, RUNS=str(max(RUNS, 5)))).stdout.strip().splitlines()
    inside = json.loads(output[-1])
    figures["graph.1000.ratio"] = inside["inprocess_1000"] / inside["dot_1000"]
    figures["graph.1000.inprocess_seconds"] = inside["inprocess_1000"]
    figures["graph.5000.seconds"] = inside["history_5000"]
    figures["graph.rss_growth_kb"] = inside["rss_after_kb"] - inside["rss_before_kb"]
    details["graph"].update({"inprocess": inside, "log": output[:-1]})


def group_dryrun(figures, details):
    """`chainplan dry-run` of fixture stores (10k, 100k, 1M rows) against the sqlite3 CLI doing the same copy
    and the same schema changes: `cp` of the store, then the SQL the dry run logged (--sql-log), one
    transaction per step, with the same pragmas (synchronous off, 4 MB page cache)."""
    if not shutil.which("sqlite3"):
        raise BenchError("sqlite3 is missing: run 'make bench-deps' (apt sqlite3)")
    spec = ROOT / "Chains" / "grocery-dude" / "chain.json"
    stores = WORK / "stores"
    stores.mkdir(parents=True, exist_ok=True)
    rows = {}
    for total in (10_000, 100_000, 1_000_000):
        store = stores / f"grocery-{total}.sqlite"
        if not store.exists():
            # Three concrete entities in 'Model': total rows split evenly.
            subprocess.run(cp("fixture", spec, "--model-version", "Model", "--rows", -(-total // 3), "-o", store), check=True,
                           stderr=subprocess.DEVNULL)
        log = stores / f"grocery-{total}.sql"
        run_once(cp("dry-run", spec, "--store", store, "--sql-log", log, "-o", "/dev/null"))
        peer = stores / f"grocery-{total}.peer.sql"
        peer.write_text("PRAGMA synchronous = OFF;\nPRAGMA cache_size = -4096;\n" + log.read_text())
        scratch = stores / "peer-scratch.sqlite"
        script = f'cp "{store}" "{scratch}" && sqlite3 -bail "{scratch}" < "{peer}" && rm -f "{scratch}"'
        result = measure({
            "chainplan dry-run": [cp("dry-run", spec, "--store", store, "-o", "/dev/null")],
            "cp + sqlite3": [["sh", "-c", script]],
        })
        rows[str(total)] = dict(result, store_bytes=store.stat().st_size, statements=log.read_text().count(";\n"))
        ours, theirs = result["chainplan dry-run"], result["cp + sqlite3"]
        figures[f"dryrun.{total}.seconds"] = ours["median"]
        figures[f"dryrun.{total}.sqlite3_seconds"] = theirs["median"]
        figures[f"dryrun.{total}.ratio"] = ours["median"] / theirs["median"]
        figures[f"dryrun.{total}.rss_mb"] = ours["rss_kb"] / 1024
        figures[f"dryrun.{total}.sqlite3_rss_mb"] = theirs["rss_kb"] / 1024
    figures["dryrun.rss_growth"] = figures["dryrun.1000000.rss_mb"] / figures["dryrun.10000.rss_mb"]
    details["dryrun"] = rows


def group_wide(figures, details):
    """`chainplan paths` on steps that double very wide or very large models (Benchmarks/gen_wide.py):
    time against size should grow linearly (×4 from 3k to 12k), where a look-up by name inside a
    loop would make it grow ×16."""
    out = WORK / "wide"
    subprocess.run([sys.executable, BENCH / "gen_wide.py", out, *map(str, WIDE_SIZES)], check=True)
    rows = {}
    for shape in ("attributes", "relationships", "entities", "subentities"):
        for size in WIDE_SIZES:
            bundle = out / f"{shape}-{size}.xcdatamodeld"
            result = measure({"paths": [cp("paths", bundle, "-o", "/dev/null")]}, runs=3)
            rows[f"{shape}.{size}"] = result
            figures[f"wide.{shape}.{size}.seconds"] = result["paths"]["median"]
            figures[f"wide.{shape}.{size}.rss_mb"] = result["paths"]["rss_kb"] / 1024
        figures[f"wide.{shape}.scaling"] = figures[f"wide.{shape}.{WIDE_SIZES[-1]}.seconds"] / figures[f"wide.{shape}.{WIDE_SIZES[-2]}.seconds"]
    details["wide"] = rows


def group_budgets(figures, details):
    """Issue 36's budgets not measured by another group, alternated rounds, median of the rounds'
    ratios: `validate` against `inspect` on WooCommerce (at most 5x), and `paths --format json` of
    the 100,000-version array against Python's `json.load` + `json.dump(indent=2, sort_keys=True)`
    of the same output document (at most 3x)."""
    woo = CORPUS / "woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld"
    subprocess.run([sys.executable, BENCH / "gen_chains.py", INPUTS, "100000"], check=True)
    spec = INPUTS / "array-100000.json"
    document = WORK / "array-100000.paths.json"
    run_once(cp("paths", spec, "--format", "json", "-o", document))
    python = [sys.executable, "-c", "import json, sys; d = json.load(open(sys.argv[1])); "
              "json.dump(d, open('/dev/null', 'w'), indent=2, sort_keys=True)", str(document)]
    result = measure({
        "validate": [cp("validate", woo, "-o", "/dev/null")],
        "inspect": [cp("inspect", woo, "-o", "/dev/null")],
        "paths json (100k)": [cp("paths", spec, "--format", "json", "-o", "/dev/null")],
        "python json (100k)": [python],
    }, runs=max(RUNS, 9))
    figures["budget.validate_inspect.ratio"] = round_ratios(result, "validate", "inspect")
    figures["budget.paths_json_python.ratio"] = round_ratios(result, "paths json (100k)", "python json (100k)")
    details["budgets"] = result


def group_history(figures, details):
    """Issue 37's budget: `validate --against REV` on WooCommerce (117 versions, every one read from
    git at REV and compared by its hashes) against the same `validate` without it (at most 2x). The
    bundle is committed and tagged in a fresh repository under .build/bench, then validated in place."""
    woo = CORPUS / "woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld"
    repository = WORK / "history-repo"
    shutil.rmtree(repository, ignore_errors=True)
    bundle = repository / "Model" / woo.name
    shutil.copytree(woo, bundle)
    git = ["git", "-C", str(repository), "-c", "user.name=bench", "-c", "user.email=bench@invalid"]
    for arguments in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "shipped"], ["tag", "shipped"]):
        subprocess.run(git + arguments, check=True)
    result = measure({
        "validate --against": [cp("validate", bundle, "--against", "shipped", "-o", "/dev/null")],
        "validate": [cp("validate", bundle, "-o", "/dev/null")],
    }, runs=max(RUNS, 9))
    figures["history.against.ratio"] = round_ratios(result, "validate --against", "validate")
    details["history"] = result


def group_swiftdata(figures, details):
    """Issue 38's budget: `chainplan hash` of a generated 20-version SwiftData history over 40 files
    (read, names resolved, models mapped and hashed) against swift-syntax's own parse of the same
    files (Benchmarks/SwiftParseBench, a process that reads and parses them and nothing else), whole
    processes alternated, the median of the rounds' ratios (at most 2x)."""
    folder = INPUTS / "swiftdata-20"
    shutil.rmtree(folder, ignore_errors=True)
    subprocess.run([sys.executable, BENCH / "gen_swiftdata.py", folder, "20"], check=True)
    package = BENCH / "SwiftParseBench"
    # Linked as `make release` links chainplan, so that both processes start alike.
    subprocess.run(["swift", "build", "-c", "release", *RELEASE_LINK_FLAGS, "--package-path", package], check=True, stdout=subprocess.DEVNULL)
    result = measure({
        "chainplan hash (20 schemas, 40 files)": [cp("hash", folder, "-o", "/dev/null")],
        "swift-syntax parse (40 files)": [[package / ".build" / "release" / "SwiftParseBench", folder]],
    }, runs=max(RUNS, 9))
    figures["swiftdata.hash_parse.ratio"] = round_ratios(result, "chainplan hash (20 schemas, 40 files)", "swift-syntax parse (40 files)")
    details["swiftdata"] = result


RUNNERS = {"budgets": group_budgets, "history": group_history, "swiftdata": group_swiftdata, "version": group_version, "chains": group_chains, "corpus": group_corpus,
           "classify": group_classify, "deferred": group_deferred, "hash": group_hash, "graph": group_graph, "dryrun": group_dryrun,
           "wide": group_wide}


# --- reports ------------------------------------------------------------------------------------

def machine():
    def out(command):
        try:
            return subprocess.run(command, capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return "unknown"
    memory = out(["free", "-h"]).splitlines()
    return {
        "cpus": os.cpu_count(),
        "memory": memory[1].split()[1] if len(memory) > 1 else "unknown",
        "kernel": platform.release(),
        "system": out(["uname", "-srm"]),
        "swift": out(["swift", "--version"]).splitlines()[0] if out(["swift", "--version"]) else "unknown",
        "graphviz": out(["dot", "-V"]) or out(["sh", "-c", "dot -V 2>&1"]),
        "python": platform.python_version(),
    }


def write_results(results):
    (BENCH / "results.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


def write_markdown(results):
    figures = results["figures"]
    lines = ["# Benchmark results", "",
             f"Run of {results['date']} by `make bench` ({results['runs']} runs per figure, medians; whole processes, "
             "start-up included on both sides; each ratio measured in one run, alternating the two commands).", "",
             "Machine: " + ", ".join(f"{k} {v}" for k, v in sorted(results["machine"].items())), "",
             "## Targets", "", "| Target | Figure | Bound | Met |", "|---|---|---|---|"]
    for figure, what, value, comparison, bound, ok in evaluate(figures):
        shown = "—" if value is None else f"{value:.3g}"
        lines.append(f"| {what} | {shown} | {comparison} {bound:g} | {'yes' if ok else '**no**'} |")
    if results["errors"]:
        lines += ["", "## Groups that could not run", ""] + [f"- `{g}`: {e}" for g, e in sorted(results["errors"].items())]
    details = results["details"]
    if "chains" in details:
        lines += ["", "## Chains: validate + paths", "",
                  "| Chain | Versions | Text (s) | JSON (s) | Peak RSS (MB) |", "|---|---|---|---|---|"]
        for kind in ("array", "tree", "branchy"):
            for size in (1000, 10000, 100000):
                key = f"chains.{kind}.{size}"
                if f"{key}.seconds" in figures:
                    lines.append(f"| {kind} | {size:,} | {figures[key + '.seconds']:.3f} | {figures[key + '.json_seconds']:.3f} | "
                                 f"{figures[key + '.rss_mb']:.0f} |")
        for kind in ("array", "tree"):
            if f"chains.{kind}.scaling" in figures:
                lines.append(f"\nScaling {kind} 10k → 100k: ×{figures[f'chains.{kind}.scaling']:.1f}.")
        for kind in ("array", "tree"):
            key = f"chains.alembic.{kind}"
            if f"{key}.speedup" in figures:
                lines.append(f"\nAlembic's revision map on the same 10k {kind}: ×{figures[key + '.speedup']:.1f} slower as a "
                             f"process; its work alone (start-up and import excluded) takes {figures[key + '.inprocess_seconds']:.3f} s, "
                             f"×{figures[key + '.inprocess_speedup']:.1f} chainplan's whole process.")
        if "chains.alembic.branchy.speedup" in figures:
            bound = "at least " if figures.get("chains.alembic.branchy.stopped") else ""
            lines.append(f"\nAlembic's revision map on the 10k branchy tree (1,000 bases merging; one run, stopped at "
                         f"{figures['chains.alembic.branchy.seconds']:.0f} s if not done): "
                         f"{'stopped after' if bound else 'took'} {figures['chains.alembic.branchy.seconds']:.1f} s, "
                         f"{bound}×{figures['chains.alembic.branchy.speedup']:.0f} chainplan's whole process.")
        lines.append("\n![Time against input size](scaling.svg)")
    if "corpus" in details:
        c = details["corpus"]
        lines += ["", "## Loading the corpus", "",
                  f"{c['bundles']} bundles, {c['files']} model files, every version read and checked. One process each: "
                  f"`chainplan inspect` {c['chainplan inspect (one process)']['median']:.3f} s, `xmllint --noout` "
                  f"{c['xmllint --noout (one process)']['median']:.3f} s (×{figures['corpus.ratio']:.2f}). One process per "
                  f"bundle: {c['chainplan inspect (per bundle)']['median']:.3f} s against "
                  f"{c['xmllint --noout (per bundle)']['median']:.3f} s (×{figures['corpus.per_bundle_ratio']:.2f}; chainplan's "
                  "start-up, about 10 ms, is paid 19 times)."]
    if "classify" in details:
        lines += ["", "## Classification", "",
                  f"WooCommerce (117 versions, 116 steps and 115 direct jumps, one mapping model): "
                  f"{figures['classify.woocommerce.seconds']:.3f} s. Generated history of 100 versions × 200 entities × "
                  f"20 attributes: {figures['classify.churn.seconds']:.3f} s, peak {figures['classify.churn.rss_mb']:.0f} MB."]
    if "deferred" in details:
        d = details["deferred"]
        lines += ["", "## Deferred lightweight migration on WooCommerce", "",
                  "Each command with `--deferred` against itself without, alternated; the ratio is the median of the "
                  "per-round ratios.", "", "| Command | Without (s) | With `--deferred` (s) | Ratio |", "|---|---|---|---|"]
        for name in ("validate", "validate json", "paths", "paths json"):
            key = "deferred." + name.replace(" ", "_")
            if key + ".ratio" in figures:
                command = name.replace(" json", " --format json")
                lines.append(f"| `{command}` | {d[name]['median']:.3f} | {d[name + ' --deferred']['median']:.3f} | "
                             f"{figures[key + '.ratio']:.3f} |")
    if "graph" in details:
        g = details["graph"]["inprocess"]
        p = details["graph"]["processes"]
        whole = (f"As whole processes, `chainplan graph` (reading and planning the spec too) "
                 f"{p['chainplan graph (svg)']['median']:.3f} s against `dot -Tsvg` {p['dot -Tsvg']['median']:.3f} s "
                 f"(median walls; the median of the {len(p['dot -Tsvg']['samples'])} alternated rounds' ratios is "
                 f"×{figures['graph.1000.process_ratio']:.3f}).")
        lines += ["", "## Diagrams", "",
                  f"1,000-version chain, SVG: in-process {g['inprocess_1000']:.3f} s (safety check of the SVG included, "
                  f"{g['safety_1000']:.3f} s of it), `dot -Tsvg` on the same DOT {g['dot_1000']:.3f} s "
                  f"(×{figures['graph.1000.ratio']:.2f}). " + whole, "",
                  f"5,000-version history with direct jumps and dead-end branches, every version shown: {g['history_5000']:.2f} s; "
                  f"a plain 5,000-version chain {g['chain_5000']:.2f} s; the default collapsed view {g['collapsed_5000']:.2f} s.", "",
                  f"Memory over 100 renders in one process (400-version chain): {g['rss_before_kb']:.0f} KiB → "
                  f"{g['rss_after_kb']:.0f} KiB."]
    if "wide" in details:
        lines += ["", "## Very wide models: `paths` on one step that doubles the model", "",
                  "| Shape | " + " | ".join(f"{size:,} (s)" for size in WIDE_SIZES) + f" | ×{WIDE_SIZES[-1] // WIDE_SIZES[-2]} size |",
                  "|---|" + "---|" * (len(WIDE_SIZES) + 1)]
        for shape in ("attributes", "relationships", "entities", "subentities"):
            if f"wide.{shape}.scaling" in figures:
                lines.append(f"| {shape} | " + " | ".join(f"{figures[f'wide.{shape}.{size}.seconds']:.2f}" for size in WIDE_SIZES)
                             + f" | ×{figures[f'wide.{shape}.scaling']:.1f} |")
    if "history" in details:
        h = details["history"]
        lines += ["", "## What shipped: `validate --against` on WooCommerce", "",
                  f"The bundle committed and tagged in a fresh repository; `validate --against shipped` reads all 117 "
                  f"versions at the tag through git and compares their hashes: {h['validate --against']['median']:.3f} s "
                  f"against `validate` {h['validate']['median']:.3f} s (median of the alternated rounds' ratios "
                  f"×{figures['history.against.ratio']:.2f})."]
    if "swiftdata" in details:
        d = details["swiftdata"]
        lines += ["", "## SwiftData without a build: `chainplan hash` of 20 schemas in 40 files", "",
                  f"A generated history (`gen_swiftdata.py`: each schema and its five related `@Model` classes in two files, "
                  f"the plan in the last): `chainplan hash` reads, resolves, maps and hashes it in "
                  f"{d['chainplan hash (20 schemas, 40 files)']['median']:.3f} s, against swift-syntax's own parse of the same "
                  f"files in {d['swift-syntax parse (40 files)']['median']:.3f} s (whole processes; median of the alternated "
                  f"rounds' ratios ×{figures['swiftdata.hash_parse.ratio']:.2f})."]
    if "version" in details:
        lines += ["", f"`chainplan --version`: {figures['version.seconds'] * 1000:.1f} ms."]
    notes = BENCH / "NOTES.md"
    if notes.exists():
        lines += ["", notes.read_text().strip()]
    (BENCH / "RESULTS.md").write_text("\n".join(lines) + "\n")


def write_plot(results):
    """Time against versions, log-log, for the chain benchmarks: a straight line of slope 1 is linear."""
    import math
    figures = results["figures"]
    series = {}
    for kind, colour in (("array", "#1b7837"), ("tree", "#2166ac"), ("branchy", "#b2182b")):
        points = [(size, figures.get(f"chains.{kind}.{size}.seconds")) for size in (1000, 10000, 100000)]
        points = [(x, y) for x, y in points if y]
        if points:
            series[kind] = (colour, points)
    if not series:
        return
    width, height, margin = 560, 360, 60
    xs = [math.log10(x) for _, pts in series.values() for x, _ in pts]
    ys = [math.log10(y) for _, pts in series.values() for _, y in pts]
    x0, x1 = min(xs), max(xs)
    y0, y1 = math.floor(min(ys)), math.ceil(max(ys))
    def px(x): return margin + (math.log10(x) - x0) / (x1 - x0 or 1) * (width - 2 * margin)
    def py(y): return height - margin - (math.log10(y) - y0) / (y1 - y0 or 1) * (height - 2 * margin)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">validate + paths: seconds against versions, log-log</text>']
    for exponent in range(int(y0), int(y1) + 1):
        y = py(10 ** exponent)
        parts.append(f'<line x1="{margin}" y1="{y:.1f}" x2="{width - margin}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{margin - 6}" y="{y + 4:.1f}" text-anchor="end">{10 ** exponent:g} s</text>')
    for size in (1000, 10000, 100000):
        x = px(size)
        parts.append(f'<text x="{x:.1f}" y="{height - margin + 18}" text-anchor="middle">{size:,}</text>')
    for index, (kind, (colour, points)) in enumerate(sorted(series.items())):
        path = " ".join(f"{'M' if i == 0 else 'L'}{px(x):.1f},{py(y):.1f}" for i, (x, y) in enumerate(points))
        parts.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts += [f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>' for x, y in points]
        parts.append(f'<text x="{width - margin + 4}" y="{40 + 16 * index}" fill="{colour}">{kind}</text>')
    first = series[sorted(series)[0]][1][0]
    parts.append(f'<path d="M{px(first[0]):.1f},{py(first[1]):.1f} L{px(first[0] * 100):.1f},{py(first[1] * 100):.1f}" '
                 f'stroke="#999" stroke-dasharray="4 4" fill="none"/>')
    parts.append(f'<text x="{margin + 4}" y="{height - 8}" fill="#666">dashed: linear from the first array point</text>')
    parts.append("</svg>")
    (BENCH / "scaling.svg").write_text("\n".join(parts) + "\n")


def main():
    chosen = [g for g in sys.argv[1:] if g != "all"] or GROUPS
    unknown = [g for g in chosen if g not in RUNNERS]
    if unknown:
        print(f"bench: unknown group(s) {', '.join(unknown)}; groups: {', '.join(GROUPS)}", file=sys.stderr)
        return 2
    if not Path(CHAINPLAN).exists():
        print(f"bench: {CHAINPLAN} does not exist; run 'make release'", file=sys.stderr)
        return 2
    INPUTS.mkdir(parents=True, exist_ok=True)
    previous = BENCH / "results.json"
    results = json.loads(previous.read_text()) if previous.exists() and chosen != GROUPS else {"figures": {}, "details": {}, "errors": {}}
    results.update(date=datetime.date.today().isoformat(), runs=RUNS, machine=machine())
    for group in chosen:
        print(f"bench: {group} …", flush=True)
        started = time.perf_counter()
        try:
            RUNNERS[group](results["figures"], results["details"])
            results["errors"].pop(group, None)
        except (BenchError, subprocess.CalledProcessError) as error:
            results["errors"][group] = str(error)
            print(f"bench: {group} FAILED: {error}", file=sys.stderr)
        print(f"bench: {group} done in {time.perf_counter() - started:.0f} s", flush=True)
    write_results(results)
    write_markdown(results)
    write_plot(results)
    print((BENCH / "RESULTS.md").read_text())
    return 1 if any(g in results["errors"] for g in chosen) else 0


if __name__ == "__main__":
    sys.exit(main())
