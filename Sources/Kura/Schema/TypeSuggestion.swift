/// What to say about a type name a schema does not have: the closest name it does have, if one is
/// close enough to be a likely typo, and the names there are.
///
/// A name that differs only in case is the closest; otherwise the one at the smallest edit distance
/// (insertions, deletions, substitutions and swaps of neighbours, ignoring case), within a third of
/// the typed name's length (at least 1), ties going to the first in alphabetical order.
package struct TypeSuggestion: Sendable, Equatable {
    /// At most this many names are listed; more are counted.
    static let listedNames = 20

    /// The name that was asked for.
    package let name: String
    /// The names there are, sorted.
    package let names: [String]
    /// The likely intended name, if one is close enough.
    package let closest: String?

    /// The suggestion for `name` among `names`.
    package init(for name: String, among names: [String]) {
        self.name = name
        self.names = names.sorted()
        closest = Self.closest(to: name, among: self.names)
    }

    /// The suggestion for `name` among the types of `schema`; `topLevelOnly` leaves embedded types out.
    package init(for name: String, in schema: Schema, topLevelOnly: Bool = false) {
        self.init(for: name, among: schema.types.filter { !topLevelOnly || !$0.isEmbedded }.map(\.name))
    }

    /// `no type 'Persn' in the realm (did you mean 'Person'? types: Dog, DogToy, Person)`;
    /// `place` names where the type was looked for.
    package func message(in place: String) -> String {
        "no type '\(MessageText.shown(name))' in \(place) (\(hint))"
    }

    /// `did you mean 'Person'? types: Dog, DogToy, Person`, or the listing alone.
    package var hint: String {
        guard !names.isEmpty else { return "there are no types" }
        var listing = names.prefix(Self.listedNames).joined(separator: ", ")
        if names.count > Self.listedNames { listing += " and \(names.count - Self.listedNames) more" }
        guard let closest else { return "types: \(listing)" }
        return "did you mean '\(closest)'? types: \(listing)"
    }

    private static func closest(to name: String, among names: [String]) -> String? {
        let typed = Array(name.lowercased())
        // `names` is sorted, so the first of equals is the alphabetical first.
        if let sameLetters = names.first(where: { Array($0.lowercased()) == typed }) { return sameLetters }
        let allowed = max(typed.count, 3) / 3
        var best: (name: String, distance: Int)?
        for candidate in names {
            let letters = Array(candidate.lowercased())
            // The length difference is a lower bound of the distance: skip what cannot be close.
            guard abs(letters.count - typed.count) <= allowed else { continue }
            let distance = editDistance(typed, letters)
            if distance <= allowed && distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// two neighbours each count 1.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}

extension Schema {
    /// The message for a type `name` this schema does not have, with the closest name it has and
    /// the names of its types: `no type 'Persn' in the realm (did you mean 'Person'? types: …)`.
    package func noTypeMessage(_ name: String, in place: String = "the realm") -> String {
        TypeSuggestion(for: name, in: self).message(in: place)
    }
}
