/// The index changes between two versions of a result list, by Realm's rules: deletions are
/// indexes in the old list, insertions and modifications indexes in the new one. An object kept
/// whose order relative to the others changed counts as moved: a deletion and an insertion. The
/// objects kept in place are the longest run that kept its relative order (of equally long runs,
/// the one that came first in the old list); a modified object counts as modified only if kept
/// in place.
struct CollectionDiff: Equatable {
    var deletions: [Int] = []
    var insertions: [Int] = []
    var modifications: [Int] = []

    var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }

    init(deletions: [Int] = [], insertions: [Int] = [], modifications: [Int] = []) {
        self.deletions = deletions
        self.insertions = insertions
        self.modifications = modifications
    }

    /// The changes from `old` to `new`, lists of object ids, given which ids were modified.
    init(old: [Int64], new: [Int64], modified: Set<Int64>) {
        var oldIndex: [Int64: Int] = [:]
        oldIndex.reserveCapacity(old.count)
        for (index, id) in old.enumerated() { oldIndex[id] = index }
        // The kept objects in new order, each with its old index.
        var kept: [(newIndex: Int, oldIndex: Int)] = []
        var newIds = Set<Int64>()
        newIds.reserveCapacity(new.count)
        for (index, id) in new.enumerated() {
            newIds.insert(id)
            if let before = oldIndex[id] { kept.append((index, before)) } else { insertions.append(index) }
        }
        for (index, id) in old.enumerated() where !newIds.contains(id) { deletions.append(index) }
        let inPlace = Self.longestIncreasingRun(kept.map(\.oldIndex))
        for (position, entry) in kept.enumerated() {
            if inPlace.contains(position) {
                if modified.contains(new[entry.newIndex]) { modifications.append(entry.newIndex) }
            } else {
                deletions.append(entry.oldIndex)
                insertions.append(entry.newIndex)
            }
        }
        deletions.sort()
        insertions.sort()
    }

    /// The positions of a longest strictly increasing subsequence of `values` (patience sorting,
    /// O(n log n)); of equally long ones, the one whose values are smallest.
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        // Already in order, the common case: every position.
        if zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) { return Set(values.indices) }
        var tails: [Int] = []  // positions: tails[k] ends the best run of length k + 1
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run = Set<Int>()
        var position = tails.last ?? -1
        while position >= 0 {
            run.insert(position)
            position = previous[position]
        }
        return run
    }
}
