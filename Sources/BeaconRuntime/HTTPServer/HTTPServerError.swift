import BeaconDomain
/// Why an ``HTTPServer`` could not start.
package enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The address could not be bound: in use, not an address of this host, or not allowed.
    case cannotListen(host: String, port: Int, reason: String)

    package var description: String {
        switch self {
        case .cannotListen(let host, let port, let reason):
            let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            return "cannot listen on \(address): \(reason)"
        }
    }
}
