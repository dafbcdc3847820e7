/// Decides which object ids one query reads when an object is asked for: the next `size` ids when
/// reads move forward through a type's ids (as an export's do, by creation order), only the id
/// asked for otherwise, so that scattered reads never pay for a block. A run that starts over from
/// a lower id (an export's next pass through a type) reads blocks again from its second id.
struct ReadWindow {
    let size: Int64
    /// The ids read by the last block query.
    private(set) var block: Range<Int64> = 0..<0
    /// The id asked for last.
    private var last: Int64?

    init(size: Int64) {
        self.size = size
    }

    /// The ids to read for `id`, and whether they form the new block; `nil` when the current block
    /// holds `id` already.
    mutating func read(for id: Int64) -> (ids: Range<Int64>, isBlock: Bool)? {
        defer { last = id }
        if block.contains(id) { return nil }
        let end = id < Int64.max - size ? id + size : Int64.max
        let followsBlock = id >= block.upperBound && id - block.upperBound < size
        let followsLast = last.map { id > $0 && id - $0 <= size } ?? false
        if block.isEmpty || followsBlock || followsLast {
            block = id..<end
            return (block, true)
        }
        return (id..<(id < Int64.max ? id + 1 : id), false)
    }
}
