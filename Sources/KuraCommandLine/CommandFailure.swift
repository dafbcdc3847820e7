import ArgumentParser
import Foundation
import Kura

/// A failure of a command, with its exit code (docs/commands.md).
struct CommandFailure: Error, CustomStringConvertible {
    /// The sysexits-style exit codes the commands use.
    enum Code: Int32 {
        case usage = 64
        case badData = 65
        case inputMissing = 66
        case `internal` = 70
        case io = 74
    }

    let code: Code
    let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { "error: \(message)" }

    /// Runs a command body, printing any error as one line on standard error and exiting with its
    /// code; `hint` may end the line with what to do about the error, in the command's own options.
    static func report(hint: (any Error) -> String? = { _ in nil }, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            guard let hint = hint(error) else { throw describe(error) }
            throw describe(error, hint: hint)
        }
    }

    /// `error` printed as the commands print it, with `hint` at the end of its line.
    private static func describe(_ error: any Error, hint: String? = nil) -> any Error {
        let exit = { (code: Code, text: String) -> ExitCode in Self.exit(code, hint.map { "\(text); \($0)" } ?? text) }
        switch error {
        case let failure as CommandFailure:
            return exit(failure.code, failure.description)
        case let error as KuraError:
            return exit(exitCode(for: error.code), error.description)
        default:
            return error
        }
    }

    /// What a writing command's options can do about `error`: a primary key that exists, a date or
    /// data value written as a plain string.
    static func writeHint(for error: any Error) -> String? {
        // A transfer error names the document; the cause underneath says what is wrong with it.
        let cause = (error as? KuraError).flatMap { $0.code.domain == .transfer ? $0.underlying as? KuraError : $0 }
        if cause?.code == .store(.duplicatePrimaryKey) {
            return "give --skip-existing to leave the objects already there, or --mode update to update them"
        }
        let mapping = cause.map { $0.code.domain == .mapping ? $0.allErrors : [] } ?? []
        if mapping.contains(where: { $0.message.hasPrefix("expected date, found string") }) {
            return "give --date-strategy iso8601 (or dateStrategy in config.yaml) to read ISO-8601 strings as dates"
        }
        if mapping.contains(where: { $0.message.hasPrefix("expected data, found string") }) {
            return "give --data-strategy base64 (or dataStrategy in config.yaml) to read base64 strings as data"
        }
        return nil
    }

    /// The exit code for each kind of library error: the one table of them.
    static func exitCode(for code: KuraError.Code) -> Code {
        switch code {
        case .schema(.unreadableFile), .check(.fileMissing): .inputMissing
        case .document(.io), .document(.outputClosed), .store(.openFailed), .store(.database), .check(.unreadable): .io
        case .store(.corruptRealm): .internal
        case .query, .transfer(.usage), .remote(.invalidURL), .remote(.unauthorized), .remote(.forbidden): .usage
        case .remote(.noRealm): .inputMissing
        case .remote(.serverFailed): .internal
        case .remote: .io
        case .schema, .document, .mapping, .store, .transfer, .migration, .check: .badData
        }
    }

    private static func exit(_ code: Code, _ text: String) -> ExitCode {
        InterruptTrap.writeError("kura: \(text)\n")
        return ExitCode(code.rawValue)
    }
}

/// File existence checks for the commands.
enum FileManagerProbe {
    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}
