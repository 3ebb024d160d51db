import BeaconDomain
/// A setting as a source gave it, before validation: the environment and flags give text,
/// a TOML file gives typed values.
package enum SettingValue: Sendable, Equatable {
    case text(String)
    case number(Double)
    case boolean(Bool)
    /// A TOML table of a setting that takes one (`headers`), by key.
    case table([String: SettingValue])
    /// A TOML value of a kind no setting takes (array, table, date), by its TOML type name.
    case unsupported(String)
}
