import ChainPlanPlanning
/// The handler bodies of a custom stage whose data work chainplan knows completely: values copied
/// into a new entity (`CopyIntoEntity`, in `didMigrate` at the next model, where both the old
/// attribute and the new entity exist) and empty mandatory values filled (`fillTypes`, in
/// `willMigrate` at the current model). Fetches in batches on a background context, reads and
/// writes by KVC on `NSManagedObject`, saves after each batch. Only the fill value is left to the
/// user: nothing in the model says what it should be.
enum StageHandlerSwift {
    /// The opening line of the generated driver's batch loop over `entity`'s objects (closed by
    /// `        }`); `save`: the handler writes, so each batch is saved.
    static func forEachObject(_ entity: String, label: String, save: Bool) -> String {
        "        try forEachObject(of: \(SwiftNames.literal(entity)), in: manager, stage: \(label), save: \(save)) { object in\n"
    }

    /// `didMigrate`: for each object with a value to copy and nothing linked yet (a re-run after an
    /// interrupted migration copies nothing twice), a new destination object gets the values.
    static func copy(_ work: DataWork, _ copy: CopyIntoEntity, label: String) -> String {
        let literal = SwiftNames.literal
        var out = "        // \(SwiftNames.comment(work.detail))\n" + forEachObject(work.entity, label: label, save: true)
        out += "            let values: [(key: String, value: Any?)] = [\n"
        for pair in copy.attributes {
            out += "                (\(literal(pair.to)), object.value(forKey: \(literal(pair.from)))),\n"
        }
        out += "            ]\n"
        out += "            guard values.contains(where: { $0.value != nil }), let context = object.managedObjectContext else { return }\n"
        if copy.toMany {
            out += "            let linked = object.mutableSetValue(forKey: \(literal(copy.relationship)))\n"
            out += "            guard linked.count == 0 else { return }\n"
        } else {
            out += "            guard object.value(forKey: \(literal(copy.relationship))) == nil else { return }\n"
        }
        out += "            let destination = NSEntityDescription.insertNewObject(forEntityName: \(literal(copy.destinationEntity)), into: context)\n"
        out += "            for (key, value) in values { destination.setValue(value, forKey: key) }\n"
        out += copy.toMany ? "            linked.add(destination)\n" : "            object.setValue(destination, forKey: \(literal(copy.relationship)))\n"
        out += "        }\n"
        return out
    }

    /// `willMigrate`: every object without a value for a mandatory attribute gets one.
    static func fill(_ work: DataWork, types: [String], label: String) -> String {
        let literal = SwiftNames.literal
        var out = "        // \(SwiftNames.comment(work.detail))\n" + forEachObject(work.entity, label: label, save: true)
        for (attribute, type) in zip(work.write, types) {
            out += "            if object.value(forKey: \(literal(attribute))) == nil {\n"
            out += "                // TODO: the value a row without one gets (\(SwiftNames.comment(type))): nothing in the model says which.\n"
            out += "                object.setValue(\(placeholder(type)), forKey: \(literal(attribute)))\n"
            out += "            }\n"
        }
        out += "        }\n"
        return out
    }

    /// A value of the attribute type, to be replaced by the user's choice.
    static func placeholder(_ type: String) -> String {
        switch type {
        case "String": return "\"\""
        case "Integer 16", "Integer 32", "Integer 64", "Double", "Float": return "0"
        case "Decimal": return "NSDecimalNumber.zero"
        case "Boolean": return "false"
        case "Date": return "Date(timeIntervalSince1970: 0)"
        case "Binary": return "Data()"
        case "UUID": return "UUID()"
        case "URI": return "URL(string: \"about:blank\")"
        default: return "nil as Any?"
        }
    }
}
