/// A stream of parsed documents with positions: what the JSON and YAML readers have in common.
public protocol DocumentReader: AnyObject {
    /// The name errors print: the path, or the name given with in-memory input.
    var file: String { get }
    /// Bytes of input consumed so far, for progress.
    var bytesRead: Int { get }
    /// The next document, or `nil` at the end of the input.
    func next() throws(KuraError) -> DocumentNode?
}

extension JSONReader: DocumentReader {}
extension YAMLReader: DocumentReader {}
