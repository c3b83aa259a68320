"""Hermetic tests: no test reads or writes the real home, and a run that changes it fails.

Imported by pytest before any test module (this is the root conftest), so every
path the companion resolves (``Path.home()``, ``$XDG_*``, ``$CLUE_COMPANION_*``),
and every program a test starts (Chromium, Node.js, espeak-ng), sees a
temporary home instead of the user's: a user edition saved from the editor, a
game in ``~/.local/share/clue-companion`` or a host PIN cannot change a result.
Each process of the run (the controller and each pytest-xdist worker) gets its
own home, removed at the end.

The real home is recorded (every path, each file's size and mtime) when the run
starts and compared when it ends, in the controller: anything added, removed or
changed there fails the run with the paths. ``$CLUE_TEST_HOME_SKIP`` (paths
relative to the home, separated by ``:``) leaves out what another program on the
machine writes during the run; the run's header says when it is set.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from stat import S_ISDIR

import pytest

# The variables the companion and the programs the tests start resolve paths from.
HOME_VARIABLES = ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR")
# The user's own companion settings, which would reach into a test (the tests of each set it themselves),
# and the user's additions to the system's data and config folders.
CLEARED = ("CLUE_COMPANION_DB", "CLUE_COMPANION_CONFIG", "CLUE_COMPANION_EDITIONS", "CLUE_BOARD_PORT",
           "CLUE_HANDHELD_DISPLAY", "CLUE_PIPER_VOICES", "XDG_DATA_DIRS", "XDG_CONFIG_DIRS")
SKIP_VARIABLE = "CLUE_TEST_HOME_SKIP"
# Where this process's temporary home is: a subprocess pytest (a test of this file) knows it is nested.
TEST_HOME_VARIABLE = "CLUE_TEST_HOME"

Snapshot = dict[str, tuple[int, int] | None]


def _make_home() -> tuple[Path, Path]:
    """A fresh home for this process, set in ``os.environ`` (which every subprocess inherits); (real, temporary)."""
    real = Path(os.environ.get("HOME") or os.path.expanduser("~"))
    home = Path(tempfile.mkdtemp(prefix="clue-test-home-"))
    os.environ["HOME"] = str(home)
    for name, folder in zip(HOME_VARIABLES, ("share", "config", "cache", "state", "run")):
        (home / folder).mkdir(mode=0o700)
        os.environ[name] = str(home / folder)
    for name in CLEARED:
        os.environ.pop(name, None)
    # /etc/clue-companion.toml on a Pi: a path the app resolves outside the home, kept out all the same.
    os.environ["CLUE_COMPANION_SYSTEM_CONFIG"] = str(home / "etc" / "clue-companion.toml")
    os.environ["CLUE_COMPANION_FIRST_BOOT_PROBLEMS"] = str(home / "run" / "first-boot-problems.json")
    os.environ[TEST_HOME_VARIABLE] = str(home)
    return real, home


REAL_HOME, TEST_HOME = _make_home()  # at import: before any test module, fixture or server reads the environment


def snapshot(root: Path, skip: tuple[Path, ...]) -> Snapshot:
    """Every path under ``root``: a file's (size, mtime in ns), None for a folder; ``skip`` and bytecode left out.

    Plain strings and one stat per entry: a home of 250,000 files takes about a second.
    """
    found: Snapshot = {}
    skipped = {str(path) for path in skip}
    pending = [str(root)]
    while pending:
        try:
            with os.scandir(pending.pop()) as listing:
                entries = list(listing)
        except OSError:  # unreadable or gone: what is under it cannot be compared
            continue
        for entry in entries:
            if entry.name == "__pycache__" or entry.path in skipped:
                continue
            try:
                stat = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if S_ISDIR(stat.st_mode):
                found[entry.path] = None
                pending.append(entry.path)
            else:
                found[entry.path] = (stat.st_size, stat.st_mtime_ns)
    return found


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """Each path added, removed or changed, in words, sorted."""
    lines = []
    for path in sorted(before.keys() | after.keys()):
        if path not in before:
            lines.append(f"added    {path}")
        elif path not in after:
            lines.append(f"removed  {path}")
        elif before[path] != after[path]:
            lines.append(f"changed  {path}")
    return lines


def skipped(config: pytest.Config, real: Path) -> tuple[Path, ...]:
    """What the comparison leaves out: this checkout and pytest's temporary folder if under the home, and the skips."""
    named = [real / part for part in os.environ.get(SKIP_VARIABLE, "").split(":") if part]
    basetemp = Path(tempfile.gettempdir())
    return tuple(p.resolve() if p.exists() else p for p in (*named, config.rootpath, basetemp, TEST_HOME))


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


class HomeGuard:
    """Records the real home when the run starts; fails the run if it differs at the end."""

    def __init__(self, config: pytest.Config, real: Path) -> None:
        self.real = real.resolve()
        self.skip = skipped(config, self.real)
        self.before = snapshot(self.real, self.skip) if self.real.is_dir() else {}
        self.changed: list[str] = []

    def check(self) -> list[str]:
        self.changed = changes(self.before, snapshot(self.real, self.skip) if self.real.is_dir() else {})
        return self.changed


GUARD_KEY = pytest.StashKey[HomeGuard]()


def pytest_configure(config: pytest.Config) -> None:
    if not _is_worker(config):  # the controller watches; workers only run in their own homes
        config.stash[GUARD_KEY] = HomeGuard(config, REAL_HOME)


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = [f"home: {TEST_HOME} (the real home {REAL_HOME} is checked for changes at the end)"]
    if os.environ.get(SKIP_VARIABLE):
        lines.append(f"home: ${SKIP_VARIABLE} leaves out {os.environ[SKIP_VARIABLE]}")
    return lines


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    guard = session.config.stash.get(GUARD_KEY, None)
    if guard is not None and guard.check():
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    _twin_summary(terminalreporter)
    guard = config.stash.get(GUARD_KEY, None)
    if guard is None or not guard.changed:
        return
    terminalreporter.section("the real home changed", red=True, bold=True)
    terminalreporter.line(f"The run changed {len(guard.changed)} path(s) under {guard.real}; "
                          "a test must use its own home (tmp_path, or this session's $HOME):", red=True)
    for line in guard.changed[:50]:
        terminalreporter.line(f"  {line}")
    if len(guard.changed) > 50:
        terminalreporter.line(f"  … and {len(guard.changed) - 50} more")


def _twin_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How many board-twin tests were skipped for want of its image, and the command that builds it.

    Here, not in tests/pico/conftest.py: under pytest-xdist the controller, which prints the
    summary, loads only this conftest.
    """
    skipped = [report for report in terminalreporter.stats.get("skipped", [])
               if report.nodeid.replace("\\", "/").startswith("tests/pico/")]
    if skipped:
        terminalreporter.write_line(f"board twin: {len(skipped)} tests skipped, its image is not built "
                                    "(-rs says why); build it with: tools/build-pico-image.sh", yellow=True)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(TEST_HOME, ignore_errors=True)


# Left out of make check (-m "not slow"), by test id prefix: folders and files whose tests start browsers,
# MicroPython, KiCad's checks, the companion as a process or a real server, and the longest single tests
# (each over a second on these 2 cores). A test elsewhere can say so itself with @pytest.mark.slow.
SLOW = (
    "tests/firmware/", "tests/e2e/", "tests/tools/", "tests/contract/", "tests/test_readme_commands.py",
    "tests/test_hermetic.py", "tests/hardware/test_circuits.py",
    "tests/companion/cli/test_run_", "tests/companion/cli/test_board_commands.py",
    "tests/companion/cli/test_enroll_command.py", "tests/companion/cli/test_every_edition.py",
    "tests/companion/cli/test_pi_setup.py", "tests/companion/cli/test_user_editions.py",
    "tests/companion/cli/test_console_terminal.py", "tests/companion/cli/test_where.py::test_the_host_pin_is_",
    "tests/companion/table/test_store_crash.py", "tests/companion/rules/test_properties.py",
    "tests/companion/rules/test_movement_reference.py::test_every_bundled_board_agrees_from_every_place",
    "tests/companion/deduction/test_deduction.py::test_counts_equal_brute_force",
    "tests/companion/deduction/test_deduction.py::test_every_seat_in_a_random_game_keeps_the_truth_possible",
    "tests/companion/table/test_template.py::test_a_bigger_tag_reaches_more_squares",
    "tests/companion/table/test_template.py::test_a_door_reader_reaches_the_hallway_square_in_front_of_its_door",
    "tests/hardware/test_link_core.py::test_whatever_happens_on_the_wire_",
    "tests/hardware/test_board_link.py::test_a_hundred_unplug_replug_cycles_",
    "tests/hardware/test_expander.py::test_ten_seats_play_a_round_",
    "tests/web/test_screenshots_tool.py", "tests/web/test_origin.py", "tests/web/test_bad_input_500s.py",
    "tests/web/test_server_", "tests/web/test_photo_memory.py", "tests/web/test_host_actions.py",
    "tests/web/test_host_lockout.py", "tests/web/test_web_abuse.py", "tests/web/test_web_live.py",
    "tests/web/test_board_photo.py", "tests/web/test_photo_api.py",
    "tests/web/test_web_privacy.py::test_random_games_never_show_anyone_a_secret",
    "tests/web/test_deltas.py::test_the_operations_turn_any_view_into_any_other",
    "tests/web/test_deltas.py::test_every_view_of_a_real_game_is_rebuilt_from_the_deltas",
    "tests/web/test_web_security.py::test_junk_bodies_on_every_post_route_are_4xx_json",
    "tests/web/test_web_security.py::test_fuzzed_json_bodies_never_get_a_500",
)
SLOW_FIXTURES = {"browser"}  # tests/web/conftest.py: one Chromium per module


@pytest.hookimpl(trylast=True)  # after tests/pico's conftest has marked its own tests slow
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SLOW) or SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    # make test hands files out in this order (--no-loadscope-reorder): the files with slow tests first, so the
    # processes end together on short files (measured: the three ended at 631/629/629 s, were 714/693/654 s)
    slow = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in slow)
