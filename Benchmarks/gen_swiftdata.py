#!/usr/bin/env python3
"""Writes a SwiftData history of N schema versions over 2N files: SchemaVn.swift (the schema enum,
its identifier and models list) and SchemaVn+Models.swift (an extension declaring its @Model
classes: five related classes whose properties grow with n), the migration plan in the last.

Usage: gen_swiftdata.py FOLDER [N]   (default 20; deterministic)
"""
import sys
from pathlib import Path

CLASSES = ["Trip", "Stop", "Traveller", "Booking", "Photo"]


def models(n):
    out = [f"import Foundation\nimport SwiftData\n\nextension SchemaV{n} {{\n"]
    for position, name in enumerate(CLASSES):
        following = CLASSES[(position + 1) % len(CLASSES)]
        out.append(f"    @Model final class {name} {{\n")
        out.append(f"        @Attribute(.unique) var identifier: String = \"\"\n")
        out.append(f"        var title: String = \"\"\n        var created: Date = Date()\n        var rating: Int = 0\n")
        for extra in range(n):
            kind = ["String?", "Int?", "Double?", "Date?", "Bool = false", "Data?"][extra % 6]
            out.append(f"        var field{extra}: {kind}\n")
        out.append(f"        @Relationship(deleteRule: .nullify) var next{following}: {following}?\n")
        out.append(f"        init() {{}}\n    }}\n")
    out.append("}\n")
    return "".join(out)


def schema(n, total):
    text = (f"import SwiftData\n\nenum SchemaV{n}: VersionedSchema {{\n"
            f"    static let versionIdentifier = Schema.Version({n}, 0, 0)\n"
            f"    static var models: [any PersistentModel.Type] {{ [{', '.join(c + '.self' for c in CLASSES)}] }}\n}}\n")
    if n == total:
        schemas = ", ".join(f"SchemaV{i}.self" for i in range(1, total + 1))
        stages = ", ".join(f".lightweight(fromVersion: SchemaV{i}.self, toVersion: SchemaV{i + 1}.self)" for i in range(1, total))
        text += (f"\nenum TripsMigrationPlan: SchemaMigrationPlan {{\n"
                 f"    static var schemas: [any VersionedSchema.Type] {{ [{schemas}] }}\n"
                 f"    static var stages: [MigrationStage] {{ [{stages}] }}\n}}\n")
    return text


def main():
    folder = Path(sys.argv[1])
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(1, total + 1):
        (folder / f"SchemaV{n}.swift").write_text(schema(n, total))
        (folder / f"SchemaV{n}+Models.swift").write_text(models(n))


if __name__ == "__main__":
    main()
