#!/usr/bin/env python3
"""make bench-check: compare a benchmark run (Benchmarks/results.json) against the targets of the
issues, print every figure with its target, and exit 1 on any miss (or on a figure the run lacks).

The targets live here only; bench.py imports them to annotate RESULTS.md.
"""
import json
import sys
from pathlib import Path

# (figure id, comparison, bound, what it is)
TARGETS = [
    ("chains.array.100000.seconds", "<", 1.0, "validate + paths, 100k-version array"),
    ("chains.tree.100000.seconds", "<", 1.0, "validate + paths, 100k-version tree"),
    ("chains.array.scaling", "<=", 12.0, "array: time(100k) / time(10k)"),
    ("chains.tree.scaling", "<=", 12.0, "tree: time(100k) / time(10k)"),
    ("chains.alembic.array.speedup", ">=", 50.0, "Alembic / chainplan on the 10k array"),
    ("chains.alembic.tree.speedup", ">=", 50.0, "Alembic / chainplan on the 10k tree"),
    ("corpus.ratio", "<=", 3.0, "loading every corpus model version / xmllint --noout"),
    ("classify.woocommerce.seconds", "<", 0.5, "classify all steps + direct jumps of WooCommerce (117 versions)"),
    ("deferred.validate.ratio", "<=", 1.1, "validate --deferred / validate on WooCommerce (deferral analysis)"),
    ("deferred.paths.ratio", "<=", 1.1, "paths --deferred / paths on WooCommerce"),
    ("deferred.paths_json.ratio", "<=", 1.1, "paths --deferred --format json / paths --format json on WooCommerce (every jump's SQLite work too)"),
    ("deferred.validate_json.ratio", "<=", 1.1, "validate --deferred --format json / validate --format json on WooCommerce"),
    ("hash.woocommerce.ratio", "<=", 1.2, "chainplan hash of all 117 WooCommerce versions / loading them (inspect)"),
    ("graph.1000.ratio", "<=", 1.1, "SVG of a 1k chain in-process / dot -Tsvg on the same DOT"),
    ("graph.1000.process_ratio", "<=", 1.1, "chainplan graph > chain.svg / dot -Tsvg on its DOT, whole processes (median of alternated rounds' ratios)"),
    ("graph.5000.seconds", "<", 5.0, "SVG of a 5k history"),
    ("dryrun.1000000.ratio", "<=", 1.5, "dry run of a 1M-row store / sqlite3 CLI doing the same copy and schema changes"),
    ("dryrun.1000000.rss_mb", "<", 100.0, "dry run peak RSS, 1M rows (MB)"),
    ("dryrun.rss_growth", "<=", 1.5, "dry run peak RSS 1M rows / 10k rows (flat in store size)"),
    ("version.seconds", "<=", 0.030, "chainplan --version"),
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
