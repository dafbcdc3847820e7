import Foundation
import Hummingbird
import Kura

/// `GET /v1/realms/{realm}/check`: the report `kura check --format json` prints, 200 whether or not
/// the realm is healthy (the report's `problemCount` says).
struct CheckRoute: RouteSet {
    let realms: ServedRealms

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.get("realms/:realm/check") { _, context in
            let name = try context.realm()
            guard let path = realms.paths[name] else {
                throw Problem.notFound("unknown-realm", "no realm named '\(MessageText.shown(name))' is served")
            }
            let body = try await realms.work.run {
                let report = try RealmChecker(path: path).check()
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                return String(decoding: try encoder.encode(report), as: UTF8.self)
            }
            return TextResponse.json(body)
        }
    }
}
