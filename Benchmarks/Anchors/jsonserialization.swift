// Anchor for the parse-and-map benchmark: Foundation's JSONSerialization on the whole file.
// Reads FILE into memory, parses it with JSONSerialization.jsonObject, counts the top-level array's
// elements, and prints a line like kura-probe map's:
//
//   documents=N unknownKeys=0 errors=0 bytes=B seconds=S
//
// S is measured on a monotonic clock around reading and parsing. Build: swiftc -O jsonserialization.swift
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("jsonserialization: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else { fail("usage: jsonserialization FILE") }

let clock = ContinuousClock()
let start = clock.now
let data: Data
let parsed: Any
do {
    data = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
    parsed = try JSONSerialization.jsonObject(with: data)
} catch {
    fail("\(error)")
}
guard let array = parsed as? [Any] else { fail("the top-level value is not an array") }
let documents = array.count
let elapsed = start.duration(to: clock.now)
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("documents=\(documents) unknownKeys=0 errors=0 bytes=\(data.count) seconds=\(String(format: "%.4f", seconds))")
