import BeaconDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
internal import TOMLKit

/// The TOML config file: where it is and what it says.
package enum ConfigurationFile {
    /// Read when it exists and no other file is named.
    package static let defaultPath = "/etc/beaconctl/beaconctl.toml"
    /// Names the file when no flag or argument does.
    package static let environmentVariable = "BEACONCTL_CONFIG"
    /// No config file needs more; a bigger one is refused unread.
    package static let maxBytes = 1 << 20

    /// The file to read and how it was named, or nil when none is named and the default one is missing.
    package struct Location: Sendable, Equatable {
        package var path: String
        /// `flag --config`, `env BEACONCTL_CONFIG`, `default`: where an unreadable file's name came from.
        package var namedBy: String
    }

    /// `explicit` (flag or argument), else `BEACONCTL_CONFIG`, else the default path when it exists.
    package static func locate(
        explicit: (path: String, namedBy: String)?, environment: [String: String], exists: (String) -> Bool
    ) -> Location? {
        if let explicit { return Location(path: explicit.path, namedBy: explicit.namedBy) }
        if let named = environment[environmentVariable], !named.isEmpty {
            return Location(path: named, namedBy: "env \(environmentVariable)")
        }
        return exists(defaultPath) ? Location(path: defaultPath, namedBy: "default") : nil
    }

    /// The settings a TOML document gives. Unknown keys, tables and malformed TOML are errors.
    package static func parse(_ text: String, path: String) throws(ConfigurationError) -> SettingsLayer {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigurationError(
                subject: "file \(path) line \(error.source.begin.line) column \(error.source.begin.column)", reason: error.description)
        } catch {
            throw ConfigurationError(subject: "file \(path)", reason: "\(error)")
        }
        var layer = SettingsLayer(source: .file(path))
        for (name, value) in table {
            guard let key = SettingKey(rawValue: name) else {
                throw ConfigurationError(subject: "\(name) (file \(path))", reason: "unknown key")
            }
            layer.values[key] = settingValue(value)
        }
        return layer
    }

    private static func settingValue(_ value: any TOMLValueConvertible) -> SettingValue {
        switch value.type {
        case .string: value.string.map(SettingValue.text) ?? .unsupported("string")
        case .int: value.int.map { .number(Double($0)) } ?? .unsupported("integer")
        case .double: value.double.map(SettingValue.number) ?? .unsupported("float")
        case .bool: value.bool.map(SettingValue.boolean) ?? .unsupported("boolean")
        case let other: .unsupported(other.description)
        }
    }

    /// Reads and parses the file at `location`.
    package static func load(_ location: Location) throws(ConfigurationError) -> SettingsLayer {
        let text: String
        do {
            text = try contents(of: location.path)
        } catch {
            throw ConfigurationError(subject: "config (\(location.namedBy))", reason: "cannot read \(location.path): \(error.reason)")
        }
        return try parse(text, path: location.path)
    }

    /// Why a file could not be read.
    struct ReadFailure: Error {
        var reason: String
    }

    /// The file's text, read in full but never beyond `maxBytes`.
    static func contents(of path: String) throws(ReadFailure) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadFailure(reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadFailure(reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= maxBytes else { throw ReadFailure(reason: "larger than \(maxBytes >> 20) MiB") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ReadFailure(reason: "not UTF-8 text") }
        return text
    }
}
