#!/usr/bin/env python3
"""Deterministic chain-spec inputs for `make bench` (seeded; written under .build/bench).

array-N.json   ["V1", ..., "VN"]
tree-N.json    {"V1": "V2", ...} the same chain as a version tree, keys shuffled
branchy-N.json a tree where 10% of versions have two predecessors (side branches merging)

usage: gen_chains.py [FOLDER] [SIZES]   (default: .build/bench/inputs 1000,10000,100000)
"""
import argparse
import json
import random
from pathlib import Path

SEED = 20261121


def array_chain(n):
    return [f"V{i}" for i in range(1, n + 1)]


def tree_chain(n, rng):
    pairs = [(f"V{i}", f"V{i + 1}") for i in range(1, n)]
    rng.shuffle(pairs)
    return dict(pairs)


def branchy_chain(n, rng):
    """A main line of 90% of the versions; the other 10% are side versions that each merge
    into a main-line version, giving it two predecessors."""
    main = max(2, n - n // 10)
    tree = {f"V{i}": f"V{i + 1}" for i in range(1, main)}
    for k in range(n - main):
        tree[f"S{k}"] = f"V{rng.randint(2, main)}"
    items = list(tree.items())
    rng.shuffle(items)
    return dict(items)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default=".build/bench/inputs", help="where to write the specs")
    parser.add_argument("sizes", nargs="?", default="1000,10000,100000", help="comma-separated version counts")
    args = parser.parse_args()
    out = Path(args.folder)
    out.mkdir(parents=True, exist_ok=True)
    sizes = [int(s) for s in args.sizes.split(",")]
    for n in sizes:
        rng = random.Random(SEED + n)
        (out / f"array-{n}.json").write_text(json.dumps(array_chain(n)))
        (out / f"tree-{n}.json").write_text(json.dumps(tree_chain(n, rng)))
        (out / f"branchy-{n}.json").write_text(json.dumps(branchy_chain(n, rng)))


if __name__ == "__main__":
    main()
