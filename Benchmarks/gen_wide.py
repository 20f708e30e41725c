#!/usr/bin/env python3
"""Very wide and very large model steps for `make bench`'s `wide` group: inputs a hostile pull
request could carry, where any look-up by name inside a loop would make planning quadratic.
Each bundle has two versions, V1 and V2 (current); V2 doubles what V1 has (one element a line, as
Xcode writes them):

- attributes: entity A with N attributes, then 2N (one table of 2N columns, N added);
- relationships: N to-ones from A to B with to-many inverses, then 2N of each;
- entities: N entities of one attribute, then 2N (2N tables);
- subentities: N sub-entities of one root, then 2N (one table holding 2N + 1 entities).

Usage: gen_wide.py OUT_DIR N [N ...]    writes OUT_DIR/<shape>-<N>.xcdatamodeld
"""
import sys
from pathlib import Path

SHAPES = ("attributes", "relationships", "entities", "subentities")


def attributes(n, prefix):
    return "".join(f'\n<attribute name="{prefix}{i}" optional="YES" attributeType="String"/>' for i in range(n))


def to_ones(n, prefix):
    return "".join(f'\n<relationship name="{prefix}{i}" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" '
                   f'inverseName="{prefix}inverse{i}" inverseEntity="B"/>' for i in range(n))


def inverses(n, prefix):
    return "".join(f'\n<relationship name="{prefix}inverse{i}" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="A" '
                   f'inverseName="{prefix}{i}" inverseEntity="A"/>' for i in range(n))


def entities(n, prefix):
    return "".join(f'\n<entity name="{prefix}{i}">{attributes(1, "x")}</entity>' for i in range(n))


def subentities(n):
    return f'<entity name="Root">{attributes(1, "x")}</entity>' + "".join(
        f'\n<entity name="S{i}" parentEntity="Root">{attributes(1, f"y{i}_")}</entity>' for i in range(n))


def versions(shape, n):
    if shape == "attributes":
        return (f'<entity name="A">{attributes(n, "a")}</entity>', f'<entity name="A">{attributes(n, "a")}{attributes(n, "b")}</entity>')
    if shape == "relationships":
        return (f'<entity name="A">{to_ones(n, "r")}</entity><entity name="B">{inverses(n, "r")}</entity>',
                f'<entity name="A">{to_ones(n, "r")}{to_ones(n, "s")}</entity><entity name="B">{inverses(n, "r")}{inverses(n, "s")}</entity>')
    if shape == "entities":
        return entities(n, "E"), entities(n, "E") + entities(n, "F")
    return subentities(n), subentities(2 * n)


def write(out, shape, n):
    bundle = out / f"{shape}-{n}.xcdatamodeld"
    for name, body in zip(("V1", "V2"), versions(shape, n)):
        folder = bundle / f"{name}.xcdatamodel"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "contents").write_text('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                                         f'<model type="com.apple.IDECoreDataModeler.DataModel">{body}</model>\n')
    (bundle / ".xccurrentversion").write_text('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict>'
                                              '<key>_XCCurrentVersionName</key><string>V2.xcdatamodel</string></dict></plist>\n')
    return bundle


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    out = Path(sys.argv[1])
    for n in map(int, sys.argv[2:]):
        for shape in SHAPES:
            write(out, shape, n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
