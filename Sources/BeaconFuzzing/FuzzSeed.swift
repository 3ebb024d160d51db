/// One input a fuzz run starts from, named after where it came from.
package struct FuzzSeed: Sendable, Equatable {
    package var name: String
    package var bytes: [UInt8]

    package init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}
