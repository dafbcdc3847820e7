import Foundation
import Testing

// @testable for the scope's entries and undo marks, which hold what a pending reference costs.
@testable import Kura

/// A reference waiting for a later document holds one entry in its scope and nothing more: the
/// entry goes once a link by primary key finds its object, and a transaction that is only ever
/// undone whole keeps no journal of the scope's changes.
@Suite struct ReferenceScopeSizeTests {
    static let schema = """
        types:
          Keyed:
            primaryKey: id
            properties:
              id: int
              next: Keyed?
          Named:
            properties:
              label: string
              next: Named?
        """

    let realm: Realm

    init() throws {
        realm = try Realm(path: try Fixtures.realmPath(), schema: try Schema(yaml: Self.schema))
    }

    /// Keyed objects 1...count, each linking by primary key to the next (written after it).
    func writeForwardChain(count: Int, in scope: ReferenceScope) throws {
        for id in 1...count {
            let next: Value = id < count ? .int(Int64(id + 1)) : .null
            try realm.create("Keyed", value: ["id": .int(Int64(id)), "next": next], references: scope, path: "$[\(id - 1)]")
        }
    }

    @Test func aResolvedLinkByPrimaryKeyLeavesNoEntry() throws {
        let scope = ReferenceScope()
        try realm.write {
            try writeForwardChain(count: 50, in: scope)
            #expect(scope.entries.isEmpty)
            #expect(scope.isResolved)
        }
        let first = try #require(try realm.object(ofType: "Keyed", forPrimaryKey: 1))
        #expect(try first["next"] == .object(try #require(try realm.object(ofType: "Keyed", forPrimaryKey: 2)).ref))
    }

    @Test func aTransactionUndoneOnlyWholeKeepsNoJournal() throws {
        let scope = ReferenceScope()
        struct Abandon: Error {}
        #expect(throws: Abandon.self) {
            try realm.write {
                try realm.requireTransaction().savepointsPerChange = false
                try writeForwardChain(count: 50, in: scope)
                for index in 1...20 {
                    let value: Value = ["$id": .string("n\(index)"), "label": "x", "next": ["$ref": .string("n\(index + 1)")]]
                    try realm.create("Named", value: value, references: scope, path: "$[\(index)]")
                }
                #expect(scope.mark == 0)
                #expect(scope.entries.count == 21)
                #expect(!scope.isResolved)
                throw Abandon()
            }
        }
        // Rolled back whole: the scope is as it was, empty.
        #expect(scope.entries.isEmpty)
        #expect(scope.isResolved)
        #expect(try realm.count("Keyed") == 0)
    }

    @Test func aFailedChangeStillUndoesItsOwnEntries() throws {
        let scope = ReferenceScope()
        try realm.write {
            try realm.create("Named", value: ["$id": "a", "label": "x", "next": ["$ref": "b"]], references: scope, path: "$[0]")
            #expect(throws: (any Error).self) {
                try realm.create("Named", value: ["$id": "c", "next": ["$ref": "d"]], references: scope, path: "$[1]")
            }
            // The failed change's "$id" and reference are gone; the first change's stay.
            #expect(Set(scope.entries.keys.map(\.value)) == ["a", "b"])
            try realm.create("Named", value: ["$id": "b", "label": "y"], references: scope, path: "$[2]")
        }
        #expect(scope.isResolved)
        #expect(scope.mark == 0)
    }
}
