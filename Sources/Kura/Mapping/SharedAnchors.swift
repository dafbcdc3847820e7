/// The YAML anchors that the documents mapped so far of one YAML document have defined: the items
/// of a top-level sequence are documents of their own but one YAML document, so an item may alias
/// an anchor of an item before it (and `$ref` the object an anchored link document made).
/// Used on one thread, by the mapper of one input.
final class SharedAnchors {
    /// The anchored nodes, by name; later definitions win.
    var values: [String: DocumentNode] = [:]
    /// The anchors on link documents, which carry `"$id"`: an alias to one links to the same object.
    var links: Set<String> = []

    /// Forgets them all, for a YAML document that starts afresh.
    func reset() {
        if !values.isEmpty { values = [:] }
        if !links.isEmpty { links = [] }
    }

    /// Adds the anchors of a document that was not mapped (it was refused before it could be).
    func register(_ node: DocumentNode, mapper: DocumentMapper) {
        let context = MappingContext(mapper: mapper)
        swap(&context.anchors, &values)
        context.registerAnchors(in: node)
        swap(&context.anchors, &values)
    }
}
