/// What a client asks of `GET …/objects/{type}`: a predicate, a sort, a page size and a cursor.
struct PageRequest: Sendable {
    /// The `where` predicate, or `nil` for every object.
    let predicate: String?
    /// The `sort` keys, or `nil` for primary-key order.
    let sort: String?
    /// Objects per page (1 to 1000).
    let limit: Int
    /// The key of the previous page's last object, or `nil` for the first page.
    let after: String?

    init(predicate: String?, sort: String?, limit: Int, after: String?) throws(Problem) {
        if sort != nil {
            // Pages follow the primary key so that a cursor stays right while objects are inserted;
            // a sorted selection is one export away.
            throw Problem.badParameter("sort is not taken here: pages follow the primary key; use …/export?type=T&sort=… for a sorted selection")
        }
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
        self.after = after
    }
}
