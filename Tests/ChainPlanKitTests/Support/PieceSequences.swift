/// Every document made of up to `depth` of `pieces` in a row (the empty one first), given to
/// `body` one at a time: the exhaustive inputs of the differential scan tests.
func forEachSequence(of pieces: [[UInt8]], upTo depth: Int, _ body: ([UInt8]) -> Void) {
    var document: [UInt8] = []
    func visit(_ level: Int) {
        body(document)
        guard level < depth else { return }
        for piece in pieces {
            document += piece
            visit(level + 1)
            document.removeLast(piece.count)
        }
    }
    visit(0)
}
