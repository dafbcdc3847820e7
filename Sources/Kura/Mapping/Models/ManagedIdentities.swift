import Foundation

/// Which stored object each model instance of a realm is: Realm's "managed objects" for Codable classes.
///
/// A class instance read from a realm, or added to it, is remembered here by its `ObjectIdentifier`,
/// with a weak reference so that an identifier reused by a later instance is not mistaken for it.
/// Models stay plain Codable values: nothing is stored in them, and structs (which have no identity)
/// are known only by their primary key.
///
/// `@unchecked Sendable`: the table is read and changed only under `lock`, since a realm handle is
/// shared by threads; the instances themselves are only compared, never used.
final class ManagedIdentities: @unchecked Sendable {
    private let lock = NSLock()
    private struct Entry {
        weak var object: AnyObject?
        let ref: ObjectRef
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    /// Entries are swept of released instances when the table grows past this.
    private var sweepAt = 1024

    /// Remembers that `object` is the stored object `ref`.
    func record(_ object: AnyObject, _ ref: ObjectRef) {
        lock.withLock { recordLocked(object, ref) }
    }

    private func recordLocked(_ object: AnyObject, _ ref: ObjectRef) {
        entries[ObjectIdentifier(object)] = Entry(object: object, ref: ref)
        if entries.count >= sweepAt {
            entries = entries.filter { $0.value.object != nil }
            sweepAt = Swift.max(1024, entries.count * 2)
        }
    }

    /// Remembers every class instance among `instances`.
    func record(_ instances: [ObjectRef: Any]) {
        lock.withLock {
            for (ref, instance) in instances where type(of: instance) is AnyClass {
                recordLocked(instance as AnyObject, ref)
            }
        }
    }

    /// The stored object `object` was read as or written to, if it is one of this realm's.
    func ref(of object: AnyObject) -> ObjectRef? {
        lock.withLock {
            guard let entry = entries[ObjectIdentifier(object)], entry.object === object else { return nil }
            return entry.ref
        }
    }
}
