/// `bytes` compressed by the system's gzip, as a sender of `Content-Encoding: gzip` sends them:
/// what the tests post is compressed by another implementation than the one under test.
func gzipped(_ bytes: [UInt8]) async throws -> [UInt8] {
    let child = try ChildProcess(executable: ChildProcess.env, arguments: ["gzip", "-c", "-n"])
    defer { child.kill() }
    child.write(bytes)
    child.closeInput()
    let status = try await child.waitForExit()
    try await eventually(timeout: .seconds(5), "gzip's output to end") { child.stdout.isFinished }
    guard status == 0 else { throw TestFailure("gzip exited with \(status): \(child.stderr.text)") }
    return child.stdout.contents
}
