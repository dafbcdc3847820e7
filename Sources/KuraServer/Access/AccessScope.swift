/// What a bearer token may do, each scope including the ones before it.
public enum AccessScope: String, Sendable, Codable, Comparable, CaseIterable {
    /// GET routes.
    case read
    /// Also import, create, update, delete and copy.
    case write
    /// Also migrate.
    case admin

    private var rank: Int {
        switch self {
        case .read: 0
        case .write: 1
        case .admin: 2
        }
    }

    public static func < (lhs: AccessScope, rhs: AccessScope) -> Bool { lhs.rank < rhs.rank }
}
