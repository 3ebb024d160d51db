/// The resource of every export: which box and which instance of beaconctl on it, then the
/// operator's own attributes (a deployment environment, a device model, a region).
package enum TelemetryResource {
    /// The application name the instance id is derived under, one per instance: two instances of
    /// the templated unit on one box are two `service.instance.id`s.
    package static func application(instance: String) -> String { "beaconctl-telemetry/\(instance)" }

    /// `machine` is `uname`'s machine (`x86_64`, `aarch64`), written as the conventions' `host.arch`.
    package static func make(
        version: String, instanceID: String, instance: String, machine: String, operatorAttributes: [String: String]
    ) -> OTLPResource {
        var attributes = [
            OTLPAttribute("service.name", .string("beaconctl")), OTLPAttribute("service.version", .string(version)),
            OTLPAttribute("service.instance.id", .string(instanceID)), OTLPAttribute("beaconctl.instance", .string(instance)),
            OTLPAttribute("host.arch", .string(hostArch(machine))), OTLPAttribute("os.type", .string("linux")),
        ]
        let ours = Set(attributes.map(\.key))
        // The box's identity is ours: an operator's attribute of the same name does not replace it.
        for (key, value) in operatorAttributes.sorted(by: { $0.key < $1.key }) where !ours.contains(key) {
            attributes.append(OTLPAttribute(key, .string(value)))
        }
        return OTLPResource(attributes: attributes)
    }

    static func hostArch(_ machine: String) -> String {
        switch machine {
        case "x86_64", "amd64": "amd64"
        case "aarch64", "arm64": "arm64"
        case let name where name.hasPrefix("armv"): "arm32"
        case "i386", "i486", "i586", "i686": "x86"
        case "ppc64", "ppc64le": "ppc64"
        case "s390x": "s390x"
        default: machine
        }
    }
}
