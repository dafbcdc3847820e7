// libyaml's C API, which Yams is built on: the event stream lets a document be checked before
// Yams composes it. (CYaml is a module of the Yams package that Yams itself imports.)
import CYaml

/// Finds a mapping key that is a collection, or an alias to one, by walking libyaml's events.
///
/// Such keys are refused anyway ("YAML mapping keys must be scalars"), but Yams hashes every key
/// while composing a mapping, to find duplicates. Hashing a key that aliases a node whose aliases
/// nest (billion laughs) walks every expanded value — exponential work that never ends. The scan
/// runs first, in one pass over the events, so such a document fails before Yams sees it.
enum YAMLKeyScan {
    /// The 1-based line and column of the first collection or collection alias in a key position;
    /// nil if there is none, or if libyaml finds the text invalid first (Yams then reports that).
    static func firstCollectionKey(in bytes: [UInt8]) -> (line: Int, column: Int)? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        return bytes.withUnsafeBufferPointer { (buffer) -> (line: Int, column: Int)? in
            guard let base = buffer.baseAddress else { return nil }
            yaml_parser_set_input_string(&parser, base, buffer.count)
            var walk = Walk()
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return nil }
                if let found = walk.step(event) { return found }
            }
            return nil
        }
    }

    /// The walk's state: open collections and what each anchor names.
    private struct Walk {
        /// Open collections, innermost last; for a mapping, whether the next node is a key.
        private var open: [(isMapping: Bool, expectsKey: Bool, anchor: String?)] = []
        /// Whether each anchor (its latest complete definition) names a collection.
        private var anchorIsCollection: [String: Bool] = [:]

        /// Takes one event; returns the position of an offending key.
        mutating func step(_ event: yaml_event_t) -> (line: Int, column: Int)? {
            let position = (line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
            let atKey = open.last.map { $0.isMapping && $0.expectsKey } ?? false
            switch event.type {
            case YAML_SCALAR_EVENT:
                if let anchor = Self.name(event.data.scalar.anchor) { anchorIsCollection[anchor] = false }
                nodeEnded()
            case YAML_ALIAS_EVENT:
                if atKey, let anchor = Self.name(event.data.alias.anchor), anchorIsCollection[anchor] == true {
                    return position
                }
                nodeEnded()
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                if atKey { return position }
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                let anchor = Self.name(isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor)
                open.append((isMapping, true, anchor))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                if let closed = open.popLast(), let anchor = closed.anchor { anchorIsCollection[anchor] = true }
                nodeEnded()
            default:
                break
            }
            return nil
        }

        /// A complete node moves its mapping from key to value or back.
        private mutating func nodeEnded() {
            guard let top = open.indices.last, open[top].isMapping else { return }
            open[top].expectsKey.toggle()
        }

        private static func name(_ text: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            text.map { String(cString: $0) }
        }
    }
}
