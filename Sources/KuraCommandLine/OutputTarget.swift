import Foundation
import Kura

/// A file a command writes (an export, a rejects file), checked before anything is read or written
/// against the files the command reads or must not touch, by file identity (device and inode), not
/// by name.
///
/// A regular file (or a path not there yet) is written beside its final path under a hidden
/// temporary name and moved there only when complete, so a failed or interrupted command leaves no
/// half file and keeps the earlier one; a symbolic link is followed and its target replaced. A
/// character or block device or a FIFO (`/dev/stdout`, `/dev/null`, a named pipe) is written
/// directly. Any other kind of file (a folder, a socket) is refused.
final class OutputTarget {
    /// A file the output may not be, and what it is to the command (for the message).
    struct Protected {
        let path: String
        let what: String
    }

    /// The path as given, for messages.
    let path: String
    /// What the output is, for messages: "the export", "rejects".
    let role: String
    /// The path written: `path` with symbolic links followed.
    private let finalPath: String
    /// The existing file's status, when there is one.
    private let existing: stat?
    /// The temporary file while it is being written.
    private var temporaryPath: String?

    /// Checks `path` against `protecting`; throws a usage error if it is one of them or cannot be
    /// written as an output.
    init(path: String, role: String, protecting: [Protected]) throws {
        self.path = path
        self.role = role
        finalPath = try Self.followLinks(path, role: role)
        var info = stat()
        existing = stat(finalPath, &info) == 0 ? info : nil
        if let folder = RealmPaths.missingFolder(of: finalPath) {
            throw CommandFailure(.io, "cannot write \(role) to '\(path)': no folder '\(folder)'")
        }
        if let existing {
            switch existing.st_mode & S_IFMT {
            case S_IFREG, S_IFCHR, S_IFBLK, S_IFIFO: break
            case S_IFDIR: throw refusal("it is a folder")
            case S_IFSOCK: throw refusal("it is a socket")
            default: throw refusal("it is not a regular file, a device or a FIFO")
            }
        }
        if let clash = Self.clash(finalPath, existing, protecting) { throw refusal("it is \(clash.what) '\(clash.path)'") }
    }

    /// The files of the realm at `realmPath` that no output may be: the realm, its log and its
    /// shared-memory file (also while they do not exist: SQLite would take such a file as its own).
    static func realmFiles(_ realmPath: String) -> [Protected] {
        guard RealmPaths.isFile(realmPath) else { return [] }
        return [Protected(path: realmPath, what: "the realm")]
            + ["-wal", "-shm", "-journal"].map { Protected(path: realmPath + $0, what: "a file of the realm") }
    }

    /// The file of `protecting` that `path` is, if any, by identity (links followed).
    static func clashing(_ path: String, as role: String, with protecting: [Protected]) throws -> Protected? {
        let resolved = try followLinks(path, role: role)
        var info = stat()
        return clash(resolved, stat(resolved, &info) == 0 ? info : nil, protecting)
    }

    private func refusal(_ reason: String) -> CommandFailure {
        CommandFailure(.usage, "cannot write \(role) to '\(path)': \(reason)")
    }

    /// Opens the output: the device or FIFO itself, or a new temporary file beside the final path.
    func open() throws -> DocumentOutput {
        if let existing, (existing.st_mode & S_IFMT) != S_IFREG {
            let fd = Foundation.open(finalPath, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw failure("cannot open", errno) }
            return DocumentOutput(descriptor: fd, name: path)
        }
        let folder = (finalPath as NSString).deletingLastPathComponent
        let base = (finalPath as NSString).lastPathComponent
        for _ in 0..<100 {
            let candidate = (folder.isEmpty ? "" : folder + "/") + ".\(base).kura-\(String(UInt32.random(in: .min ... .max), radix: 16))"
            var code: Int32 = 0
            let created = InterruptTrap.creatingTemporaryFile {
                let fd = Foundation.open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                code = errno
                return fd < 0 ? nil : (fd, candidate)
            }
            guard let fd = created?.descriptor else {
                if code == EEXIST { continue }
                throw failure("cannot create a file beside", code)
            }
            temporaryPath = candidate
            if let existing {
                // The new file takes the place of the old one: it keeps its permissions and owner.
                _ = fchmod(fd, existing.st_mode & 0o7777)
                if geteuid() == 0 { _ = fchown(fd, existing.st_uid, existing.st_gid) }
            }
            return DocumentOutput(descriptor: fd, name: path)
        }
        throw failure("cannot create a file beside", EEXIST)
    }

    /// Moves the complete temporary file to the final path (the output must be closed).
    func commit() throws {
        guard let temporaryPath else { return }
        // On disk before it replaces the old file, so a crash leaves one or the other, whole.
        let fd = Foundation.open(temporaryPath, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            _ = close(fd)
        }
        guard rename(temporaryPath, finalPath) == 0 else {
            let code = errno
            discard()
            throw failure("cannot move the finished file to", code)
        }
        InterruptTrap.forget(temporaryPath)
        self.temporaryPath = nil
    }

    /// Removes the temporary file, if one was made.
    func discard() {
        guard let temporaryPath else { return }
        unlink(temporaryPath)
        InterruptTrap.forget(temporaryPath)
        self.temporaryPath = nil
    }

    private func failure(_ what: String, _ code: Int32) -> CommandFailure {
        CommandFailure(.io, "cannot write \(role) to '\(path)': \(what) '\(finalPath)': \(String(cString: strerror(code)))")
    }

    /// `path` with every symbolic link on its last component followed, at most 40 deep.
    private static func followLinks(_ path: String, role: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = target.hasPrefix("/") ? target : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
        }
        throw CommandFailure(.usage, "cannot write \(role) to '\(path)': too many symbolic links")
    }

    /// The protected file `path` is: the same device and inode when both exist, else the same
    /// place (folder resolved, same name).
    private static func clash(_ path: String, _ info: stat?, _ protecting: [Protected]) -> Protected? {
        let place = canonical(path)
        for file in protecting {
            var other = stat()
            if stat(file.path, &other) == 0 {
                if let info, info.st_dev == other.st_dev && info.st_ino == other.st_ino { return file }
            } else if info == nil, let place, place == canonical(file.path) {
                return file
            }
        }
        return nil
    }

    /// The absolute path of `path`'s folder, links resolved, followed by its name.
    private static func canonical(_ path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        guard let resolved = realpath(folder.isEmpty ? "." : folder, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved) + "/" + (path as NSString).lastPathComponent
    }
}
