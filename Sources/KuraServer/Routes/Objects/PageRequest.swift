import Kura

/// What a client asks of `GET …/objects/{type}`: a predicate, a sort, a page size, a cursor, and whether
/// nested objects carry their URLs.
struct PageRequest: Sendable {
    /// The `where` predicate, or `nil` for every object.
    let predicate: String?
    /// The values of its `$0`, `$1` … (`args`), and the JSON text they came as, for the next page's link.
    var arguments: [Value] = []
    var argumentsText: String?
    /// The `sort` keys (as `kura export --sort` takes them), or `nil` for primary-key order.
    let sort: String?
    /// Objects per page (1 to 1000).
    let limit: Int
    /// The cursor of the previous page's `next` link, or `nil` for the first page.
    let after: String?
    /// Whether each nested object without a primary key carries its URL under `"$url"`.
    var nestedURLs = false
}
