/// An error from Kura: what failed, in one line, with where it failed and why.
///
/// Every error the library throws is a `KuraError`. Its ``code`` says what kind of problem it is,
/// grouped by the part of Kura that found it (``Domain``); the other properties place it: the input
/// ``file`` and the ``position`` in it, the ``path`` of the value in a document, the ``sql`` and the
/// engine's ``engineCode`` of a database failure, and the ``underlying`` error.
///
/// ```swift
/// do {
///     try realm.write { try realm.create("Person", ["name": "Ann"]) }
/// } catch let error as KuraError where error.code == .store(.duplicatePrimaryKey) {
///     print(error.message)
/// }
/// ```
public struct KuraError: Error, Equatable, CustomStringConvertible {
    /// What kind of problem this is.
    public var code: Code
    /// What is wrong, in one line, without the place (``description`` adds it).
    public var message: String
    /// The input's name: a file's path as given, a name such as `<input>`, or `where`/`sort` for a query's text.
    public var file: String? {
        get { places.fields.file }
        set { places.fields.file = newValue }
    }
    /// Where in the input the problem is, when known.
    public var position: TextPosition? {
        get { places.fields.position }
        set { places.fields.position = newValue }
    }
    /// The path of the offending value in its document, such as `$[12].dogs[1].age`.
    public var path: String? {
        get { places.fields.path }
        set { places.fields.path = newValue }
    }
    /// The SQL statement that failed, for database errors.
    public var sql: String? {
        get { places.fields.sql }
        set { places.fields.sql = newValue }
    }
    /// The storage engine's own result code, for database errors (SQLite's extended result code).
    public var engineCode: Int32? {
        get { places.fields.engineCode }
        set { places.fields.engineCode = newValue }
    }
    /// Every error of the document this error is the first of, in document order, when the document has
    /// more than one; empty when this error stands alone. ``allErrors`` gives both cases as one list.
    public var errors: [KuraError] {
        get { places.fields.errors }
        set { places.fields.errors = newValue }
    }
    /// Whether the document had more errors than ``errors`` keeps.
    public var moreErrors: Bool {
        get { places.fields.moreErrors }
        set { places.fields.moreErrors = newValue }
    }
    /// For ``MigrationCode/duplicateKeys``: the values held by more than one object (the most frequent
    /// first) and how many objects hold each.
    public var duplicates: [DuplicateKey] {
        get { places.fields.duplicates }
        set { places.fields.duplicates = newValue }
    }
    /// The document the error is in, as read (a value it cannot hold kept as its text), when the
    /// error is that document's alone and the reader reads on after it.
    public var document: DocumentNode? {
        get { places.fields.document }
        set { places.fields.document = newValue }
    }
    /// The error that caused this one, if any.
    public var underlying: (any Error)? {
        get { places.fields.underlying }
        set { places.fields.underlying = newValue }
    }

    /// Everything but the code and the message, boxed: errors travel inside values the writer keeps
    /// for every property of a document, which must stay small.
    private var places: Places

    /// Makes an error; the domain factories (``store(_:_:sql:underlying:)`` and the others) fill in
    /// the places each domain has.
    public init(
        _ code: Code, _ message: String, file: String? = nil, position: TextPosition? = nil, path: String? = nil,
        sql: String? = nil, underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.places = Places(Fields(file: file, position: position, path: path, sql: sql, underlying: underlying))
    }

    /// This error and the document's other errors, in document order.
    public var allErrors: [KuraError] { errors.isEmpty ? [self] : errors }

    /// One line per error: `file:line:column: error: path: message (SQL: …)`, with as much of the
    /// place as is known (a query's text gives `where: column 7:`).
    public var description: String {
        guard errors.count > 1 || moreErrors else { return line }
        return allErrors.map(\.line).joined(separator: "\n") + (moreErrors ? "\n(more errors not shown)" : "")
    }

    /// This error alone, as one line.
    private var line: String {
        var text = ""
        switch (file, position) {
        case (let file?, let position?) where code.domain == .query: text = "\(file): column \(position.column): "
        case (let file?, let position?): text = "\(file):\(position.line):\(position.column): "
        case (let file?, nil): text = "\(file): "
        default: break
        }
        text += "error: "
        if let path { text += "\(path): " }
        text += message
        if let sql { text += " (SQL: \(sql))" }
        return text
    }

    /// Compares what the error says and where: not the underlying error, the engine's code, the
    /// duplicates (the message lists them) or the document.
    public static func == (lhs: KuraError, rhs: KuraError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.file == rhs.file && lhs.position == rhs.position
            && lhs.path == rhs.path && lhs.sql == rhs.sql && lhs.errors == rhs.errors && lhs.moreErrors == rhs.moreErrors
    }
}

extension KuraError {
    /// The places and causes of an error.
    fileprivate struct Fields: Sendable {
        var file: String?
        var position: TextPosition?
        var path: String?
        var sql: String?
        var engineCode: Int32?
        var errors: [KuraError] = []
        var moreErrors = false
        var duplicates: [DuplicateKey] = []
        var document: DocumentNode?
        var underlying: (any Error)?
    }

    /// A shared, immutable box of fields: a change makes a new box, so copies of an error never
    /// see each other's changes.
    fileprivate struct Places: Sendable {
        private final class Box: Sendable {
            let fields: Fields
            init(_ fields: Fields) { self.fields = fields }
        }

        private var box: Box

        init(_ fields: Fields) { box = Box(fields) }

        var fields: Fields {
            get { box.fields }
            set { box = Box(newValue) }
        }
    }
}
