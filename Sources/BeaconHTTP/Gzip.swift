internal import CZlib

/// Request bodies compressed for `Content-Encoding: gzip`, with the system's zlib.
package enum Gzip {
    /// `bytes` as one gzip stream (RFC 1952) at zlib's default level.
    package static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // zlib fails to start only when it cannot allocate its state, which Swift treats as fatal too.
        guard czlib_deflate_init_gzip(&stream, Z_DEFAULT_COMPRESSION) == Z_OK else { fatalError("zlib: deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        // Output room for deflateBound's worst case lets one call with Z_FINISH write the whole
        // stream (one call takes up to 4 GiB, far more than any request body).
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { room in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = room.baseAddress
                stream.avail_out = uInt(room.count)
                let status = deflate(&stream, Z_FINISH)
                // The pointers are valid only in here: none is left in the stream.
                stream.next_in = nil
                stream.next_out = nil
                return status
            }
        }
        precondition(status == Z_STREAM_END, "zlib: deflate ended with \(status) despite deflateBound's room")
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}
