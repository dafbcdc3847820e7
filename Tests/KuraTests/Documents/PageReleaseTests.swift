#if canImport(Glibc)
import Glibc
#endif
import Foundation
import KuraTestSupport
import Testing

// @testable for `JSONByteSource`, whose release step a test sets small.
@testable import Kura

// A document file is read once: the reader tells the kernel to drop the pages it has read.

/// Writes `size` bytes of JSON Lines to a new file, synced (clean pages are the ones a kernel drops).
private func writeSyncedLines(size: Int) throws -> (url: URL, bytes: [UInt8]) {
    let line = Array("{\"name\": \"Rex\", \"age\": 3, \"citiesVisited\": [\"Oslo\", \"Lima\"]}\n".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size + line.count)
    while bytes.count < size { bytes += line }
    let url = try Fixtures.temporaryDirectory().appendingPathComponent("lines.jsonl")
    try Data(bytes).write(to: url)
    let handle = try FileHandle(forUpdating: url)
    try handle.synchronize()
    try handle.close()
    return (url, bytes)
}

/// Reads the whole source in reads of `chunk` bytes.
private func readThrough(_ source: JSONByteSource, chunk: Int) throws -> [UInt8] {
    var all: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: chunk)
    while true {
        let n = try buffer.withUnsafeMutableBufferPointer { pointer -> Int in
            guard let base = pointer.baseAddress else { return 0 }
            return try source.read(into: base, count: chunk)
        }
        if n == 0 { return all }
        all += buffer[0..<n]
    }
}

@Test func releasingReadPagesKeepsEveryByte() throws {
    let (url, bytes) = try writeSyncedLines(size: 7_000_000)
    let source = try JSONByteSource(path: url.path, releaseStep: 1 << 20)
    #expect(try readThrough(source, chunk: 100_000) == bytes)
    // Released at 2, 4 and 6 MiB: whole multiples of the alignment, however the reads fall.
    #expect(source.releasedUpTo == 6 << 20)
}

@Test func inMemoryBytesAreNeverReleased() throws {
    let bytes = [UInt8](repeating: UInt8(ascii: " "), count: 3 << 20)
    let source = JSONByteSource(bytes: bytes, name: "<input>")
    #expect(try readThrough(source, chunk: 1 << 16).count == bytes.count)
    #expect(source.releasedUpTo == 0)
}

#if os(Linux)
/// How many of the first `length` bytes' pages of `url` are in the page cache, by `mincore`.
private func residentPages(_ url: URL, length: Int) -> Int? {
    let fd = open(url.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    guard let mapping = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0), mapping != MAP_FAILED else { return nil }
    defer { munmap(mapping, length) }
    let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    var vector = [UInt8](repeating: 0, count: (length + pageSize - 1) / pageSize)
    guard mincore(mapping, length, &vector) == 0 else { return nil }
    return vector.filter { $0 & 1 != 0 }.count
}

/// Whether this file system drops a synced file's pages when told (tmpfs, for one, keeps them).
private func dropsCleanPages() -> Bool {
    guard let (url, _) = try? writeSyncedLines(size: 1 << 20) else { return false }
    let fd = open(url.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    _ = read(fd, &buffer, buffer.count)
    _ = posix_fadvise(fd, 0, 1 << 20, POSIX_FADV_DONTNEED)
    return residentPages(url, length: 1 << 20) == 0
}

@Test(.enabled(if: dropsCleanPages(), "the file system keeps pages it is told to drop"))
func readPagesLeaveThePageCache() throws {
    // Written just now, the file's cached pages are in folios of up to 2 MiB.
    let (url, _) = try writeSyncedLines(size: 7_000_000)
    let released = 6 << 20
    let source = try JSONByteSource(path: url.path, releaseStep: 1 << 20)
    _ = try readThrough(source, chunk: 100_000)
    // The releases at 2, 4 and 6 MiB dropped every page up to there.
    #expect(source.releasedUpTo == released)
    #expect(residentPages(url, length: released) == 0)

    // Without a release (a step larger than the file) the pages read stay.
    let keeping = try JSONByteSource(path: url.path, releaseStep: 1 << 30)
    _ = try readThrough(keeping, chunk: 1 << 16)
    #expect(keeping.releasedUpTo == 0)
    #expect((residentPages(url, length: released) ?? 0) > 0)
}
#endif
