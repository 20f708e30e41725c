#!/usr/bin/env python3
"""`chainplan passes` on a generated 200-entity heavyweight step (issue 23: under 50 ms).

Writes a bundle of two versions into a temporary folder: 200 entities, each with three
attributes, a to-one relationship to an earlier entity (every fourth mandatory, with its inverse)
and a uniqueness constraint on every third; version 2 changes one attribute String → Binary Data,
so the step is heavyweight (not inferable). Runs the command N times and prints the median wall
time of the whole process (start-up included), text and JSON.

usage: passes_bench.py CHAINPLAN [--entities 200] [--runs 7]
"""
import argparse, os, random, statistics, subprocess, tempfile, time


def model(entities, changed):
    out = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
           '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">']
    rng = random.Random(7)
    inverses = {}
    targets = {}
    for i in range(1, entities):
        targets[i] = rng.randrange(0, i)
    for i in range(entities):
        out.append(f'    <entity name="E{i}" syncable="YES">')
        out.append(f'        <attribute name="key" attributeType="String"/>')
        kind = "Binary" if changed and i == 0 else "String"
        out.append(f'        <attribute name="text" optional="YES" attributeType="{kind}"/>')
        out.append(f'        <attribute name="count" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>')
        if i in targets:
            t = targets[i]
            optional = "NO" if i % 4 == 0 else "YES"
            out.append(f'        <relationship name="parent" optional="{optional}" maxCount="1" deletionRule="Nullify" destinationEntity="E{t}" inverseName="children{i}" inverseEntity="E{t}"/>')
        for child, t in targets.items():
            if t == i:
                out.append(f'        <relationship name="children{child}" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="E{child}" inverseName="parent" inverseEntity="E{child}"/>')
        if i % 3 == 0:
            out.append('        <uniquenessConstraints><uniquenessConstraint><constraint value="key"/></uniquenessConstraint></uniquenessConstraints>')
        out.append('    </entity>')
    out.append('</model>')
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("chainplan")
    parser.add_argument("--entities", type=int, default=200)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        bundle = os.path.join(folder, "Big.xcdatamodeld")
        for name, changed in (("V1", False), ("V2", True)):
            os.makedirs(os.path.join(bundle, f"{name}.xcdatamodel"))
            with open(os.path.join(bundle, f"{name}.xcdatamodel", "contents"), "w") as f:
                f.write(model(args.entities, changed))
        with open(os.path.join(bundle, ".xccurrentversion"), "w") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>V2.xcdatamodel</string></dict></plist>\n')
        spec = os.path.join(folder, "chain.json")
        with open(spec, "w") as f:
            f.write('{"chain": ["V1", "V2"], "model": "Big.xcdatamodeld"}\n')
        for fmt in ("text", "json"):
            times = []
            for _ in range(args.runs):
                start = time.perf_counter()
                done = subprocess.run([args.chainplan, "passes", spec, "V1", "V2", "--format", fmt], capture_output=True)
                times.append(time.perf_counter() - start)
                if done.returncode not in (0, 1):
                    raise SystemExit(done.stderr.decode())
            passes = done.stdout.decode().count("  pass ") if fmt == "text" else None
            print(f"passes, {args.entities} entities, {fmt}: median {statistics.median(times) * 1000:.1f} ms over {args.runs} runs"
                  + (f" ({passes} passes)" if passes is not None else ""))


if __name__ == "__main__":
    main()
