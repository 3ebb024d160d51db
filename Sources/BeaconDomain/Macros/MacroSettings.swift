/// What the daemon's settings give the VAST macros: the device's advertising identifier, its
/// type, the user's limit-ad-tracking choice, and the `User-Agent` beaconctl sends.
public struct MacroSettings: Sendable, Equatable {
    /// `[DEVICEUA]`: the `User-Agent` header of every beacon request.
    package var deviceUserAgent: String
    /// `[IFA]`: an identifier of the device, empty when not set. Never logged.
    package var ifa: String
    /// `[IFATYPE]`: what kind of identifier `ifa` is (`rida`, `aaid`, `sessionid`...), empty when not set.
    package var ifaType: String
    /// `[LIMITADTRACKING]`: the user asked not to be tracked; `[IFA]` is then sent empty.
    package var limitAdTracking: Bool

    public init(deviceUserAgent: String, ifa: String = "", ifaType: String = "", limitAdTracking: Bool = false) {
        self.deviceUserAgent = deviceUserAgent
        self.ifa = ifa
        self.ifaType = ifaType
        self.limitAdTracking = limitAdTracking
    }
}
