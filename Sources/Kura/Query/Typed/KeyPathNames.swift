import Foundation
import Synchronization

/// The property names Swift key paths of a model stand for, as typed queries and typed sorting
/// write them into a predicate.
///
/// A stored property's key path describes itself (`\Person.bestFriend?.name`), and that text
/// gives its names. A property behind a wrapper (`@Link`, `@Backlinks`) is computed, and its key
/// path says nothing of its name: a probe instance of the model, each wrapper given a different
/// target, shows which wrapper the key path reads; the answer is remembered.
enum KeyPathNames {
    /// The one property `keyPath` reads on `model`.
    static func propertyName<Root>(_ keyPath: KeyPath<Root, some Any>, of model: any KuraObject.Type) -> Result<String, KuraError> {
        switch names(keyPath, of: model) {
        case .success(let names) where names.count == 1: .success(names[0])
        case .success(let names): .failure(KuraError.typedQuery("expected one property, found '\(names.joined(separator: "."))'"))
        case .failure(let error): .failure(error)
        }
    }

    /// The property names, in order, of a key path from `model` (`bestFriend`, `name` for
    /// `\Person.bestFriend?.name`).
    static func names(_ keyPath: AnyKeyPath, of model: any KuraObject.Type) -> Result<[String], KuraError> {
        let description = String(describing: keyPath)
        let typeName = String(describing: type(of: keyPath).rootType)
        if description.hasPrefix("\\"), let start = description.range(of: typeName + ".") {
            let parts = description[start.upperBound...].split(separator: ".", omittingEmptySubsequences: false).map { part in
                String(part.reversed().drop { $0 == "?" || $0 == "!" }.reversed())
            }
            if parts.allSatisfy(isPlainName) { return .success(parts) }
        }
        // A computed key path's description holds its getter's address: the same text is the same property.
        if let known = wrapperNames.withLock({ $0[description] }) { return .success([known]) }
        guard let wrapped = WrapperProbe.propertyName(keyPath, of: model) else {
            return .failure(KuraError.typedQuery("\(readable(description)) is not a stored property of \(model.typeName) (nor a @Link or @Backlinks)"))
        }
        wrapperNames.withLock { $0[description] = wrapped }
        return .success([wrapped])
    }

    /// A key path's description without the addresses Swift prints for computed properties:
    /// `\Person.<computed 0x… (String)>` reads `\Person.<computed String>`.
    private static func readable(_ description: String) -> String {
        description.replacing(/<computed 0x[0-9a-fA-F]+ \(([^)]*)\)>/) { match in "<computed \(match.output.1)>" }
    }

    private static func isPlainName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !CharacterSet.decimalDigits.contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
    }

    /// The wrapped properties already found, by their key paths' descriptions; shared by every thread.
    private static let wrapperNames = Mutex<[String: String]>([:])
}

/// Finds which `@Link` or `@Backlinks` property a computed key path reads, on a probe instance.
private enum WrapperProbe {
    static func propertyName(_ keyPath: AnyKeyPath, of model: any KuraObject.Type) -> String? {
        guard let probe = instance(of: model) else { return nil }
        var marks: [(name: String, matches: (Any) -> Bool)] = []
        var mirror: Mirror? = Mirror(reflecting: probe)
        while let current = mirror {
            for child in current.children {
                guard let label = child.label, label.hasPrefix("_") else { continue }
                let name = String(label.dropFirst())
                if let link = child.value as? any LinkBox {
                    // A distinct target object per link; the key path's value is one of them.
                    guard let target = instance(of: type(of: link).targetType), type(of: target) is AnyClass else { continue }
                    link.fill(target)
                    let identity = ObjectIdentifier(target as AnyObject)
                    marks.append((name, { value in Self.identity(of: value) == identity }))
                } else if let backlinks = child.value as? any BacklinksBox {
                    // A distinct number of sources per backlinks property.
                    guard let source = instance(of: type(of: backlinks).sourceType) else { continue }
                    let count = marks.count + 1
                    backlinks.fill(Array(repeating: source, count: count))
                    marks.append((name, { value in (value as? any Collection)?.count == count }))
                }
            }
            mirror = current.superclassMirror
        }
        guard let value = read(keyPath, from: probe) else { return nil }
        return marks.first { $0.matches(value) }?.name
    }

    private static func instance(of model: any KuraObject.Type) -> (any KuraObject)? {
        try? model.init(from: InspectingDecoder(recorder: InspectionRecorder(typeName: model.typeName)))
    }

    private static func read<Root>(_ keyPath: AnyKeyPath, from root: Root) -> Any? {
        root[keyPath: keyPath]
    }

    /// The identity of the object `value` holds, looking through an optional; `nil` for a value
    /// that is not an object.
    private static func identity(of value: Any) -> ObjectIdentifier? {
        var value = value
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return nil }
            value = wrapped
        }
        guard Mirror(reflecting: value).displayStyle == .class else { return nil }
        return ObjectIdentifier(value as AnyObject)
    }
}
