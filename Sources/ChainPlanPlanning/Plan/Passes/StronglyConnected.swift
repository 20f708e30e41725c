/// Strongly connected components of a directed graph (Tarjan's algorithm, iterative so deep
/// graphs cannot overflow the stack): a component number per node, numbered so that every
/// component reached from another gets a smaller number (targets first).
enum StronglyConnected {
    static func components(_ edges: [[Int]]) -> [Int] {
        let count = edges.count
        var index = Array(repeating: -1, count: count), low = Array(repeating: 0, count: count)
        var onStack = Array(repeating: false, count: count), component = Array(repeating: -1, count: count)
        var stack: [Int] = [], next = 0, components = 0
        for root in 0..<count where index[root] < 0 {
            var work: [(node: Int, edge: Int)] = [(root, 0)]
            index[root] = next; low[root] = next; next += 1; stack.append(root); onStack[root] = true
            while let (node, edge) = work.last {
                if edge < edges[node].count {
                    work[work.count - 1].edge += 1
                    let to = edges[node][edge]
                    if index[to] < 0 {
                        index[to] = next; low[to] = next; next += 1; stack.append(to); onStack[to] = true
                        work.append((to, 0))
                    } else if onStack[to] {
                        low[node] = min(low[node], index[to])
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last { low[parent.node] = min(low[parent.node], low[node]) }
                if low[node] == index[node] {
                    while let top = stack.popLast() {
                        onStack[top] = false
                        component[top] = components
                        if top == node { break }
                    }
                    components += 1
                }
            }
        }
        return component
    }
}
