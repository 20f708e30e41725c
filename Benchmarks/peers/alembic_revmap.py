#!/usr/bin/env python3
"""The peer for `chainplan paths`: Alembic's revision map over the same migration graph.

Prints the work done and the seconds it took inside the interpreter (start-up and imports excluded),
so the comparison can be made both ways: whole processes, and Alembic's work alone.

Reads a chain spec (an array or a version tree, as gen_chains.py writes them), builds the graph as
Alembic revisions (each version's down-revisions are the versions that migrate to it), asks for the
heads (which builds the map and detects cycles), and iterates from every base to the head: the work
chainplan does to find every start's path.
"""
import json
import sys
import time

from alembic.script.revision import Revision, RevisionMap


def edges(spec):
    if isinstance(spec, list):
        return list(zip(spec, spec[1:]))
    return list(spec.items())


def main():
    started = time.perf_counter()
    spec = json.load(open(sys.argv[1]))
    pairs = edges(spec)
    predecessors = {}
    for source, destination in pairs:
        predecessors.setdefault(destination, []).append(source)
        predecessors.setdefault(source, [])

    def revisions():
        for version, downs in predecessors.items():
            down = None if not downs else (downs[0] if len(downs) == 1 else tuple(downs))
            yield Revision(version, down)

    revision_map = RevisionMap(revisions)
    heads = revision_map.heads
    assert len(heads) == 1, heads
    steps = 0
    for base in revision_map.bases:
        steps += sum(1 for _ in revision_map.iterate_revisions(heads[0], base))
    # Versions, bases, steps walked, and the seconds spent after start-up (reading included).
    print(len(predecessors), len(revision_map.bases), steps, f"{time.perf_counter() - started:.6f}")


if __name__ == "__main__":
    main()
