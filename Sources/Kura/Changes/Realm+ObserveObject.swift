import Foundation

extension Realm {
    /// Observes the `T` object with primary key `key`: `block` gets `.change` with the object and
    /// the properties that changed (with their old and new values) after every commit that changed
    /// it, from any connection or process, and `.deleted` once it is deleted. Throws when no such
    /// object is stored. Callbacks run as those of `Results.observe(on:_:)` do.
    public func observe<T: KuraObject>(
        _ type: T.Type, primaryKey key: Value, on queue: DispatchQueue? = nil,
        _ block: @escaping @Sendable (ObjectChange<T>) -> Void
    ) throws -> NotificationToken {
        guard let object = try object(ofType: T.typeName, forPrimaryKey: key) else {
            throw KuraError.store(.objectDeleted, "no \(T.typeName) has primary key \(key): there is no object to observe")
        }
        return observe(object.ref, on: queue) { realm, ref, properties, error in
            if let error { return block(.error(error)) }
            guard let properties else { return block(.deleted) }
            // Decoded through this realm when the change is reported, as the object is then.
            do {
                guard let decoded = try realm.decodeModels(T.self, [ref]).first else { return block(.deleted) }
                block(.change(decoded, properties))
            } catch {
                block(.error(error))
            }
        }
    }

    /// Observes the object `object` is, as `observe(_:primaryKey:on:_:)` does.
    public func observe(
        _ object: DynamicObject, on queue: DispatchQueue? = nil, _ block: @escaping @Sendable (ObjectChange<DynamicObject>) -> Void
    ) -> NotificationToken {
        observe(object.ref, on: queue) { realm, ref, properties, error in
            if let error { return block(.error(error)) }
            guard let properties else { return block(.deleted) }
            block(.change(DynamicObject(realm: realm, ref: ref), properties))
        }
    }

    /// Observes the object `ref`; `report` gets the realm, the object, and its changed properties,
    /// `nil` once it is deleted, or an error.
    private func observe(
        _ ref: ObjectRef, on queue: DispatchQueue?,
        report: @escaping (Realm, ObjectRef, [PropertyChange]?, (any Error)?) -> Void
    ) -> NotificationToken {
        let token = NotificationToken()
        // Not `@Sendable`: it makes values of the model's type, whose metatype need not be Sendable.
        let handedReport = Handover(value: report)
        let handedRealm = Handover(value: self)
        let deliver: @Sendable ([PropertyChange]?, (any Error)?) -> Void = { properties, error in
            let run: @Sendable () -> Void = {
                guard token.isActive else { return }
                handedReport.value(handedRealm.value, ref, properties, error)
            }
            if let queue { queue.async(execute: run) } else { run() }
        }
        do {
            // The values as this call sees them: a commit made right after it, before the notifier
            // gets to the new observer, is then reported too.
            let values = try read { snapshot in try snapshot.values(of: ref) }
            let observer = ObjectObserver(ref: ref, values: values, token: token, report: deliver)
            try ChangeNotifier.notifier(for: self).add(observer, token: token)
        } catch let error as KuraError where error.code == .store(.objectDeleted) {
            deliver(nil, nil)
        } catch {
            deliver(nil, error)
        }
        return token
    }
}

/// Runs one object observation: keeps the object's values at the last look and compares.
final class ObjectObserver: ChangeObserver, @unchecked Sendable {
    private let ref: ObjectRef
    private let token: NotificationToken
    /// Reports changed properties, `nil` for a deletion, or an error.
    private let report: @Sendable ([PropertyChange]?, (any Error)?) -> Void
    private var values: [String: Value] = [:]

    /// Observes `ref`, whose values were `values` when observing was asked for.
    init(
        ref: ObjectRef, values: [String: Value], token: NotificationToken,
        report: @escaping @Sendable ([PropertyChange]?, (any Error)?) -> Void
    ) {
        self.ref = ref
        self.values = values
        self.token = token
        self.report = report
    }

    /// Reports what changed since observing was asked for, if anything did.
    func start(_ snapshot: Realm.Snapshot, _ reader: Realm) throws {
        guard try snapshot.objectExists(ref) else {
            report(nil, nil)
            throw ObservationEnded()
        }
        compare(with: try snapshot.values(of: ref), reader)
    }

    func refresh(_ snapshot: Realm.Snapshot, _ reader: Realm, _ span: ChangeSpan) throws -> Bool {
        guard token.isActive else { return false }
        guard try snapshot.objectExists(ref) else {
            report(nil, nil)
            return false
        }
        guard !span.complete || span.modified[ref.type]?.contains(ref.id) == true else { return true }
        compare(with: try snapshot.values(of: ref), reader)
        return true
    }

    /// Reports the properties whose values differ from the last ones seen, and keeps `now`.
    private func compare(with now: [String: Value], _ reader: Realm) {
        // In the schema's order, as Realm reports them.
        let names = reader.catalog.schema[type: ref.type]?.storedProperties.map(\.name) ?? now.keys.sorted()
        let changed = names.compactMap { name -> PropertyChange? in
            let old = values[name]
            let new = now[name]
            return old == new ? nil : PropertyChange(name: name, oldValue: old, newValue: new)
        }
        values = now
        if !changed.isEmpty { report(changed, nil) }
    }

    func fail(_ error: any Error) {
        guard !(error is ObservationEnded) else { return }
        report(nil, error)
    }
}

/// Ends an observation whose first look found nothing to observe, after it reported so.
struct ObservationEnded: Error {}
