/// One input a fuzz run starts from, named after where it came from.
public struct FuzzSeed: Sendable, Equatable {
    public var name: String
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}
