extension HeartbeatSettings {
    /// The device id the heartbeat sends: `device-id` when set, else the id derived from the
    /// text of `/etc/machine-id` (read at the edge); nil when neither is there.
    package func effectiveDeviceID(machineID: String?) -> String? {
        deviceID ?? machineID.flatMap { MachineAppSpecificID.derived(fromMachineID: $0, application: MachineAppSpecificID.heartbeat) }
    }
}
