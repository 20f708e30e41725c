import Foundation
import SwiftParser

// Reads every .swift file under the folder given and parses it with swift-syntax, as
// `chainplan hash` must at least do; prints the number of files and tokens (so the parse is used).
let folder = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : ".")
var files = 0
var tokens = 0
let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
while let url = walker?.nextObject() as? URL {
    guard url.pathExtension == "swift", let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
    let tree = Parser.parse(source: text)
    files += 1
    tokens += tree.tokens(viewMode: .sourceAccurate).reduce(0) { count, _ in count + 1 }
}
print("\(files) files, \(tokens) tokens")
