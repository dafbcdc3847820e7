import Kura

/// A small model for the results and change log tests.
package struct Pup: KuraObject, Equatable {
    package var name: String
    package var age: Int
    package var color: String?

    package init(name: String, age: Int, color: String? = nil) {
        self.name = name
        self.age = age
        self.color = color
    }
}
