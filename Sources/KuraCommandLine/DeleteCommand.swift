import ArgumentParser
import Kura
import KuraClient

/// `kura delete [REALM] --type T [--where EXPR]`: deletes the objects of one type, atomically.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete the objects of one type that match a predicate (every object of the type without --where).",
        discussion: """
            --where takes a predicate in Realm Query Language: comparisons (== != < <= > >=) with values \
            or other key paths, AND OR NOT, BEGINSWITH CONTAINS ENDSWITH LIKE with [c], [d] or [cd], \
            IN {…}, BETWEEN {a, b}, lists after any operator (age > ALL {1, 2}), key paths through links (favoriteToy.name), ANY/ALL/NONE over lists, \
            sets, maps and backlinks (ANY owners.name == 'Alice', @links.Person.dogs), map['key'], \
            @count, @size, @sum, @avg, @min, @max (dogs.@max.age > 10), @type, \
            SUBQUERY(dogs, $d, $d.age > 3).@count, and LIMIT(n) after the predicate.

            Deleting an object nullifies links to it, removes it from lists, sets and maps, and deletes \
            its embedded objects. Everything happens in one transaction: all or nothing.
            """)

    @OptionGroup var options: RealmOptions

    @OptionGroup var token: TokenOption

    @Option(name: .long, help: "The type of the objects to delete.")
    var type: String

    @Option(name: .customLong("where"), help: "A predicate the objects must match, such as \"age >= 3\".")
    var predicate: String?

    @Flag(name: .customLong("dry-run"), help: "Count the matching objects, delete nothing.")
    var dryRun = false

    func run() throws {
        try CommandFailure.report {
            let realmPath = try options.realmPath(try options.settings())
            if RemoteRealms.names(realmPath) { return try deleteServed(realmPath) }
            try RealmPaths.requireRealm(realmPath)
            let realm = try Realm(configuration: Realm.Configuration(path: realmPath, readOnly: dryRun))
            if dryRun {
                let matching = try realm.count(type, where: predicate)
                print("dry run: nothing was written\n\(type): \(matching) would be deleted")
            } else {
                // The write holds the delete alone and is rolled back whole if it fails.
                let deleted = try realm.write { try realm.deleteRollingBackWhole(type, where: predicate) }
                print("\(type): \(deleted) deleted")
            }
        }
    }

    /// Deletes, or counts under --dry-run, in a served realm: one transaction there.
    private func deleteServed(_ url: String) throws {
        let client = try RemoteRealms.client(url, tokenFile: token.tokenFile)
        let (type, predicate) = (type, predicate)
        if dryRun {
            let matching = try RemoteRealms.wait { try await client.count(type, where: predicate) }
            print("dry run: nothing was written\n\(type): \(matching) would be deleted")
        } else {
            let deleted = try RemoteRealms.wait { try await client.delete(type, where: predicate) }
            print("\(type): \(deleted) deleted")
        }
    }
}
