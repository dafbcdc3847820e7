// The libFuzzer target Scripts/fuzz.sh builds: every input goes through the JSON reader (array and
// lines layouts), the YAML reader and the mapper against the samples schema. libFuzzer reports
// crashes, AddressSanitizer memory errors and slow inputs; FuzzTests checks the finer invariants.
import Foundation
import Kura

/// The samples schema, from KURA_FUZZ_SCHEMA (set by the script).
let fuzzSchema: Schema? = ProcessInfo.processInfo.environment["KURA_FUZZ_SCHEMA"].flatMap { try? Schema(contentsOfFile: $0) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let schema = fuzzSchema else { fatalError("KURA_FUZZ_SCHEMA must name a schema file") }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    let readers: [any DocumentReader] = [
        JSONReader(bytes: bytes, file: "f", layout: .array),
        JSONReader(bytes: bytes, file: "f", layout: .lines),
        YAMLReader(bytes: bytes, file: "f"),
    ]
    let mapper = DocumentMapper(schema: schema, file: "f")
    for reader in readers {
        var documents = 0
        while documents < 1000, let node = try? reader.next() {
            documents += 1
            let type = DocumentMapper.declaredType(of: node) ?? "Dog"
            if let mapped = try? mapper.map(node, as: type) {
                let writer = DocumentWriter(schema: schema, format: .yaml, output: DocumentOutput())
                try? writer.write(mapped.value, as: type)
            }
        }
    }
    return 0
}
