import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ChainPlanCore

/// The outcome of parsing one `contents` document.
package struct ModelParseResult: Sendable, Hashable {
    /// The model, or nil when the document is not a usable model document (any CP118).
    /// Semantic findings (CP115–CP117) keep the model.
    package var model: ObjectModel?
    /// Every finding, sorted.
    package var diagnostics: [Diagnostic]

    package init(model: ObjectModel?, diagnostics: [Diagnostic]) {
        self.model = model
        self.diagnostics = diagnostics
    }
}

/// Parses a `<Version>.xcdatamodel/contents` XML document into an `ObjectModel`.
///
/// The document is checked byte by byte first (size, UTF-8, declared encoding, no DTD or entity
/// declarations; see `XMLSafety`) and only then streamed through FoundationXML's SAX
/// `XMLParser`, with an explicit element stack, so hostile input cannot recurse, expand
/// entities or load external resources. Unknown XML attributes and elements are ignored (Xcode
/// adds new ones over time). Structural problems are CP118 with file and line; after a
/// successful parse the semantic checks of `ModelValidator` run (CP115, CP116, CP117).
///
/// Lines are 1-based and come from `XMLParser.lineNumber` when an element starts, which is the
/// line where its start tag ends (Xcode writes every start tag on one line).
package struct ModelContentsParser: Sendable {
    /// The default size limit for one `contents` file: 64 MiB.
    package static let defaultMaxBytes = 64 << 20

    /// Documents larger than this many bytes are refused (CP118).
    package var maxBytes: Int

    package init(maxBytes: Int = ModelContentsParser.defaultMaxBytes) {
        self.maxBytes = maxBytes
    }

    /// Parses `data`; `file` is the display path used in diagnostics and `version` the
    /// version name recorded in them.
    package func parse(_ data: Data, file: String, version: String? = nil) -> ModelParseResult {
        let versions = version.map { [$0] } ?? []
        func malformed(_ message: String, line: Int?, column: Int? = nil) -> Diagnostic {
            Diagnostic(.malformedModelXML, message, at: SourceLocation(file: file, line: line, column: column), versions: versions)
        }
        if data.count > maxBytes {
            return ModelParseResult(model: nil, diagnostics: [
                malformed("the model is \(data.count) bytes, over the limit of \(maxBytes) bytes", line: nil),
            ])
        }
        let problems = XMLSafety.check(data)
        if !problems.isEmpty {
            return ModelParseResult(model: nil, diagnostics: problems.map { malformed($0.message, line: $0.line) })
        }

        let builder = ContentsBuilder(columns: ElementColumns(data: data))
        let succeeded = HardenedXMLParser.parse(data, with: builder)

        var diagnostics = builder.problems.map { malformed($0.message, line: $0.line, column: $0.column) }
        if builder.problems.isEmpty {
            if !succeeded || builder.sawParseError {
                diagnostics.append(malformed("the XML is malformed", line: builder.lastLine))
            } else if !builder.sawRoot {
                diagnostics.append(malformed("the document has no root element", line: nil))
            } else if !builder.rootClosed {
                diagnostics.append(malformed("the document ends before '</model>' (truncated)", line: builder.lastLine))
            }
        }
        if !diagnostics.isEmpty {
            let lastLine = Self.lastContentLine(of: data)
            diagnostics = diagnostics.map { diagnostic in
                // libxml2 reports errors at the end of input one line past the last one; point
                // at the last line with content instead, where an editor can show it.
                guard let line = diagnostic.location?.line, line > lastLine else { return diagnostic }
                var clamped = diagnostic
                clamped.location?.line = lastLine
                clamped.location?.column = nil
                return clamped
            }
            return ModelParseResult(model: nil, diagnostics: diagnostics.sorted())
        }
        let model = builder.model
        let semantic = ModelValidator.validate(model, file: file, version: version)
        return ModelParseResult(model: model, diagnostics: semantic.sorted())
    }
}

extension ModelContentsParser {
    /// Reads and parses the model document at `url`, whatever the file is named (`git diff`
    /// hands a textconv program a temporary copy, not a file called `contents`). The file is read
    /// with `FileAccess.readRegularFile` under `maxBytes`, so a FIFO, a device, a directory or a
    /// file over the limit is refused without being opened for reading; a file that cannot be
    /// read is a CP118 finding at `displayPath` with the reason, and no model.
    package func parse(fileAt url: URL, displayPath: String) -> ModelParseResult {
        switch FileAccess.readRegularFile(at: url, maxBytes: maxBytes) {
        case .failure(let problem):
            return ModelParseResult(model: nil, diagnostics: [
                Diagnostic(.malformedModelXML, "the model file \(problem.reason)", at: SourceLocation(file: displayPath)),
            ])
        case .success(let data):
            return parse(data, file: displayPath)
        }
    }

    /// The 1-based number of the last line that has any character (1 for empty data).
    static func lastContentLine(of data: Data) -> Int {
        var lines = 1
        var pendingNewlines = 0
        for byte in data {
            if byte == 0x0A {
                pendingNewlines += 1
            } else if byte != 0x0D {
                lines += pendingNewlines
                pendingNewlines = 0
            }
        }
        return lines
    }
}

/// SAX delegate that builds an `ObjectModel` with an explicit context stack.
private final class ContentsBuilder: NSObject, PositionReadingXMLDelegate {
    struct Problem {
        var line: Int?
        var column: Int?
        var message: String
    }

    /// Finds where start tags begin.
    var columns: ElementColumns
    /// The line and column of the `<` of the element being started, when found.
    var elementLine = 0
    var elementColumn: Int?

    init(columns: ElementColumns) {
        self.columns = columns
    }

    /// Whose `<userInfo>` entries are being read.
    enum Owner: Equatable { case entity, attribute, relationship, compositeAttribute }

    /// What the element being read is.
    enum Context: Equatable {
        case model
        case entity
        case attribute
        case relationship
        case fetchedProperty
        case fetchIndex
        case uniquenessConstraints
        case uniquenessConstraint
        case compoundIndexes
        case compoundIndex
        case userInfo(Owner)
        case configuration
        case composite
        case compositeAttribute
        /// A known element that is read on start and has no interesting children.
        case leaf
    }

    /// Elements deeper than this are refused even if the XML parser allowed them.
    static let maxDepth = 4096

    weak var parser: XMLParser?
    var model = ObjectModel()
    var problems: [Problem] = []
    var sawParseError = false
    var sawRoot = false
    var rootClosed = false
    var lastLine: Int?

    private var stack: [Context] = []
    /// Depth inside an ignored (unknown) element subtree; its elements are not pushed.
    private var ignoredDepth = 0
    private var aborted = false

    // Elements are appended to `model` when they start and completed in place (the current
    // entity is always the last one, its current attribute the last one, and so on), which
    // avoids copying the large property structs around.

    /// Applies `body` to the entity being read.
    private func updateEntity(_ body: (inout Entity) -> Void) {
        guard !model.entities.isEmpty else { return }
        body(&model.entities[model.entities.count - 1])
    }

    /// Applies `body` to the composite type being read.
    private func updateComposite(_ body: (inout CompositeType) -> Void) {
        guard !model.composites.isEmpty else { return }
        body(&model.composites[model.composites.count - 1])
    }

    private func updateConfiguration(_ body: (inout Configuration) -> Void) {
        guard !model.configurations.isEmpty else { return }
        body(&model.configurations[model.configurations.count - 1])
    }

    private static func updateLast<Element>(_ array: inout [Element], _ body: (inout Element) -> Void) {
        guard !array.isEmpty else { return }
        body(&array[array.count - 1])
    }

    private var currentLine: Int { parser?.lineNumber ?? 0 }

    private func fail(_ message: String, line: Int?) {
        problems.append(Problem(line: line, column: line == elementLine ? elementColumn : nil, message: message))
    }

    private func abort(_ message: String, line: Int?) {
        fail(message, line: line)
        aborted = true
        parser?.abortParsing()
    }

    // MARK: - Attribute helpers

    /// Records a CP118 problem for an element without a name; returns nil (ignore the subtree).
    private func missingName(_ element: String, line: Int) -> Context? {
        fail("<\(element)> has no 'name' attribute", line: line)
        return nil
    }

    /// The `name` attribute, or nil after recording a CP118 problem for a missing or empty one.
    private func requiredName(_ attributes: [String: String], element: String, line: Int) -> String? {
        guard let name = attributes["name"], !name.isEmpty else {
            _ = missingName(element, line: line)
            return nil
        }
        return name
    }

    /// One pass over the XML attributes (cheaper than a lookup per field: files have
    /// tens of thousands of `<attribute>` elements with a handful of XML attributes each).
    private static func makeAttribute(_ a: [String: String], line: Int) -> Attribute {
        var attribute = Attribute(name: "", type: .undefined, line: line)
        var elementID: String?
        var renamingIdentifier: String?
        for (key, value) in a {
            switch key {
            case "name": attribute.name = value
            case "attributeType": attribute.type = AttributeType(xmlValue: value)
            case "optional": attribute.isOptional = value == "YES"
            case "transient": attribute.isTransient = value == "YES"
            case "indexed": attribute.isIndexed = value == "YES"
            case "defaultValueString": attribute.defaultValueString = value
            case "defaultDateTimeInterval": attribute.defaultDateTimeInterval = value
            case "minValueString": attribute.minValueString = value
            case "maxValueString": attribute.maxValueString = value
            case "minDateTimeInterval": attribute.minDateTimeInterval = value
            case "maxDateTimeInterval": attribute.maxDateTimeInterval = value
            case "regularExpressionString": attribute.regularExpressionString = value
            case "derived": attribute.isDerived = value == "YES"
            case "derivationExpression": attribute.derivationExpression = value
            case "allowsExternalBinaryDataStorage": attribute.allowsExternalBinaryDataStorage = value == "YES"
            case "preserveAfterDeletion": attribute.isPreservedAfterDeletion = value == "YES"
            case "valueTransformerName": attribute.valueTransformerName = value
            case "customClassName": attribute.customClassName = value
            case "composite": attribute.compositeName = value
            case "elementID": elementID = value
            case "renamingIdentifier": renamingIdentifier = value
            case "versionHashModifier": attribute.versionHashModifier = value
            case "usesScalarValueType": attribute.usesScalarValueType = value == "YES" ? true : (value == "NO" ? false : nil)
            default: break
            }
        }
        attribute.renamingIdentifier = elementID ?? renamingIdentifier
        return attribute
    }

    private static func makeRelationship(_ a: [String: String], line: Int) -> Relationship {
        var relationship = Relationship(name: "", destinationEntity: nil, isOptional: false, line: line)
        var elementID: String?
        var renamingIdentifier: String?
        for (key, value) in a {
            switch key {
            case "name": relationship.name = value
            case "destinationEntity": relationship.destinationEntity = value
            case "inverseName": relationship.inverseName = value
            case "inverseEntity": relationship.inverseEntity = value
            case "toMany": relationship.isToMany = value == "YES"
            case "ordered": relationship.isOrdered = value == "YES"
            case "optional": relationship.isOptional = value == "YES"
            case "transient": relationship.isTransient = value == "YES"
            case "minCount":
                relationship.minCount = Int(value) ?? 0
                relationship.hasWrittenMinCount = true
            case "maxCount":
                relationship.maxCount = Int(value) ?? 0
                relationship.hasWrittenMaxCount = true
            case "deletionRule": relationship.deletionRule = DeletionRule(rawValue: value) ?? .nullify
            case "elementID": elementID = value
            case "renamingIdentifier": renamingIdentifier = value
            case "versionHashModifier": relationship.versionHashModifier = value
            default: break
            }
        }
        relationship.renamingIdentifier = elementID ?? renamingIdentifier
        return relationship
    }

    // MARK: - XMLParserDelegate

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes a: [String: String]) {
        guard !aborted else { return }
        let line = currentLine
        lastLine = line
        elementLine = line
        elementColumn = columns.column(ofStartTag: elementName, onLine: line)
        if ignoredDepth > 0 {
            ignoredDepth += 1
            if ignoredDepth + stack.count > Self.maxDepth {
                abort("elements are nested more than \(Self.maxDepth) levels deep", line: line)
            }
            return
        }
        guard let context = stack.last else {
            // The root element.
            sawRoot = true
            guard elementName == "model" else {
                abort("the root element is <\(elementName)>, expected <model>", line: line)
                return
            }
            readModelAttributes(a)
            stack.append(.model)
            return
        }
        if let next = child(of: context, named: elementName, attributes: a, line: line) {
            stack.append(next)
        } else {
            ignoredDepth = 1
        }
    }

    private func readModelAttributes(_ a: [String: String]) {
        if let identifier = a["userDefinedModelVersionIdentifier"], !identifier.isEmpty {
            model.versionIdentifier = identifier
        }
        model.lastSavedToolsVersion = a["lastSavedToolsVersion"]
        model.usedWithCloudKit = a["usedWithCloudKit"] == "YES"
        model.systemVersion = a["systemVersion"]
        model.minimumToolsVersion = a["minimumToolsVersion"]
        model.sourceLanguage = a["sourceLanguage"]
    }

    /// Starts a known child element and returns its context, or nil to ignore its subtree.
    private func child(of context: Context, named element: String, attributes a: [String: String],
                       line: Int) -> Context? {
        switch (context, element) {
        case (.model, "entity"):
            var entity = Entity(name: "", line: line)
            var elementID: String?
            var renamingIdentifier: String?
            for (key, value) in a {
                switch key {
                case "name": entity.name = value
                case "parentEntity": entity.parentEntity = value
                case "isAbstract": entity.isAbstract = value == "YES"
                case "elementID": elementID = value
                case "renamingIdentifier": renamingIdentifier = value
                case "versionHashModifier": entity.versionHashModifier = value
                case "representedClassName": entity.representedClassName = value
                case "codeGenerationType": entity.codeGenerationType = value
                default: break
                }
            }
            entity.renamingIdentifier = elementID ?? renamingIdentifier
            entity.column = elementColumn
            guard !entity.name.isEmpty else { return missingName(element, line: line) }
            model.entities.append(entity)
            return .entity
        case (.model, "fetchRequest"):
            guard let name = requiredName(a, element: element, line: line) else { return nil }
            model.fetchRequests.append(FetchRequestTemplate(name: name, entity: a["entity"], predicate: a["predicateString"]))
            return .leaf
        case (.model, "configuration"):
            guard let name = requiredName(a, element: element, line: line) else { return nil }
            model.configurations.append(Configuration(name: name, memberEntities: [], usedWithCloudKit: a["usedWithCloudKit"] == "YES"))
            return .configuration
        case (.configuration, "memberEntity"):
            guard let name = requiredName(a, element: element, line: line) else { return nil }
            updateConfiguration { $0.memberEntities.append(name) }
            return .leaf
        case (.model, "composite"):
            guard let name = requiredName(a, element: element, line: line) else { return nil }
            model.composites.append(CompositeType(name: name, attributes: []))
            return .composite
        case (.composite, "attribute"):
            let attribute = Self.makeAttribute(a, line: line)
            guard !attribute.name.isEmpty else { return missingName(element, line: line) }
            updateComposite { $0.attributes.append(attribute) }
            return .compositeAttribute
        case (.entity, "attribute"):
            var attribute = Self.makeAttribute(a, line: line)
            attribute.column = elementColumn
            guard !attribute.name.isEmpty else { return missingName(element, line: line) }
            updateEntity { $0.attributes.append(attribute) }
            return .attribute
        case (.entity, "relationship"):
            var relationship = Self.makeRelationship(a, line: line)
            relationship.column = elementColumn
            guard !relationship.name.isEmpty else { return missingName(element, line: line) }
            updateEntity { $0.relationships.append(relationship) }
            return .relationship
        case (.entity, "fetchedProperty"):
            guard let name = requiredName(a, element: element, line: line) else { return nil }
            var fetched = FetchedProperty(name: name, line: line)
            fetched.column = elementColumn
            updateEntity { $0.fetchedProperties.append(fetched) }
            return .fetchedProperty
        case (.fetchedProperty, "fetchRequest"):
            updateEntity { entity in
                Self.updateLast(&entity.fetchedProperties) {
                    $0.entity = a["entity"]
                    $0.predicate = a["predicateString"]
                }
            }
            return .leaf
        case (.entity, "fetchIndex"):
            guard let name = requiredName(a, element: element, line: line) else { return nil }
            updateEntity { $0.fetchIndexes.append(FetchIndex(name: name, elements: [])) }
            return .fetchIndex
        case (.fetchIndex, "fetchIndexElement"):
            let indexElement = FetchIndex.Element(
                property: a["property"],
                expression: a["expression"],
                type: a["type"],
                ascending: a["order"] != "descending"
            )
            updateEntity { entity in Self.updateLast(&entity.fetchIndexes) { $0.elements.append(indexElement) } }
            return .leaf
        case (.entity, "uniquenessConstraints"):
            return .uniquenessConstraints
        case (.uniquenessConstraints, "uniquenessConstraint"):
            updateEntity { $0.uniquenessConstraints.append([]) }
            return .uniquenessConstraint
        case (.uniquenessConstraint, "constraint"):
            if let value = a["value"] {
                updateEntity { entity in Self.updateLast(&entity.uniquenessConstraints) { $0.append(value) } }
            }
            return .leaf
        case (.entity, "compoundIndexes"):
            return .compoundIndexes
        case (.compoundIndexes, "compoundIndex"):
            updateEntity { $0.compoundIndexes.append([]) }
            return .compoundIndex
        case (.compoundIndex, "index"):
            if let value = a["value"] {
                updateEntity { entity in Self.updateLast(&entity.compoundIndexes) { $0.append(value) } }
            }
            return .leaf
        case (.entity, "userInfo"):
            return .userInfo(.entity)
        case (.attribute, "userInfo"):
            return .userInfo(.attribute)
        case (.relationship, "userInfo"):
            return .userInfo(.relationship)
        case (.compositeAttribute, "userInfo"):
            return .userInfo(.compositeAttribute)
        case (.userInfo(let owner), "entry"):
            if let key = a["key"] {
                let entry = UserInfoEntry(key: key, value: a["value"] ?? "")
                switch owner {
                case .entity:
                    updateEntity { $0.userInfo.append(entry) }
                case .attribute:
                    updateEntity { entity in Self.updateLast(&entity.attributes) { $0.userInfo.append(entry) } }
                case .relationship:
                    updateEntity { entity in Self.updateLast(&entity.relationships) { $0.userInfo.append(entry) } }
                case .compositeAttribute:
                    updateComposite { composite in Self.updateLast(&composite.attributes) { $0.userInfo.append(entry) } }
                }
            }
            return .leaf
        default:
            return nil
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        guard !aborted else { return }
        if ignoredDepth > 0 {
            ignoredDepth -= 1
            return
        }
        if stack.popLast() == .model { rootClosed = true }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard !sawParseError, !aborted else { return }
        sawParseError = true
        let line = currentLine > 0 ? currentLine : lastLine
        let code = (parseError as NSError).code
        if (code == 5 || code == 77), sawRoot, !rootClosed {
            fail("the XML ends before '</model>' (truncated)", line: line)
        } else {
            fail("the XML is malformed: \(LibXMLErrors.describe(code))", line: line)
        }
        // Recovery mode would keep delivering events; nothing after the error is trusted.
        aborted = true
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: Error) {
        self.parser(parser, parseErrorOccurred: validationError)
    }
}

/// The column of a start tag's `<`, found in the document's bytes on the line `XMLParser`
/// reports for the element (the line where the start tag ends; Xcode writes each start tag on
/// one line). Lines are asked for in increasing order, so one forward scan serves the whole
/// document; several elements on one line are found left to right. A tag that begins on an
/// earlier line has no column.
struct ElementColumns {
    let data: Data
    /// The line `lineStart` begins, where it ends, and where the search for the next tag on it
    /// resumes (with the column of that byte), so a long line is scanned once in all.
    private var line = 1
    private var lineStart = 0
    private var lineEnd: Int
    private var cursor = 0
    private var cursorColumn = 1

    init(data: Data) {
        self.data = data
        lineEnd = data.withUnsafeBytes { $0.firstIndex(of: 0x0A) } ?? data.count
    }

    /// 1-based column, in Unicode scalars, of `<name` on `targetLine`.
    mutating func column(ofStartTag name: String, onLine targetLine: Int) -> Int? {
        guard targetLine >= line else { return nil }
        // The scan works on locals and buffer pointers: this runs once per element of every
        // model version, and stored-property, `Data` and array accesses in the loop cost more
        // than the scan. The name's own UTF-8 is compared in place (no `<name` string is built).
        var (line, lineStart, lineEnd, cursor, cursorColumn) = (self.line, self.lineStart, self.lineEnd, self.cursor, self.cursorColumn)
        defer { (self.line, self.lineStart, self.lineEnd, self.cursor, self.cursorColumn) = (line, lineStart, lineEnd, cursor, cursorColumn) }
        var name = name
        return name.withUTF8 { tag -> Int? in
            // `<` and the name's scalars (continuation bytes do not start one).
            let tagScalars = 1 + tag.reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
            let tagLength = 1 + tag.count
            return self.data.withUnsafeBytes { data -> Int? in
                guard let base = data.baseAddress else { return nil }
                let count = data.count
                while line < targetLine {
                    guard lineEnd < count else { return nil }
                    lineStart = lineEnd + 1
                    lineEnd = memchr(base + lineStart, 0x0A, count - lineStart).map { base.distance(to: UnsafeRawPointer($0)) } ?? count
                    cursor = lineStart
                    cursorColumn = 1
                    line += 1
                }
                var index = cursor
                var column = cursorColumn
                while index + tagLength <= lineEnd {
                    let byte = data[index]
                    if byte == 0x3C, tag.indices.allSatisfy({ data[index + 1 + $0] == tag[$0] }) {
                        let after = index + tagLength
                        let delimiter = after < lineEnd ? data[after] : 0x0A
                        if delimiter == 0x20 || delimiter == 0x09 || delimiter == 0x2F || delimiter == 0x3E || delimiter == 0x0A || delimiter == 0x0D {
                            // Resume after the name: its bytes are ASCII or whole characters.
                            cursor = after
                            cursorColumn = column + tagScalars
                            return column
                        }
                    }
                    // Continuation bytes (10xxxxxx) do not start a character.
                    if byte & 0xC0 != 0x80 { column += 1 }
                    index += 1
                }
                // Not found: later searches on this line start where this one began.
                return nil
            }
        }
    }
}
