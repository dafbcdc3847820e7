import Foundation
import KuraTestSupport
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

    /// A slot holds a type index, an inline integer or string key, a path code and a packed
    /// position, not a type name, a `Value`, a path string and a `TextPosition`: at most 56 bytes
    /// (it was 128, then 72), which a pending reference pays about twice over in a table's spare room.
    @Test func anEntryIsCompact() {
        #expect(MemoryLayout<ReferenceScope.SlotKey>.stride + MemoryLayout<ReferenceScope.Slot>.stride <= 56)
    }

    /// A path comes back byte for byte from its code, whatever its digits: a number with a
    /// leading zero or too many digits, none at all, digits in other scripts, an empty path.
    @Test func aPathReadsBackAsItWasGiven() {
        var paths = ReferencePaths()
        let given = [
            "$[0]", "$[12].next", "$[13].next", "$[12].dogs[2].toy", "$[007].next", "$[999999999].x", "$[4294967296].x",
            "$[12345678901234567890].x", "Keyed", "", "名前[3].友達", "$[٣].next", "a1b2c3", "0", "00", "source object Keyed(5)",
        ]
        let codes = given.map { paths.code($0) }
        #expect(codes.map(paths.path) == given)
        // The paths of one shape share a template.
        #expect(codes[1].template == codes[2].template)
        #expect(codes[1].number == 12 && codes[2].number == 13)
    }

    /// Past the last template a scope keeps, paths are kept whole, and still read back.
    @Test func pathsBeyondTheTemplatesAreKeptWhole() {
        var paths = ReferencePaths()
        let given = (0..<(ReferencePaths.maxTemplates + 100)).map { "$[0].friends[\($0)]" }
        let codes = given.map { paths.code($0) }
        #expect(codes.last?.template == ReferencePaths.wholeTemplate)
        #expect(codes.map(paths.path) == given)
    }

    /// What goes in comes back out: the type, the path and the position, also one whose line
    /// does not fit in 32 bits.
    @Test func anEntryReadsBackAsItWasSet() {
        let scope = ReferenceScope()
        let far = TextPosition(line: Int(UInt32.max) + 5, column: 3, offset: 1 << 40)
        let near = TextPosition(line: 12, column: 1, offset: 345)
        let keyed = ReferenceScope.Key(type: "Keyed", key: .int(9))
        scope.set(keyed, .reserved(ObjectRef(type: "Keyed", id: 4), path: "$[3].next", position: far))
        scope.set(.init(id: .string("a")), .reserved(ObjectRef(type: "Named", id: 7), path: "$[5].next", position: near))
        scope.set(.init(id: .string("b")), .reserved(ObjectRef(type: "Named", id: 8), path: "$[6].next", position: nil))
        scope.set(.init(id: .string("c")), .defined(ObjectRef(type: "Named", id: 9), path: "$[7]"))
        #expect(scope[keyed] == .reserved(ObjectRef(type: "Keyed", id: 4), path: "$[3].next", position: far))
        #expect(scope[.init(id: .string("a"))] == .reserved(ObjectRef(type: "Named", id: 7), path: "$[5].next", position: near))
        #expect(scope[.init(id: .string("b"))] == .reserved(ObjectRef(type: "Named", id: 8), path: "$[6].next", position: nil))
        #expect(scope[.init(id: .string("c"))] == .defined(ObjectRef(type: "Named", id: 9), path: "$[7]"))
        #expect(scope[.init(type: "Named", key: .int(9))] == nil)
        #expect(scope[.init(type: "Other", key: .int(9))] == nil)
        // A column past the packed 24 bits, and an offset past 40, are kept aside too.
        let wideColumn = TextPosition(line: 2, column: 1 << 24, offset: 17)
        let farOffset = TextPosition(line: 2, column: 4, offset: (1 << 40) + 7)
        scope.set(.init(id: .string("d")), .reserved(ObjectRef(type: "Named", id: 11), path: "$[9].next", position: wideColumn))
        scope.set(.init(id: .string("e")), .reserved(ObjectRef(type: "Named", id: 12), path: "$[10].next", position: farOffset))
        #expect(scope[.init(id: .string("d"))] == .reserved(ObjectRef(type: "Named", id: 11), path: "$[9].next", position: wideColumn))
        #expect(scope[.init(id: .string("e"))] == .reserved(ObjectRef(type: "Named", id: 12), path: "$[10].next", position: farOffset))
        scope.set(.init(id: .string("d")), nil)
        scope.set(.init(id: .string("e")), nil)
        #expect(scope.firstUnresolved?.message == "$[3].next: no Keyed with primary key 9 in the realm or this input")
        #expect(scope.firstUnresolved?.position == far)
        #expect(scope.unresolved.count == 3)
        // A key neither integer nor string is kept too, and compared by its exact value.
        let dated = ReferenceScope.Key(id: .double(1.5))
        scope.set(dated, .defined(ObjectRef(type: "Named", id: 10), path: "$[8]"))
        #expect(scope[dated] == .defined(ObjectRef(type: "Named", id: 10), path: "$[8]"))
        #expect(scope[.init(id: .double(2.5))] == nil)
        #expect(scope[.init(id: .int(1))] == nil)
    }
}
