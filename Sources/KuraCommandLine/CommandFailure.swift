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
        case let error as SchemaError:
            return exit(error.code == .unreadableFile ? .inputMissing : .badData, error.description)
        case let error as StoreError:
            return exit(code(for: error), error.description)
        case let error as MappingErrors:
            return exit(.badData, error.description)
        case let error as TransferError:
            return exit(error.code == .usage ? .usage : .badData, error.description)
        case let error as CheckError:
            return exit(code(for: error), error.description)
        case let error as MigrationError:
            return exit(.badData, error.description)
        case let error as QueryError:
            return exit(.usage, error.description)
        case let error as DocumentError:
            return exit(error.code == .io || error.code == .outputClosed ? .io : .badData, error.description)
        default:
            return error
        }
    }

    /// What a writing command's options can do about `error`: a primary key that exists, a date or
    /// data value written as a plain string.
    static func writeHint(for error: any Error) -> String? {
        let store = (error as? StoreError) ?? ((error as? TransferError)?.underlying as? StoreError)
        if store?.code == .duplicatePrimaryKey {
            return "give --skip-existing to leave the objects already there, or --mode update to update them"
        }
        let mapping = (error as? MappingErrors)?.errors ?? ((error as? TransferError)?.underlying as? MappingErrors)?.errors ?? []
        if mapping.contains(where: { $0.message.hasPrefix("expected date, found string") }) {
            return "give --date-strategy iso8601 (or dateStrategy in config.yaml) to read ISO-8601 strings as dates"
        }
        if mapping.contains(where: { $0.message.hasPrefix("expected data, found string") }) {
            return "give --data-strategy base64 (or dataStrategy in config.yaml) to read base64 strings as data"
        }
        return nil
    }

    private static func code(for error: StoreError) -> Code {
        switch error.code {
        case .openFailed, .database: .io
        case .corruptRealm: .internal
        default: .badData
        }
    }

    private static func code(for error: CheckError) -> Code {
        switch error.code {
        case .fileMissing: .inputMissing
        case .notARealm: .badData
        case .unreadable: .io
        }
    }

    private static func exit(_ code: Code, _ text: String) -> ExitCode {
        FileHandle.standardError.write(Data("kura: \(text)\n".utf8))
        return ExitCode(code.rawValue)
    }
}

/// File existence checks for the commands.
enum FileManagerProbe {
    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}
