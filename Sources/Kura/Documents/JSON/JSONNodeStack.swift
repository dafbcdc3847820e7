#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A stack of finished child values for the parser's open containers.
///
/// Closing a container moves its children into an exactly sized array, with no reference-count
/// traffic and no over-allocation; `Array` cannot drop moved-from elements, hence the manual memory.
/// A wide container is never held twice: the stack grows in place (`realloc`, which for a large
/// block moves pages rather than bytes) and, as a large container's children move into their
/// array, the stack's pages they leave are given back to the system.
///
/// Elements are moved bitwise when the stack grows, as every Swift value without weak references is.
final class JSONNodeStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    /// The number of elements on the stack.
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        base = Self.reallocate(nil, capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        free(base)
    }

    /// Pushes an element.
    @inline(__always)
    func push(_ element: consuming Element) {
        if count == capacity { resize(to: capacity * 2) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// The element at `index`, below `count`.
    subscript(index: Int) -> Element {
        (base + index).pointee
    }

    /// Pops the elements from `start` on, in order, as an array.
    func popArray(from start: Int) -> [Element] {
        let n = count - start
        guard n > 0 else { return [] }
        let source = base + start
        // Moved one by one into a reserved array: `Array(unsafeUninitializedCapacity:)` ran
        // unspecialized, looking up the array storage's type metadata at run time for every container.
        var array: [Element] = []
        array.reserveCapacity(n)
        // A run's worth of elements at a time, the stack's pages they leave given back after each.
        let run = max(1, Self.releaseRunBytes / MemoryLayout<Element>.stride)
        var moved = 0
        var released = UnsafeMutableRawPointer(source)
        while moved < n {
            let end = moved + min(run, n - moved)
            for offset in moved..<end { array.append((source + offset).move()) }
            if n >= run { released = Self.release(from: released, to: UnsafeMutableRawPointer(source + end)) }
            moved = end
        }
        count = start
        if capacity > Self.keptCapacity && count < capacity / 4 { resize(to: max(Self.keptCapacity, count * 2)) }
        return array
    }

    /// The most room kept after a large container closes: beyond it, room left unused by what
    /// remains is given back, so a container of a million members is not held twice (its array
    /// and the stack it was built on) while its document is mapped and written.
    static var keptCapacity: Int { 1 << 12 }

    /// How many bytes of elements are moved between two releases of the pages they leave.
    static var releaseRunBytes: Int { 1 << 20 }

    /// Empties the stack, keeping its memory.
    func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    private func resize(to newCapacity: Int) {
        base = Self.reallocate(base, capacity: newCapacity)
        capacity = newCapacity
    }

    private static func reallocate(_ pointer: UnsafeMutablePointer<Element>?, capacity: Int) -> UnsafeMutablePointer<Element> {
        let bytes = capacity * MemoryLayout<Element>.stride
        guard let raw = realloc(pointer, bytes) else {
            // As Swift's own allocations do when memory runs out.
            fatalError("out of memory: cannot allocate \(bytes) bytes for a document's nodes")  // safe: only when the system has no memory left, where every Swift allocation traps too
        }
        return raw.bindMemory(to: Element.self, capacity: capacity)
    }

    /// Tells the system that the whole pages between `start` and `end`, whose elements have moved
    /// out, hold nothing: they stop counting towards the process's memory until used again, when
    /// they come back zeroed (nothing reads them before elements are pushed there again). Returns
    /// where the pages released end, the start of the next release.
    private static func release(from start: UnsafeMutableRawPointer, to end: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        #if os(Linux)
        let page = Int(getpagesize())
        let first = (Int(bitPattern: start) + page - 1) / page * page
        let last = Int(bitPattern: end) / page * page
        guard last > first, let pages = UnsafeMutableRawPointer(bitPattern: first) else { return start }
        _ = madvise(pages, last - first, MADV_DONTNEED)
        return pages + (last - first)
        #else
        return end
        #endif
    }
}
