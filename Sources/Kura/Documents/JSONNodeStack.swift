/// A stack of finished child values for the parser's open containers.
///
/// Closing a container moves its children into an exactly sized array, with no reference-count
/// traffic and no over-allocation; `Array` cannot drop moved-from elements, hence the manual memory.
final class JSONNodeStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    /// The number of elements on the stack.
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Pushes an element.
    @inline(__always)
    func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
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
        for offset in 0..<n { array.append((source + offset).move()) }
        count = start
        if capacity > Self.keptCapacity && count < capacity / 4 { shrink() }
        return array
    }

    /// The most room kept after a large container closes: beyond it, room left unused by what
    /// remains is given back, so a container of a million members is not held twice (its array
    /// and the stack it was built on) while its document is mapped and written.
    static var keptCapacity: Int { 1 << 12 }

    private func shrink() {
        let smaller = max(Self.keptCapacity, count * 2)
        let moved = UnsafeMutablePointer<Element>.allocate(capacity: smaller)
        moved.moveInitialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = smaller
    }

    /// Empties the stack, keeping its memory.
    func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    private func grow() {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }
}
