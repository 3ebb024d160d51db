import Foundation

/// An `LD_PRELOAD` library, built by the test with `cc`, that shifts the daemon's wall clock: every
/// `clock_gettime(CLOCK_REALTIME)` (and its coarse twin) gets the offset in milliseconds read from
/// a file the test rewrites. The monotonic clocks (`CLOCK_BOOTTIME`, `CLOCK_MONOTONIC`) are untouched.
struct WallClockShim {
    let library: String
    let offsetFile: String

    /// The variables that load the shim into a child.
    var environment: [String: String] { ["LD_PRELOAD": library, "WALL_CLOCK_OFFSET_FILE": offsetFile] }

    /// Steps the wall clock of every process running the shim: it reads the file at each call.
    func set(offset milliseconds: Int64) throws {
        try "\(milliseconds)\n".write(toFile: offsetFile + ".new", atomically: false, encoding: .utf8)
        // A rename, so a reader never sees a half-written number.
        guard rename(offsetFile + ".new", offsetFile) == 0 else { throw TestFailure("rename \(offsetFile): errno \(errno)") }
    }

    static let source = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <time.h>

        static long long offset_ms(void) {
            const char *path = getenv("WALL_CLOCK_OFFSET_FILE");
            if (!path) return 0;
            FILE *file = fopen(path, "re");
            if (!file) return 0;
            long long value = 0;
            if (fscanf(file, "%lld", &value) != 1) value = 0;
            fclose(file);
            return value;
        }

        int clock_gettime(clockid_t id, struct timespec *spec) {
            static int (*real)(clockid_t, struct timespec *);
            if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
            int result = real(id, spec);
            if (result == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) {
                long long nanoseconds = (long long)spec->tv_sec * 1000000000LL + spec->tv_nsec + offset_ms() * 1000000LL;
                spec->tv_sec = (time_t)(nanoseconds / 1000000000LL);
                spec->tv_nsec = (long)(nanoseconds % 1000000000LL);
            }
            return result;
        }
        """

    /// Builds the shim in `directory`; nil, with the reason printed, when there is no C compiler.
    static func build(in directory: TemporaryDirectory) async throws -> WallClockShim? {
        let compilers = ["/usr/bin/cc", "/usr/local/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"]
        guard let compiler = compilers.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("skipped: no C compiler (cc) to build the LD_PRELOAD wall-clock shim; looked for \(compilers.joined(separator: ", "))")
            return nil
        }
        let sourceFile = directory.file("wallclock.c")
        let library = directory.file("wallclock.so")
        try source.write(toFile: sourceFile, atomically: true, encoding: .utf8)
        let built = try await runProgram(compiler, ["-shared", "-fPIC", "-O1", "-o", library, sourceFile, "-ldl"], timeout: .seconds(60))
        guard built.status == 0 else { throw TestFailure("building the wall-clock shim failed: \(built.stderr)") }
        let shim = WallClockShim(library: library, offsetFile: directory.file("offset"))
        try shim.set(offset: 0)
        return shim
    }
}
