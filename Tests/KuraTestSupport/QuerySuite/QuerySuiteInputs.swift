import Foundation

/// The files every route of the query suite starts from: the schema and the graph's documents.
package struct QuerySuiteInputs: Sendable {
    package let folder: URL
    package var schemaPath: String { folder.appendingPathComponent("schema.yaml").path }
    package var documentsPath: String { folder.appendingPathComponent("graph.json").path }

    /// Writes both files into a new temporary folder.
    package init() throws {
        folder = try Fixtures.temporaryDirectory()
        try QueryGraph.schemaYAML.write(toFile: schemaPath, atomically: true, encoding: .utf8)
        try QueryGraph.generated.documentsJSON.write(toFile: documentsPath, atomically: true, encoding: .utf8)
    }

    /// Runs `kura ARGUMENTS` and throws its standard error when it fails.
    @discardableResult
    package func kura(_ arguments: [String]) throws -> String {
        let result = try Fixtures.run(Fixtures.executable("kura"), arguments, currentDirectory: folder)
        guard result.status == 0 else { throw QuerySuiteFailure("kura \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }
}

package struct QuerySuiteFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
