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

    /// The settings a TOML document gives: top-level keys (each setting's flag name without `--`),
    /// and each reporter's table (`[media-analytics]`, `[heartbeat]`), where its keys go without the
    /// table's prefix (`endpoint` for `media-analytics-endpoint`), or under the name the reporter's
    /// source document gives it (``SettingKey/documentNames``). Unknown keys (named with the
    /// nearest known one), other tables, a key given under two names and malformed TOML are errors.
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
        var givenAs: [SettingKey: String] = [:]
        func take(_ key: SettingKey, _ value: SettingValue, as written: String) throws(ConfigurationError) {
            if let first = givenAs[key] {
                let (one, other) = first < written ? (first, written) : (written, first)
                throw ConfigurationError(key: key, source: layer.source, reason: "set twice: as \(one) and as \(other)")
            }
            givenAs[key] = written
            layer.values[key] = value
        }
        for (name, value) in table {
            if let reporter = ReporterName(rawValue: name), reporter != .beacons, let settings = value.table {
                for (innerName, innerValue) in settings {
                    guard let key = SettingKey(table: reporter, name: innerName) else {
                        throw ConfigurationError(
                            subject: "\(name).\(innerName) (file \(path))", reason: SettingKey.unknownKeyReason(innerName, in: reporter))
                    }
                    try take(key, settingValue(innerValue, tableAllowed: true), as: "\(innerName) in [\(name)]")
                }
                continue
            }
            guard let key = SettingKey(rawValue: name) else {
                throw ConfigurationError(subject: "\(name) (file \(path))", reason: SettingKey.unknownKeyReason(name, in: nil))
            }
            try take(key, settingValue(value, tableAllowed: key.table != nil), as: name)
        }
        return layer
    }

    /// `tableAllowed`: in a reporter's table, where a setting may be a table (`headers`).
    private static func settingValue(_ value: any TOMLValueConvertible, tableAllowed: Bool = false) -> SettingValue {
        switch value.type {
        case .string: value.string.map(SettingValue.text) ?? .unsupported("string")
        case .int: value.int.map { .number(Double($0)) } ?? .unsupported("integer")
        case .double: value.double.map(SettingValue.number) ?? .unsupported("float")
        case .bool: value.bool.map(SettingValue.boolean) ?? .unsupported("boolean")
        case .table where tableAllowed:
            value.table.map { table in .table(Dictionary(table.map { ($0, settingValue($1)) }, uniquingKeysWith: { first, _ in first })) }
                ?? .unsupported("table")
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
