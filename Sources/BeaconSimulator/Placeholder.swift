import BeaconCore
