/// Model values as numbered objects, the way a realm holds them: each class instance is one object
/// however often it is linked, each struct value an object of its own. Models are visited breadth
/// first, each once, with its properties encoded; a link to another stored model is an `.object`
/// naming that model's number, and the model is numbered then and visited in its turn.
final class ModelWalk {
    /// Which sign the numbers in links take: negative ones can be told apart from links to stored objects.
    enum LinkSign { case positive, negative }

    private let sign: LinkSign
    private var queue: [(number: Int64, model: any KuraObject)] = []
    private var numbers: [ObjectIdentifier: Int64] = [:]
    /// How many times each model is reached, by number: once when numbered, once per later link.
    private var reached: [Int64] = []

    init(linksAre sign: LinkSign) {
        self.sign = sign
    }

    /// The number of `model`: a class instance met before keeps its own, anything else gets the next.
    func number(_ model: any KuraObject) -> Int64 {
        if type(of: model) is AnyClass {
            let identity = ObjectIdentifier(model as AnyObject)
            if let number = numbers[identity] {
                reached[Int(number - 1)] += 1
                return number
            }
            let number = enqueue(model)
            numbers[identity] = number
            return number
        }
        return enqueue(model)
    }

    /// Whether the model numbered `number` is reached more than once.
    func isShared(_ number: Int64) -> Bool {
        number >= 1 && number <= Int64(reached.count) && reached[Int(number - 1)] > 1
    }

    /// Calls `body` with each model numbered so far and every model they link to, in order, with
    /// the model's properties encoded (a `.map` for any model).
    func visit(_ body: (_ number: Int64, _ model: any KuraObject, _ fields: Value) throws -> Void) throws {
        var index = 0
        while index < queue.count {
            let (number, model) = queue[index]
            index += 1
            let encoder = ValueEncoder { [unowned self] target in
                let linked = self.number(target)
                return .object(ObjectRef(type: type(of: target).typeName, id: self.sign == .negative ? -linked : linked))
            }
            try body(number, model, try encoder.encodeFields(of: model))
        }
    }

    private func enqueue(_ model: any KuraObject) -> Int64 {
        let number = Int64(queue.count + 1)
        queue.append((number, model))
        reached.append(1)
        return number
    }
}
