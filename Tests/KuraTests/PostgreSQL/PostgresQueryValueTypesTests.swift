import Foundation
import KuraTestSupport
import Testing

@testable import Kura

/// Predicates and sort keys on every scalar kind (decimals, object ids, UUIDs, data, floats),
/// collections of scalars and of mixed values, maps of objects and backlinks: the same objects in
/// the same order on a SQLite realm and on its copy in PostgreSQL.
@Suite(.serialized) struct PostgresQueryValueTypesTests {
    static let firstCode = "507f1f77bcf86cd799439011"
    static let firstTag = "6F9619FF-8B86-D011-B42D-00C04FC964FF"

    static let mirror = Result { () throws -> PostgresQueryMirror in
        let path = try Fixtures.realmPath()
        let realm = try Realm(path: path, schema: try Schema(yaml: QueryValueTypesTests.schema))
        let codes = try ["507f1f77bcf86cd799439011", "507f1f77bcf86cd799439012"].map { hex in
            guard let code = ObjectId(hex: hex) else { throw QuerySuiteFailure("bad object id \(hex)") }
            return Value.objectId(code)
        }
        guard let tag = UUID(uuidString: firstTag) else { throw QuerySuiteFailure("bad UUID") }
        let prices = ["1.50", "10", "9.99", "NaN", "-0", "1e3"].map { Decimal128($0).map(Value.decimal) ?? .null }
        try realm.write {
            let part = try realm.create("Part", value: ["label": "p1"])
            let spare = try realm.create("Part", value: ["label": "Ṕ2"])
            try realm.create("Gadget", value: [
                "name": "one", "flag": true, "ratio": 0.5, "weight": .float(0.1), "price": prices[0], "code": codes[0],
                "tag": .uuid(tag), "blob": .data(Data("abc".utf8)), "scores": [1, 2, 3], "labels": ["x", nil],
                "things": [1, "two", 3.5, .decimal(Decimal128("2.5") ?? Decimal128(0))], "parts": ["a": .object(part.ref)],
                "favorite": .object(spare.ref),
            ])
            try realm.create("Gadget", value: [
                "name": "two", "flag": false, "ratio": 2.0, "weight": .float(2.5), "price": prices[1], "code": codes[1],
                "tag": .uuid(UUID()), "blob": .data(Data("xyz".utf8)), "things": [true], "favorite": .object(spare.ref),
            ])
            try realm.create("Gadget", value: [
                "name": "three", "flag": false, "ratio": -1.0, "weight": .float(0), "price": prices[2], "scores": [5],
                "labels": ["y"], "parts": ["b": nil],
            ])
            for (index, price) in prices.enumerated().dropFirst(3) {
                try realm.create("Gadget", value: [
                    "name": .string("Ö\(index)"), "flag": true, "ratio": .double(-0.0), "weight": .float(7), "price": price,
                    "things": ["x\u{0}y", .date(Date(timeIntervalSince1970: Double(index))), nil], "labels": ["ÉCOLE", "école"],
                ])
            }
        }
        return try PostgresQueryMirror(realmPath: path, catalog: realm.catalog, label: "values")
    }

    static let predicates: [String] = [
        "flag == true", "flag != true", "flag IN {false}", "ratio > 1", "ratio < 0", "ratio == 0", "ratio BETWEEN {-1, 0.5}",
        "weight == 0.1", "weight >= 2", "price == 1.5", "price != 1.500", "price > 9.5", "price < 10", "price IN {10.0, 2}",
        "price IN {10.0, 2, 1.5, 1000}", "price == nil", "price BETWEEN {1, 10}", "price == 0", "price >= -1",
        "code == oid(\(firstCode))", "code > oid(\(firstCode))", "code == nil", "tag == uuid(\(firstTag.lowercased()))", "tag != nil",
        "blob == 'abc'", "blob BEGINSWITH 'xy'", "blob ENDSWITH 'bc'", "blob CONTAINS 'b'", "blob == nil", "blob.@count == 3",
        "name BEGINSWITH 'o'", "name ENDSWITH 'e'", "name CONTAINS[c] 'Ö'", "name ==[cd] 'o3'", "name LIKE '?3'", "name.@count == 3",
        "ANY scores > 2", "ALL scores > 2", "NONE scores == 5", "scores.@count == 0", "scores.@sum > 5", "scores.@avg == 2",
        "scores.@min == 1", "scores.@max >= 5", "scores[0] == 1", "scores[LAST] == 5",
        "ANY labels == nil", "ANY labels ==[c] 'Y'", "ANY labels ==[cd] 'ecole'", "ANY labels BEGINSWITH[c] 'éc'",
        "ANY things == 'two'", "ANY things == true", "ANY things > 3", "ANY things == 1.0", "ANY things == 2.5", "ANY things < 2",
        "things.@count >= 1", "things.@sum > 5", "things.@avg > 1", "ANY things.@type == 'string'", "ANY things.@type == 'date'",
        "ANY things == nil", "ANY things CONTAINS 'w'",
        "parts.@count == 1", "ANY parts.label == 'p1'", "ANY parts.@values.label BEGINSWITH 'p'", "ANY parts.@keys == 'b'",
        "parts['a'].label == 'p1'", "ratio / 0 > 1", "NOT (ratio / 0 > 1)", "scores.@count / 0 > 1", "ratio * 2 + 1 > 1.5", "favorite.label ==[cd] 'p2'", "favorite == nil", "price.@type == 'decimal'",
    ]

    @Test(arguments: predicates)
    func gadgetsMatchAsOnSQLite(_ predicate: String) throws {
        guard PostgresTestServer.isReady() else { return }
        let ids = try Self.mirror.get().ids("Gadget", where: predicate)
        #expect(ids.postgres == ids.sqlite, "\(predicate)")
    }

    @Test(arguments: ["holders.@count > 0", "favoredBy.@count == 2", "@links.@count > 0", "ANY holders.name == 'one'", "label LIKE[c] 'ṕ*'"])
    func partsMatchAsOnSQLite(_ predicate: String) throws {
        guard PostgresTestServer.isReady() else { return }
        let ids = try Self.mirror.get().ids("Part", where: predicate)
        #expect(ids.postgres == ids.sqlite, "\(predicate)")
    }

    @Test(arguments: [
        "price", "price DESC", "code", "code DESC", "ratio", "ratio DESC", "weight", "tag", "blob", "blob DESC", "name DESC",
        "scores.@sum", "scores.@sum DESC", "favorite.label",
    ])
    func gadgetsSortAsOnSQLite(_ sort: String) throws {
        guard PostgresTestServer.isReady() else { return }
        let ids = try Self.mirror.get().ids("Gadget", where: "TRUEPREDICATE", sortedBy: sort)
        #expect(ids.postgres == ids.sqlite, "sorted by \(sort)")
    }

    /// SORT, DISTINCT and LIMIT in the text: the chain of steps, ties and nulls as on SQLite.
    @Test(arguments: [
        "TRUEPREDICATE SORT(price DESC) LIMIT(3)", "TRUEPREDICATE DISTINCT(flag)", "TRUEPREDICATE SORT(ratio ASC) DISTINCT(flag) LIMIT(2)",
        "flag == false SORT(name DESC)", "TRUEPREDICATE DISTINCT(price) SORT(price ASC)",
    ])
    func descriptorsApplyAsOnSQLite(_ predicate: String) throws {
        guard PostgresTestServer.isReady() else { return }
        let ids = try Self.mirror.get().ids("Gadget", where: predicate)
        #expect(ids.postgres == ids.sqlite, "\(predicate)")
    }
}
