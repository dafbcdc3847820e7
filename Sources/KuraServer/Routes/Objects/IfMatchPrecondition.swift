import Kura

/// `If-Match` on a write to one object (RFC 9110 §13.1.1): the write goes ahead only when the
/// object's current ETag is listed, or the list is `*` and the object exists.
enum IfMatchPrecondition {
    /// Throws 412 `precondition-failed` unless `condition` (the header, or `nil` for none) holds for
    /// `object` (`nil` when there is none); run it in the write transaction that writes the object.
    static func check(_ condition: String?, on object: DynamicObject?, in realm: Realm, named name: String) throws {
        guard let condition else { return }
        guard let object else {
            throw Problem(status: 412, code: "precondition-failed", detail: "\(name) does not exist, so If-Match \(MessageText.shown(condition)) fails")
        }
        let tag = ETag.of(try ObjectAddress.document(of: object, in: realm))
        guard ETag.matchesStrongly(condition, tag) else {
            throw Problem(status: 412, code: "precondition-failed", detail: "\(name) has changed: its ETag is no longer \(MessageText.shown(condition))")
        }
    }
}
