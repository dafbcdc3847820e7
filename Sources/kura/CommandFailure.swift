import ArgumentParser
import Foundation
import Kura

/// A failure of a command, with the exit code of SPEC §4.
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

    /// Runs a command body, printing any error as one line on standard error and exiting with its code.
    static func report(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as CommandFailure {
            throw exit(failure.code, failure.description)
        } catch let error as SchemaError {
            throw exit(error.code == .unreadableFile ? .inputMissing : .badData, error.description)
        } catch let error as StoreError {
            throw exit(code(for: error), error.description)
        } catch let error as MappingErrors {
            throw exit(.badData, error.description)
        } catch let error as TransferError {
            throw exit(error.code == .usage ? .usage : .badData, error.description)
        } catch let error as CheckError {
            throw exit(code(for: error), error.description)
        } catch let error as MigrationError {
            throw exit(.badData, error.description)
        } catch let error as QueryError {
            throw exit(.usage, error.description)
        } catch let error as DocumentError {
            throw exit(error.code == .io || error.code == .outputClosed ? .io : .badData, error.description)
        }
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
