"""The rules of make test's own scripts: a step past its limit ends with all it started and is
named; a step's leftovers end; a suite without a time limit is found. `make test` runs these
(`python3 -m unittest discover -s scripts/tests`)."""
import importlib.util
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import unittest

scripts = pathlib.Path(__file__).resolve().parent.parent


def load(name):
    # The checks import their shared reporting from beside them.
    if str(scripts) not in sys.path:
        sys.path.insert(0, str(scripts))
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), scripts / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class TestStep(unittest.TestCase):
    def run_step(self, limit, script):
        """Runs `sh -c script` as a step; returns (exit status, stderr, pids the script wrote)."""
        with tempfile.TemporaryDirectory() as directory:
            pids = pathlib.Path(directory) / "pids"
            result = subprocess.run(
                [sys.executable, str(scripts / "test-step.py"), "probe", str(limit), "sh", "-c", script, "sh", str(pids)],
                capture_output=True, text=True, timeout=60)
            written = [int(line) for line in pids.read_text().split()] if pids.exists() else []
            return result.returncode, result.stderr, written

    def test_a_step_past_its_limit_ends_with_every_process_it_started(self):
        # With job control the background child gets a process group of its own, as the test
        # process leaves swift test's group.
        status, stderr, pids = self.run_step(2, 'set -m; sleep 300 & echo $! >> "$1"; sleep 300')
        self.assertEqual(status, 124)
        self.assertIn("test step 'probe' ran past its limit of 2 s", stderr)
        self.assertTrue(pids)
        time.sleep(0.2)
        self.assertEqual([pid for pid in pids if alive(pid)], [])

    def test_a_step_stopped_by_a_signal_ends_what_it_started(self):
        with tempfile.TemporaryDirectory() as directory:
            pids = pathlib.Path(directory) / "pids"
            step = subprocess.Popen(
                [sys.executable, str(scripts / "test-step.py"), "probe", "60", "sh", "-c", 'set -m; sleep 300 & echo $! >> "$1"; sleep 300',
                 "sh", str(pids)], stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 10
            while not pids.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            step.terminate()
            self.assertEqual(step.wait(timeout=30), 128 + 15)
            written = [int(line) for line in pids.read_text().split()]
        time.sleep(0.2)
        self.assertTrue(written)
        self.assertEqual([pid for pid in written if alive(pid)], [])

    def test_a_step_on_time_keeps_its_exit_status(self):
        status, stderr, _ = self.run_step(30, "exit 3")
        self.assertEqual(status, 3)
        self.assertIn("test step 'probe': exit 3", stderr)

    def test_processes_a_step_leaves_behind_end_and_are_named(self):
        status, stderr, pids = self.run_step(30, 'sleep 300 & echo $! >> "$1"; exit 0')
        self.assertEqual(status, 0)
        self.assertIn("left 1 processes running", stderr)
        time.sleep(0.2)
        self.assertEqual([pid for pid in pids if alive(pid)], [])


def problems_in_file(check, source):
    """What `check`'s problems_in finds in a Swift file holding `source`, inside the repository."""
    with tempfile.TemporaryDirectory(dir=scripts.parent) as directory:
        path = pathlib.Path(directory) / "Probe.swift"
        path.write_text(source)
        return check.problems_in(path)


class TestSuiteCheck(unittest.TestCase):
    def problems(self, source):
        return problems_in_file(load("check-test-suites"), source)

    def test_a_suite_with_a_time_limit_passes(self):
        self.assertEqual(self.problems('@Suite(.serialized, .timeLimit(.minutes(2))) struct A {\n    @Test func a() {}\n}\n'), [])
        self.assertEqual(self.problems('@Suite(\n    "named",\n    .timeLimit(.minutes(1))\n) struct A {}\n'), [])

    def test_a_suite_without_one_is_named(self):
        self.assertEqual(len(self.problems("@Suite struct A {}\n")), 1)
        self.assertEqual(len(self.problems('@Suite(.serialized) struct A {}\nextension A {\n    @Suite struct Sweeps {}\n}\n')), 2)

    def test_a_test_outside_any_type_is_named(self):
        problems = self.problems("@Test func alone() {}\n")
        self.assertEqual(len(problems), 1)
        self.assertIn("outside any suite type", problems[0])


class TestDomainCheck(unittest.TestCase):
    def problems(self, source):
        return problems_in_file(load("check-domain"), source)

    def test_decisions_pass(self):
        self.assertEqual(self.problems("/// Never a Mutex or a Task here.\nstruct Rule {\n    func next(now: Int) -> Int { now + 1 }\n}\n"), [])

    def test_locks_streams_tasks_and_sleeps_are_named(self):
        for source in ["import Synchronization\n", "let lock = Mutex(0)\n", "let s: AsyncStream<Int>\n",
                       "try await Task.sleep(for: .seconds(1))\n", "Task { }\n", "await withDiscardingTaskGroup { _ in }\n",
                       "Thread { }.start()\n"]:
            self.assertEqual(len(self.problems(source)), 1, source)


class TestImportCheck(unittest.TestCase):
    check = load("check-imports")

    def problems(self, source, declared):
        with tempfile.TemporaryDirectory() as directory:
            base = pathlib.Path(directory)
            (base / "Sources" / "Probe").mkdir(parents=True)
            (base / "Sources" / "Probe" / "Probe.swift").write_text(source)
            return self.check.problems_in({"name": "Probe", "path": "Sources/Probe"}, set(declared), base=base)

    def test_declared_and_system_modules_pass(self):
        source = "import BeaconDomain\n@testable import BeaconRuntime\ninternal import Logging\nimport Glibc\n#if canImport(Musl)\nimport Musl\n#endif\n"
        self.assertEqual(self.problems(source, ["BeaconDomain", "BeaconRuntime", "Logging"]), [])

    def test_an_undeclared_module_is_named_with_its_line(self):
        problems = self.problems("import BeaconDomain\nimport BeaconHTTP\n", ["BeaconDomain"])
        self.assertEqual(len(problems), 1)
        self.assertIn("Probe.swift:2: Probe imports BeaconHTTP", problems[0])

    def test_imports_inside_strings_and_comments_are_not_imports(self):
        source = 'let driver = """\n    import os, pty\n    """\n// import Nothing\n'
        self.assertEqual(self.problems(source, []), [])


if __name__ == "__main__":
    unittest.main()


class TestArchitectureCheck(unittest.TestCase):
    """ARCHITECTURE.md's references to the code, on a file of its own."""

    def setUp(self):
        self.check = load("check-architecture")
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)
        self.check.sources = pathlib.Path(self.directory.name)
        (self.check.sources / "Daemon").mkdir()
        (self.check.sources / "Daemon" / "Journal.swift").write_text(
            "struct Journal {\n"
            "    func submit(_ deliveries: [Int],\n"
            "                session: Int?) {}\n"
            "}\n"
        )

    def test_a_reference_to_its_declaration_holds(self):
        _, problems, count = self.check.check_references("`Daemon/Journal.swift:2` `submit(_:session:)`", fix=False)
        self.assertEqual((problems, count), ([], 1))

    def test_a_moved_declaration_is_named_with_its_line_and_fixed(self):
        stale = "see `Daemon/Journal.swift:1` `submit(_:session:)` here"
        _, problems, _ = self.check.check_references(stale, fix=False)
        self.assertEqual(len(problems), 1)
        self.assertIn("it is at line 2", problems[0])
        fixed, problems, _ = self.check.check_references(stale, fix=True)
        self.assertEqual((fixed, problems), ("see `Daemon/Journal.swift:2` `submit(_:session:)` here", []))

    def test_a_label_the_declaration_lacks_fails(self):
        _, problems, _ = self.check.check_references("`Daemon/Journal.swift:2` `submit(_:acknowledged:)`", fix=False)
        self.assertIn("nowhere in the file", problems[0])

    def test_a_missing_file_is_named(self):
        _, problems, _ = self.check.check_references("`Daemon/Gone.swift:2` `submit(_:)`", fix=False)
        self.assertIn("does not exist", problems[0])

    def test_the_actor_is_counted_over_its_extensions(self):
        (self.check.sources / "Daemon" / "BeaconDaemon.swift").write_text("package actor BeaconDaemon {\n}\n")
        (self.check.sources / "Daemon" / "BeaconDaemon+Status.swift").write_text("extension BeaconDaemon {\n\n}\n")
        self.assertEqual(self.check.actor_lines(), (5, 2))
