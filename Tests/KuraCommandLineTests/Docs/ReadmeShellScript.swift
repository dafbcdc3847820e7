import Foundation

/// The commands of a page's ```sh blocks, in order, read with the conventions docs/tour.md states:
/// a line is a command (a trailing `\` continues it), the `#` lines right under a command are what
/// it prints (standard output, then standard error; `…` stands for text that varies, and a line of
/// its own for any lines), `(exit N)` in a command's comment is its exit status (else 0), and
/// `until you stop it` marks a command that runs until stopped. `#` lines after a blank line or
/// at the start of a block are prose.
struct ReadmeShellScript {
    struct Command {
        /// The page's line the command starts on.
        var line: Int
        /// The command as written, continuation lines and comments included (the shell skips them).
        var text: String
        /// The command without its comments, continuation lines joined by spaces.
        var code: String
        /// Its comments, joined.
        var remark: String
        /// The lines the page shows under it; empty when it shows none.
        var output: [String] = []

        /// The exit status the comment gives as `(exit N)`, else 0.
        var exitStatus: Int32 {
            guard let range = remark.range(of: #"\(exit \d+\)"#, options: .regularExpression) else { return 0 }
            return Int32(remark[range].dropFirst(6).dropLast()) ?? 0
        }

        /// Whether the command runs until it is stopped (a server in the background, a stream).
        var runsUntilStopped: Bool { remark.contains("until you stop it") }

        /// Whether the command is started in the background (`… &`).
        var isBackground: Bool { code.hasSuffix("&") && !code.hasSuffix("&&") }
    }

    private(set) var commands: [Command] = []

    init(markdown: String) {
        var inBlock = false
        var current: Command?
        var continues = false
        var takesOutput = false
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !inBlock {
                inBlock = trimmed == "```sh"
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.isEmpty {
                if let done = current { commands.append(done) }
                current = nil
                continues = false
                takesOutput = false
                inBlock = !trimmed.hasPrefix("```")
                continue
            }
            if trimmed.hasPrefix("#") && !continues {
                if takesOutput {
                    let shown = trimmed.dropFirst()
                    current?.output.append(String(shown.hasPrefix(" ") ? shown.dropFirst() : shown))
                }
                continue
            }
            let (code, comment) = Self.split(String(line))
            if continues, var command = current {
                command.text += "\n" + line
                command.code += " " + code.trimmingCharacters(in: .whitespaces)
                command.remark += comment
                current = command
            } else {
                if let done = current { commands.append(done) }
                current = Command(line: index + 1, text: String(line), code: code.trimmingCharacters(in: .whitespaces), remark: comment)
            }
            continues = code.hasSuffix("\\")
            if continues, var command = current {
                command.code = String(command.code.dropLast()).trimmingCharacters(in: .whitespaces)
                current = command
            }
            takesOutput = !continues
        }
    }

    /// A line's code and its comment: the comment starts at a `#` outside quotes that begins a word.
    static func split(_ line: String) -> (code: String, comment: String) {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#" && previous.isWhitespace {
                return (String(line[..<index]).trimmingCharacters(in: .whitespaces), String(line[line.index(after: index)...]))
            }
            previous = character
        }
        return (line.trimmingCharacters(in: .whitespaces), "")
    }

    /// Whether `lines` are what `shown` shows: each shown line matches one line, `…` in it standing
    /// for any text, and a shown line that is only `…` matches any number of lines.
    static func matches(_ lines: [String], _ shown: [String]) -> Bool {
        // reachable[j]: the first i lines can be matched by the first j shown lines.
        var reachable = [true] + Array(repeating: false, count: shown.count)
        for (j, pattern) in shown.enumerated() where pattern == "…" { reachable[j + 1] = reachable[j] }
        for line in lines {
            var next = Array(repeating: false, count: shown.count + 1)
            for (j, pattern) in shown.enumerated() {
                if pattern == "…" {
                    next[j + 1] = reachable[j + 1] || next[j] || reachable[j]
                } else if reachable[j] && lineMatches(line, pattern) {
                    next[j + 1] = true
                }
            }
            reachable = next
        }
        return reachable[shown.count]
    }

    /// Whether `line` is `pattern`, each `…` in the pattern standing for any text.
    static func lineMatches(_ line: String, _ pattern: String) -> Bool {
        let parts = pattern.components(separatedBy: "…")
        guard parts.count > 1 else { return line == pattern }
        guard line.hasPrefix(parts[0]), line.hasSuffix(parts[parts.count - 1]),
            line.count >= parts[0].count + parts[parts.count - 1].count
        else { return false }
        var rest = line.dropFirst(parts[0].count).dropLast(parts[parts.count - 1].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }
}
