#!/usr/bin/env python3
"""A deterministic model history for `make bench`: an .xcdatamodeld with V versions of E entities
of A attributes each, with the churn real histories show between versions (seeded):

- an attribute added (optional, or non-optional with a default),
- an attribute removed,
- an optional attribute made non-optional with a default,
- an attribute renamed with a renaming identifier (the ORIGINAL name, as Core Data wants),
- a numeric attribute widened (Integer 16 -> Integer 32 -> Integer 64),
- now and then an entity added, and a relationship added between two entities.

Usage: gen_model.py OUT_DIR [VERSIONS ENTITIES ATTRIBUTES]
Writes OUT_DIR/Churn.xcdatamodeld and OUT_DIR/churn.json (a spec naming every version).
"""
import json
import random
import sys
from pathlib import Path
from xml.sax.saxutils import quoteattr

SEED = 20261122
TYPES = ["String", "Integer 16", "Integer 32", "Integer 64", "Double", "Boolean", "Date", "Binary"]
WIDER = {"Integer 16": "Integer 32", "Integer 32": "Integer 64"}


def initial(entities, attributes, rng):
    model = {}
    for e in range(entities):
        attrs = {}
        for a in range(attributes):
            attrs[f"field{a}"] = {"type": rng.choice(TYPES), "optional": True, "default": None, "rid": None}
        model[f"Entity{e}"] = {"attributes": attrs, "relationships": {}}
    return model


def churn(model, step, rng):
    names = sorted(model)
    for name in rng.sample(names, k=max(1, len(names) // 20)):
        attrs = model[name]["attributes"]
        change = rng.randrange(5)
        keys = sorted(attrs)
        if change == 0:
            attrs[f"added{step}"] = {"type": rng.choice(TYPES), "optional": True, "default": None, "rid": None}
        elif change == 1 and len(keys) > 3:
            del attrs[rng.choice(keys)]
        elif change == 2:
            key = rng.choice(keys)
            if attrs[key]["type"] in ("Integer 16", "Integer 32", "Integer 64", "Double"):
                attrs[key].update(optional=False, default="0")
        elif change == 3:
            key = rng.choice(keys)
            spec = attrs.pop(key)
            spec = dict(spec, rid=spec["rid"] or key)
            attrs[f"{key}r{step}"] = spec
        else:
            key = rng.choice(keys)
            if attrs[key]["type"] in WIDER:
                attrs[key]["type"] = WIDER[attrs[key]["type"]]
    if step % 10 == 0:
        model[f"Added{step}"] = {"attributes": {"name": {"type": "String", "optional": True, "default": None, "rid": None}},
                                 "relationships": {}}
    if step % 7 == 0:
        a, b = rng.sample(sorted(model), 2)
        model[a]["relationships"][f"link{step}"] = b


def contents(model):
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
             '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" '
             'systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">']
    for name in sorted(model):
        lines.append(f'    <entity name={quoteattr(name)} representedClassName={quoteattr(name)} syncable="YES" codeGenerationType="class">')
        for attr, spec in sorted(model[name]["attributes"].items()):
            extra = ""
            if spec["optional"]:
                extra += ' optional="YES"'
            if spec["default"] is not None:
                extra += f' defaultValueString={quoteattr(spec["default"])}'
            if spec["rid"]:
                extra += f' elementID={quoteattr(spec["rid"])}'
            scalar = ' usesScalarValueType="YES"' if spec["type"] not in ("String", "Date", "Binary") else ""
            lines.append(f'        <attribute name={quoteattr(attr)}{extra} attributeType={quoteattr(spec["type"])}{scalar}/>')
        for rel, destination in sorted(model[name]["relationships"].items()):
            lines.append(f'        <relationship name={quoteattr(rel)} optional="YES" maxCount="1" deletionRule="Nullify" '
                         f'destinationEntity={quoteattr(destination)}/>')
        lines.append("    </entity>")
    lines.append("</model>")
    return "\n".join(lines) + "\n"


def main():
    out = Path(sys.argv[1])
    versions, entities, attributes = (int(x) for x in (sys.argv[2:5] if len(sys.argv) >= 5 else (100, 200, 20)))
    rng = random.Random(SEED)
    bundle = out / "Churn.xcdatamodeld"
    bundle.mkdir(parents=True, exist_ok=True)
    model = initial(entities, attributes, rng)
    names = []
    for v in range(1, versions + 1):
        if v > 1:
            churn(model, v, rng)
        name = "Churn" if v == 1 else f"Churn {v}"
        names.append(name)
        folder = bundle / f"{name}.xcdatamodel"
        folder.mkdir(exist_ok=True)
        (folder / "contents").write_text(contents(model))
    (bundle / ".xccurrentversion").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
        '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n'
        f'\t<key>_XCCurrentVersionName</key>\n\t<string>{names[-1]}.xcdatamodel</string>\n</dict>\n</plist>\n')
    (out / "churn.json").write_text(json.dumps({"chain": names, "model": "Churn.xcdatamodeld"}, indent=1))


if __name__ == "__main__":
    main()
