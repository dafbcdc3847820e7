import Foundation
import Hummingbird
import Kura

/// `POST /v1/realms/{realm}/migrate` (in a group that needs an admin token): the body is a schema file (YAML); the answer is what
/// `kura migrate` prints, as JSON: `{"realm", "plan": {"fromVersion", "toVersion", "changes", "text"},
/// "result": {"migrated", "message"}}`. With `dryRun=true` the data is checked and nothing written.
struct MigrateRoute: RouteSet {
    let realms: ServedRealms
    /// Seconds the migration waits for the realm's writer (`server.writeWait`).
    let writeWait: Double

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.post("realms/:realm/migrate") { request, context in
            let name = try context.realm()
            let dryRun = try QueryParameters(request).flag("dryRun")
            // A schema file is YAML, of which JSON is a part.
            try MediaTypes.require(
                request, ["application/yaml", "application/x-yaml", "text/yaml", "application/json"],
                describing: "send the schema file as application/yaml")
            let body = try await context.bodyLimits.collect(request)
            let text = String(decoding: body.readableBytesView, as: UTF8.self)
            let realms = self.realms
            let writeWait = self.writeWait
            let json = try await realms.work.run {
                let path = try realms.path(of: name)
                let schema = try Schema(yaml: text, file: "body")
                let configuration = Realm.Configuration(path: path, schema: schema, busyTimeout: writeWait)
                let plan = try Realm.migrationPlan(for: configuration)
                if plan.isEmpty {
                    return Self.answer(name, plan, migrated: false, "already at schema version \(plan.oldVersion) with this schema: nothing to migrate")
                }
                try plan.check()
                if dryRun { return Self.answer(name, plan, migrated: false, "dry run: nothing was written") }
                try Realm.performMigration(for: configuration)
                return Self.answer(name, plan, migrated: true, "migrated to schema version \(plan.newVersion)")
            }
            return TextResponse.json(json)
        }
    }

    private static func answer(_ realm: String, _ plan: MigrationPlan, migrated: Bool, _ message: String) -> String {
        let changes = plan.changes.map { change in
            JSONText.object([("path", JSONText.string(change.path)), ("summary", JSONText.string(change.summary))])
        }
        return JSONText.object([
            ("realm", JSONText.string(realm)),
            ("plan", JSONText.object([
                ("fromVersion", String(plan.oldVersion)), ("toVersion", String(plan.newVersion)),
                ("changes", JSONText.array(changes)), ("text", JSONText.string(plan.isEmpty ? "" : plan.description)),
            ])),
            ("result", JSONText.object([("migrated", migrated ? "true" : "false"), ("message", JSONText.string(message))])),
        ])
    }
}
