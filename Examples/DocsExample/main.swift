// The DocC catalog's Swift samples (Sources/Kura/Kura.docc), run one article after another in the
// folder given as the argument, or in a new temporary folder. Run by DocsExampleTests.
import Foundation

let folder = CommandLine.arguments.dropFirst().first
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("kura-docs-\(UUID().uuidString)").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
guard FileManager.default.changeCurrentDirectoryPath(folder) else {
    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: folder])
}

print("# Kura"); try landingPage()
print("# GettingStarted"); try gettingStarted()
print("# ModelsAndSchema"); try modelsAndSchema()
print("# DocumentsAndTheStrictRules"); try documents()
print("# ImportExportAndCopy"); try importExportAndCopy()
print("# Queries"); try queries()
print("# Migrations"); try migrations()
print("# Concurrency"); try await concurrency()
print("# ObservingChanges"); try await observingChanges()
