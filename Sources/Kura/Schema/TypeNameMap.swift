/// A map from object type names to values, for a stream's hot paths: a name is found by comparing
/// the few type names (the one used last first) rather than hashing it for every object; equal names
/// share their storage here, so each comparison is usually one word.
struct TypeNameMap<Element> {
    private var names: [String] = []
    private var elements: [Element] = []
    private var last = 0

    /// The element for `name`, if one was stored.
    func element(_ name: String) -> Element? {
        index(of: name).map { elements[$0] }
    }

    /// Runs `body` on the element for `name` in place, first storing `make()` if there is none.
    mutating func update<Result>(_ name: String, orAdd make: () throws -> Element, _ body: (inout Element) throws -> Result) rethrows -> Result {
        let position: Int
        if let found = index(of: name) {
            position = found
        } else {
            elements.append(try make())
            names.append(name)
            position = names.count - 1
        }
        last = position
        return try body(&elements[position])
    }

    /// Every name and element, in the order they were added.
    var all: [(name: String, element: Element)] {
        Array(zip(names, elements)).map { (name: $0.0, element: $0.1) }
    }

    private func index(of name: String) -> Int? {
        if last < names.count, names[last] == name { return last }
        return names.firstIndex(of: name)
    }
}
