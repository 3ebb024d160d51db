import BeaconCore
print("beaconctl")
