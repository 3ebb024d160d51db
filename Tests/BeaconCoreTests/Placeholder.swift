import Testing
@testable import BeaconCore
