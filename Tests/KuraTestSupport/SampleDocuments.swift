/// Documents of the samples' schema made to size, for the tests of imports.
package enum SampleDocuments {
    /// `count` people as one JSON array, each with a dog and an address; the dog of person `bad`,
    /// if any, gives its age as a string.
    package static func people(_ count: Int, badAt bad: Int? = nil) -> [UInt8] {
        var text = "["
        for index in 1...count {
            if index > 1 { text += ",\n" }
            let age = index == bad ? "\"three\"" : "\(index % 15)"
            text += #"{"name": "P\#(index)", "dogs": [{"name": "D\#(index)", "age": \#(age)}], "address": {"city": "C"}}"#
        }
        return Array((text + "]").utf8)
    }
}
