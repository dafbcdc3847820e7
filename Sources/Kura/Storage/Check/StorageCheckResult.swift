/// What checking a realm's storage found: the findings listed, how many problems there are in
/// all, and the size of what was checked.
package struct StorageCheckResult {
    /// The findings in the order the checks ran, each group's unlisted ones counted in a line of their own.
    package var findings: [CheckFinding]
    /// How many problems there are, those not listed in `findings` included.
    package var problemCount: Int
    /// The objects stored, in every type (embedded ones included).
    package var objectCount: Int
    /// The stored schema; `nil` when it cannot be read.
    package var schema: Schema?

    /// Makes a result.
    package init(findings: [CheckFinding], problemCount: Int, objectCount: Int, schema: Schema?) {
        self.findings = findings
        self.problemCount = problemCount
        self.objectCount = objectCount
        self.schema = schema
    }
}
