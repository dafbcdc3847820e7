import Foundation

extension UUID {
    /// The 16 bytes of the UUID in order, as it is stored and compared.
    var bytes: Data {
        withUnsafeBytes(of: uuid) { Data($0) }
    }
}
