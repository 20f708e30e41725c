#!/usr/bin/env python3
"""make bench-check: compare a benchmark run (Benchmarks/results.json) against the targets of the
issues, print every figure with its target, and exit 1 on any miss (or on a figure the run lacks).

The targets live here only; bench.py imports them to annotate RESULTS.md.
"""
import json
import sys
from pathlib import Path

# (figure id, comparison, bound, what it is). Issue 36's budgets come first; the others are
# earlier issues' targets that still hold. Where issue 36 restated a bound, its bound is the one here.
TARGETS = [
    ("budget.validate_inspect.ratio", "<=", 5.0, "validate / inspect on WooCommerce (issue 36)"),
    ("hash.woocommerce.ratio", "<=", 1.5, "chainplan hash of all 117 WooCommerce versions / loading them (inspect) (issue 36)"),
    ("graph.1000.process_ratio", "<=", 1.5, "chainplan graph > chain.svg / dot -Tsvg on its DOT, whole processes (median of alternated rounds' ratios) (issue 36)"),
    ("budget.paths_json_python.ratio", "<=", 3.0, "paths --format json of the 100k array / Python json.load + json.dump(indent=2, sort_keys=True) (issue 36)"),
    ("version.seconds", "<=", 0.030, "chainplan --version (issue 36)"),
    ("history.against.ratio", "<=", 2.0, "validate --against REV / validate on WooCommerce, every version read from git (issue 37)"),
    ("swiftdata.hash_parse.ratio", "<=", 2.0, "chainplan hash of a 20-schema SwiftData history over 40 files / swift-syntax's own parse of them (issue 38)"),
    ("chains.array.100000.seconds", "<", 1.0, "validate + paths, 100k-version array"),
    ("chains.tree.100000.seconds", "<", 1.0, "validate + paths, 100k-version tree"),
    ("chains.array.scaling", "<=", 12.0, "array: time(100k) / time(10k)"),
    ("chains.tree.scaling", "<=", 12.0, "tree: time(100k) / time(10k)"),
    ("corpus.ratio", "<=", 3.0, "loading every corpus model version / xmllint --noout"),
    ("classify.woocommerce.seconds", "<", 0.5, "classify all steps + direct jumps of WooCommerce (117 versions)"),
    ("deferred.validate.ratio", "<=", 1.1, "validate --deferred / validate on WooCommerce (deferral analysis)"),
    ("deferred.paths.ratio", "<=", 1.1, "paths --deferred / paths on WooCommerce"),
    ("graph.1000.ratio", "<=", 1.1, "SVG of a 1k chain in-process / dot -Tsvg on the same DOT"),
    ("graph.5000.seconds", "<", 5.0, "SVG of a 5k history"),
    ("dryrun.1000000.ratio", "<=", 1.5, "dry run of a 1M-row store / sqlite3 CLI doing the same copy and schema changes"),
    ("dryrun.1000000.rss_mb", "<", 100.0, "dry run peak RSS, 1M rows (MB)"),
    ("dryrun.rss_growth", "<=", 1.5, "dry run peak RSS 1M rows / 10k rows (flat in store size)"),
] + [
    (f"wide.{shape}.scaling", "<=", 6.0, f"paths on a step doubling {shape}: time(12k) / time(3k) (linear is 4, quadratic 16)")
    for shape in ("attributes", "relationships", "entities", "subentities")
]


def holds(value, comparison, bound):
    return {"<": value < bound, "<=": value <= bound, ">=": value >= bound}[comparison]


def evaluate(figures):
    """[(id, what, value or None, comparison, bound, ok)] for every target."""
    rows = []
    for figure, comparison, bound, what in TARGETS:
        value = figures.get(figure)
        ok = value is not None and holds(value, comparison, bound)
        rows.append((figure, what, value, comparison, bound, ok))
    return rows


def main():
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "Benchmarks/results.json")
    if not path.exists():
        print(f"bench-check: {path} does not exist; run 'make bench' first")
        return 1
    figures = json.loads(path.read_text())["figures"]
    misses = 0
    for figure, what, value, comparison, bound, ok in evaluate(figures):
        shown = "missing" if value is None else f"{value:.4g}"
        print(f"{'ok  ' if ok else 'MISS'} {what}: {shown} (target {comparison} {bound:g})  [{figure}]")
        misses += not ok
    print(f"bench-check: {len(TARGETS) - misses} of {len(TARGETS)} targets met")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
