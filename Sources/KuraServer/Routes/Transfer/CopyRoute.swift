import Foundation
import Hummingbird
import Kura

/// `POST /v1/copy`: `{"source", "destination", "type", "where", "args", "mode"}` (served realm names) copies
/// as `kura copy` does into an existing realm, atomically; the answer is its summary as JSON:
/// `{"types": {T: {"inserted", "updated", "unchanged", "deleted"}}}`. The token needs read on the
/// source and write on the destination.
struct CopyRoute: RouteSet {
    let realms: ServedRealms
    let writeWait: Double

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.post("copy") { request, context in
            try MediaTypes.require(request, ["application/json"], describing: "send the copy as application/json")
            let body = try await context.bodyLimits.collect(request)
            let copy = try CopyRequest(json: Data(buffer: body))
            try context.access?.require(.read, realms: [copy.source])
            try context.access?.require(.write, realms: [copy.destination])
            let realms = self.realms
            let writeWait = self.writeWait
            let counts = try await realms.work.run {
                let source = try realms.open(copy.source)
                if let type = copy.type { _ = try ServedRealms.type(type, in: source, realmName: copy.source) }
                let destination = try realms.open(copy.destination, writeWait: writeWait)
                var options = CopyOptions(type: copy.type, predicate: copy.predicate, mode: copy.mode)
                options.arguments = copy.arguments
                return try RealmCopier(source: source, destination: destination, options: options).run()
            }
            let types = counts.keys.sorted().map { type in
                let count = counts[type] ?? ChangeCounts()
                return (type, JSONText.object([
                    ("inserted", String(count.inserted)), ("updated", String(count.updated)),
                    ("unchanged", String(count.unchanged)), ("deleted", String(count.deleted)),
                ]))
            }
            return TextResponse.json(JSONText.object([("types", JSONText.object(types))]))
        }
    }
}

/// The body of `POST /v1/copy`, checked: 400 naming the member that is missing or wrong.
struct CopyRequest: Sendable {
    let source: String
    let destination: String
    let type: String?
    let predicate: String?
    /// The values of the predicate's `$0`, `$1` …
    let arguments: [Value]
    let mode: UpdatePolicy

    init(json: Data) throws {
        guard let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else {
            throw Problem.badParameter("the body must be a JSON object: {\"source\", \"destination\", \"type\", \"where\", \"mode\"}")
        }
        func text(_ key: String, required: Bool) throws(Problem) -> String? {
            guard let value = object[key], !(value is NSNull) else {
                if required { throw Problem.badParameter("the body needs \"\(key)\": a realm name") }
                return nil
            }
            guard let string = value as? String else { throw Problem.badParameter("\"\(key)\" must be a string") }
            return string
        }
        source = try text("source", required: true) ?? ""
        destination = try text("destination", required: true) ?? ""
        type = try text("type", required: false)
        predicate = try text("where", required: false)
        if predicate != nil && type == nil { throw Problem.badParameter("\"where\" needs \"type\"") }
        if let list = object["args"], !(list is NSNull) {
            guard list is [Any], let text = try? JSONSerialization.data(withJSONObject: list) else {
                throw Problem.badParameter("\"args\" must be an array of the predicate's values")
            }
            arguments = try QueryArgumentList.values(json: String(decoding: text, as: UTF8.self))
        } else {
            arguments = []
        }
        mode = try ObjectWriteRoutes.mode(try text("mode", required: false)) ?? .error
    }
}
