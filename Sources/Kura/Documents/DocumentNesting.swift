/// How deep documents may nest, as they are mapped to objects and written from them: it bounds
/// the recursion of both, and a document nested deeper is refused with a message saying so.
enum DocumentNesting {
    /// The most levels of nested objects, lists and maps one document may have.
    static let maxDepth = 256
}
