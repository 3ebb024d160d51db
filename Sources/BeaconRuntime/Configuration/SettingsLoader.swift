import BeaconDomain
import BeaconStorage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Gathers the settings of `beaconctl run` from flags, the environment and the config file.
package enum SettingsLoader {
    /// The settings and the config file they read, if any.
    package struct Loaded: Sendable, Equatable {
        package var settings: Settings
        package var file: ConfigurationFile.Location?
    }

    /// - Parameters:
    ///   - flags: the settings given on the command line.
    ///   - configFile: the file named by `--config` or an argument, and how it was named.
    package static func load(
        flags: SettingsLayer = SettingsLayer(source: .flag),
        configFile: (path: String, namedBy: String)? = nil,
        environment: [String: String],
        fileExists: (String) -> Bool = { access($0, F_OK) == 0 }
    ) throws(ConfigurationError) -> Loaded {
        var layers = [flags, try SettingsLayer.environment(environment)]
        let location = ConfigurationFile.locate(explicit: configFile, environment: environment, exists: fileExists)
        if let location { layers.append(try ConfigurationFile.load(location)) }
        let settings = try Settings.resolve(
            layers, defaultSocket: ControlSocketPath.standard(environment: environment),
            defaultStateDir: StateDirectory.standard(environment: environment))
        return Loaded(settings: settings, file: location)
    }
}
