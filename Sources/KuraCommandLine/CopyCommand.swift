import ArgumentParser
import Foundation
import Kura
import KuraClient

/// `kura copy SOURCE DEST`: objects and everything they link to, from one realm into another.
struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy objects, with everything they link to, from one realm into another.",
        discussion: """
            Without --type the whole realm is copied. With --type (and --where) the selected objects \
            are copied together with every object they link to, transitively, embedded objects \
            included. Each object is copied once, so cycles and shared objects keep their shape; \
            objects with a primary key are matched by key in the destination under --mode. Under \
            update, modified and replace, objects without one update the object their place holds \
            (the link, the list index, the map key), or at the top level an object holding the same \
            values (see docs/documents.md): copying again changes nothing.

            The destination's schema is checked first: every copied type and property must exist \
            there with the same type. A destination that does not exist yet is created with the \
            source's schema. The copy is one transaction: it happens whole or not at all.

            Either side may be a realm kura serve serves, named by its URL \
            (https://HOST:PORT/v1/realms/NAME), on one server or two: the documents stream through \
            kura as they come. The token is the destination's (KURA_TOKEN or --token-file); a \
            source on another server takes its own with --source-token-file.
            """)

    @Argument(help: "The realm to copy from: a file, a postgres:// URL or a served realm's https:// URL.")
    var source: String

    @Argument(help: "The realm to copy into: a file or a postgres:// URL (created with the source's schema if it does not exist), or a served realm's https:// URL.")
    var destination: String

    @OptionGroup var token: TokenOption

    @Option(name: .customLong("source-token-file"), help: "For a served source on another server: a file whose first line is its token (default: the destination's).")
    var sourceTokenFile: String?

    @Option(name: .long, help: "Copy the objects of this type (and what they link to).")
    var type: String?

    @Option(name: .customLong("where"), help: "A predicate selecting the objects of --type.")
    var predicate: String?

    @Option(name: .long, help: "insert (an existing primary key is an error), update, modified or replace.")
    var mode: UpdatePolicy?

    @Flag(name: .customLong("skip-existing"), help: "Leave out objects the destination holds (by primary key, or without one, an object holding all of it), counted as unchanged: copying again changes nothing.")
    var skipExisting = false

    @Option(name: .long, help: "A configuration file to read instead of ./config.yaml.")
    var config: String?

    func validate() throws {
        if type == nil && predicate != nil { throw ValidationError("--where needs --type") }
    }

    func run() throws {
        try CommandFailure.report(hint: CommandFailure.writeHint) {
            let settings = try ConfigFile.load(explicitPath: config)
            if RemoteRealms.names(source) { return try copyFromServed(settings) }
            try RealmPaths.requireRealm(source)
            if RemoteRealms.names(destination) { return try copyIntoServed(settings) }
            try RealmPaths.requireFolder(forNew: destination)
            // Never into the source itself, whatever the names: by file identity.
            if let clash = try OutputTarget.clashing(destination, as: "the copy", with: OutputTarget.realmFiles(source)) {
                throw CommandFailure(.usage, clash.path == source ? "the source and the destination are the same realm"
                    : "cannot write the copy to '\(destination)': it is \(clash.what) '\(clash.path)'")
            }
            let from = try Realm(configuration: Realm.Configuration(path: source, readOnly: true))
            if let type, from.schema[type: type] == nil {
                throw CommandFailure(.usage, from.schema.noTypeMessage(type, in: "the source realm"))
            }
            // A realm on a server is made in place (schema first, then the copy); a file only once whole.
            let intoFile = RealmPaths.isFile(destination)
            let created = intoFile ? !FileManagerProbe.exists(destination) : try !Realm.holdsRealm(at: destination)
            let chosenMode = try chosenMode(settings)
            if skipExisting && chosenMode != .error { throw CommandFailure(.usage, "--skip-existing goes with --mode insert") }
            var options = CopyOptions(type: type, predicate: predicate, mode: chosenMode)
            options.skipExisting = skipExisting
            InterruptTrap.install(message: "copy interrupted: nothing was written")
            // The destination too: a signal between its linking into place and the end of the copy
            // would otherwise leave a realm behind a message saying nothing was written.
            if created && intoFile { InterruptTrap.removeOnInterrupt(Realm.buildingFiles(for: destination) + [destination]) }
            // A new destination appears only once the copy has committed: killed before, it leaves
            // no half-made realm behind that a second run would refuse.
            let counts: [String: ChangeCounts]
            if !intoFile {
                counts = try Self.copy(from, into: try Realm(path: destination, schema: created ? from.schema : nil), options)
            } else if created && type == nil && RealmPaths.isFile(source) {
                counts = try from.copyWhole(to: destination)  // the whole realm into a new file
            } else if created {
                counts = try Realm.createWhole(at: destination, schema: from.schema) { try Self.copy(from, into: $0, options) }
            } else {
                counts = try Self.copy(from, into: try Realm(path: destination), options)
            }
            if created {
                if intoFile { InterruptTrap.forget(destination) }
                InterruptTrap.update(message: "copy interrupted after it was written")
                print("\(destination): created with the source's schema")
            }
            Self.printCounts(counts)
        }
    }

    /// Copies into a served realm: the selection and what it links to, exported as documents
    /// straight into one atomic import there.
    private func copyIntoServed(_ settings: ConfigFile) throws {
        let client = try RemoteRealms.client(destination, tokenFile: token.tokenFile)
        let options = try copyOptions(settings)
        InterruptTrap.install(message: "copy interrupted: nothing was written")
        let source = self.source
        let summary = try RemoteRealms.wait { try await client.copy(fromRealmAt: source, options) }
        Self.printCounts(summary.counts)
    }

    /// Copies out of a served realm: its export of the selection and what it links to, streamed
    /// into one atomic import into the destination, served or not. A destination on this machine
    /// that does not exist yet is made with the source's schema, and appears only once whole.
    private func copyFromServed(_ settings: ConfigFile) throws {
        let from = try RemoteRealms.client(source, tokenFile: sourceTokenFile ?? token.tokenFile)
        let options = try copyOptions(settings)
        InterruptTrap.install(message: "copy interrupted: nothing was written")
        if RemoteRealms.names(destination) {
            let into = try RemoteRealms.client(destination, tokenFile: token.tokenFile)
            if into.realm == from.realm { throw CommandFailure(.usage, "the source and the destination are the same realm") }
            let summary = try RemoteRealms.wait { try await from.copy(to: into, options) }
            return Self.printCounts(summary.counts)
        }
        try RealmPaths.requireFolder(forNew: destination)
        let schema = try RemoteRealms.wait { try await from.schema() }
        if let type = options.type, schema[type: type] == nil {
            throw CommandFailure(.usage, schema.noTypeMessage(type, in: "the source realm"))
        }
        let intoFile = RealmPaths.isFile(destination)
        let created = intoFile ? !FileManagerProbe.exists(destination) : try !Realm.holdsRealm(at: destination)
        if created && intoFile { InterruptTrap.removeOnInterrupt(Realm.buildingFiles(for: destination) + [destination]) }
        let copy = { (realm: Realm) in try RemoteRealms.wait { try await from.copy(into: realm, options) } }
        let summary = created && intoFile
            ? try Realm.createWhole(at: destination, schema: schema, copy)
            : try copy(try Realm(path: destination, schema: created ? schema : nil))
        if created {
            if intoFile { InterruptTrap.forget(destination) }
            InterruptTrap.update(message: "copy interrupted after it was written")
            print("\(destination): created with the source's schema")
        }
        Self.printCounts(summary.counts)
    }

    /// The options of a copy with a served realm on either side.
    private func copyOptions(_ settings: ConfigFile) throws -> CopyOptions {
        var options = CopyOptions(type: type, predicate: predicate, mode: try chosenMode(settings))
        if skipExisting && options.mode != .error { throw CommandFailure(.usage, "--skip-existing goes with --mode insert") }
        options.skipExisting = skipExisting
        return options
    }

    /// The mode: `--mode`, else config.yaml's, else insert.
    private func chosenMode(_ settings: ConfigFile) throws -> UpdatePolicy {
        try mode ?? settings.mode.map { text in
            guard let parsed = UpdatePolicy(modeName: text) else {
                throw CommandFailure(.usage, "config.yaml: '\(text)' is not a valid mode")
            }
            return parsed
        } ?? .error
    }

    /// What the copy did, one line per type, in name order.
    private static func printCounts(_ counts: [String: ChangeCounts]) {
        for type in counts.keys.sorted() {
            print("\(type): \((counts[type] ?? ChangeCounts()).summaryText)")
        }
    }

    /// Runs the copy, with progress on a terminal, and returns what it did per type.
    private static func copy(_ from: Realm, into: Realm, _ options: CopyOptions) throws -> [String: ChangeCounts] {
        var copier = RealmCopier(source: from, destination: into, options: options)
        let progress = ProgressLine(totalBytes: 0)
        copier.onProgress = { progress.update($0) }
        let counts = try copier.run()
        progress.finish()
        return counts
    }
}
