import Testing

// @testable for the parser's stack, whose room is what a wide document costs twice.
@testable import Kura

/// The stack a JSON container's members are built on gives back the room of a large container
/// once it closes, and keeps what is still on it.
@Suite struct JSONNodeStackTests {
    @Test func aLargeContainerGivesBackItsRoom() {
        let stack = JSONNodeStack<Int>()
        for value in 0..<100_000 { stack.push(value) }
        let popped = stack.popArray(from: 0)
        #expect(popped == Array(0..<100_000))
        #expect(stack.count == 0)
        #expect(stack.capacity == JSONNodeStack<Int>.keptCapacity)
    }

    @Test func whatRemainsBelowALargeContainerStays() {
        let stack = JSONNodeStack<String>()
        for value in 0..<10 { stack.push("outer \(value)") }
        for value in 0..<50_000 { stack.push("inner \(value)") }
        #expect(stack.popArray(from: 10).count == 50_000)
        #expect(stack.capacity == JSONNodeStack<String>.keptCapacity)
        #expect(stack.popArray(from: 0) == (0..<10).map { "outer \($0)" })
    }

    /// A small container leaves the stack's room alone: no reallocation per document.
    @Test func smallContainersKeepTheRoom() {
        let stack = JSONNodeStack<Int>()
        for value in 0..<3_000 { stack.push(value) }
        let room = stack.capacity
        #expect(stack.popArray(from: 0).count == 3_000)
        #expect(stack.capacity == room)
    }
}
