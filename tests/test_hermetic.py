"""The tests leave the user's home alone (the root conftest.py): they run in a temporary home, and a run
that writes the real one fails, with or without pytest-xdist.

Each test here runs pytest in a subprocess, with ``HOME`` set to a folder that stands for the user's real
home: on a tiny test file beside a copy of the root conftest, or on this project's own tests.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.table.store import Store, default_path

ROOT = Path(__file__).resolve().parents[1]


def user_env(home: Path, **settings: str) -> dict[str, str]:
    """The environment of a user whose home is ``home``, with ``settings`` (variables) from their shell."""
    env = {**os.environ, "HOME": str(home), "REAL_HOME": str(home), "PYTHONPATH": str(ROOT), **settings}
    for name in ("CLUE_TEST_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
                 "XDG_RUNTIME_DIR"):
        env.pop(name, None)  # the defaults under HOME
    return env


def run_pytest(home: Path, *arguments: str, test: str | None = None, cwd: Path | None = None,
               settings: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """pytest ``arguments`` with ``home`` as the real home; ``test``: a tiny test_tiny.py beside the root conftest."""
    if test is not None:
        assert cwd is not None
        cwd.mkdir()
        (cwd / "conftest.py").write_text((ROOT / "conftest.py").read_text())
        (cwd / "test_tiny.py").write_text(test)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *arguments],
                          cwd=cwd or ROOT, env=user_env(home, **(settings or {})), capture_output=True, text=True,
                          timeout=300)


def tiny(tmp_path: Path, test: str, *options: str) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    settings = {"CLUE_COMPANION_DB": str(home / "games.db"), "CLUE_COMPANION_EDITIONS": str(home / "editions")}
    return run_pytest(home, "-o", "addopts=", *options, "test_tiny.py", test=test, cwd=tmp_path / "project",
                      settings=settings)


WRITES_THE_REAL_HOME = """
import os
from pathlib import Path

def test_writes_a_store_into_the_real_home():
    store = Path(os.environ["REAL_HOME"]) / ".local/share/clue-companion/companion.db"
    store.parent.mkdir(parents=True)
    store.write_bytes(b"game")
"""


@pytest.mark.parametrize("options", [(), ("-n", "2")], ids=["one process", "two workers"])
def test_a_test_that_writes_the_real_home_fails_the_run(tmp_path: Path, options: tuple[str, ...]) -> None:
    done = tiny(tmp_path, WRITES_THE_REAL_HOME, *options)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 passed" in done.stdout and "the real home changed" in done.stdout
    assert f"added    {tmp_path / 'home/.local/share/clue-companion/companion.db'}" in done.stdout


def test_a_file_changed_in_the_real_home_fails_the_run(tmp_path: Path) -> None:
    notes = tmp_path / "home/notes.txt"
    notes.parent.mkdir()
    notes.write_text("text")
    os.utime(notes, (0, 0))
    test = ("import os\nfrom pathlib import Path\n\n"
            "def test_rewrites():\n    (Path(os.environ['REAL_HOME']) / 'notes.txt').write_text('TEXT')\n")
    done = tiny(tmp_path, test)
    assert done.returncode == 1 and f"changed  {notes}" in done.stdout, done.stdout + done.stderr


USES_ITS_HOME = """
import os
from pathlib import Path

from companion.table.store import default_path

def test_the_app_and_the_programs_it_starts_see_a_temporary_home():
    real = Path(os.environ["REAL_HOME"])
    assert Path.home() != real and Path(os.path.expanduser("~")) != real
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"):
        assert Path(os.environ[name]).is_relative_to(Path.home()), name
    assert "CLUE_COMPANION_DB" not in os.environ and "CLUE_COMPANION_EDITIONS" not in os.environ
    assert default_path().is_relative_to(Path.home())
    default_path().parent.mkdir(parents=True)
    default_path().write_bytes(b"a test's game")
"""


@pytest.mark.parametrize("options", [(), ("-n", "2")], ids=["one process", "two workers"])
def test_a_test_that_writes_its_own_home_passes_and_the_real_home_is_untouched(tmp_path: Path,
                                                                              options: tuple[str, ...]) -> None:
    store = tmp_path / "home/.local/share/clue-companion/companion.db"
    store.parent.mkdir(parents=True)
    store.write_bytes(b"the user's own games")
    done = tiny(tmp_path, USES_ITS_HOME, *options)
    assert done.returncode == 0, done.stdout + done.stderr
    assert store.read_bytes() == b"the user's own games"


def used_home(home: Path) -> None:
    """A home as a newcomer's is after ``make run``: a user edition saved, a game played, a host PIN set."""
    data = home / ".local/share/clue-companion"
    env = user_env(home)
    command = [sys.executable, "-m", "companion.cli.main"]
    exported = home / "our_house.toml"
    home.mkdir()
    done = subprocess.run([*command, "edition", "classic", "--export", str(exported)], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    exported.write_text(exported.read_text().replace('id = "classic"', 'id = "our_house"', 1)
                        .replace('name = "Classic CLUE"', 'name = "Our House CLUE"', 1))
    for step in (["edition", "--import", str(exported)],
                 ["run", "--mock", "--host", "127.0.0.1", "--port", "0", "--pin", "555123", "--script", "-",
                  "--exit-after-script"]):
        done = subprocess.run([*command, *step], env=env, input="", capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    with Store(data / "companion.db") as games:  # the real table's store, as the Pi's would be
        games.set_setting("host_pin", "555123")
    assert {"mock.db", "companion.db", "host-pin", "editions"} <= {path.name for path in data.iterdir()}


def test_the_tests_that_read_a_used_home_pass_and_leave_it_alone(tmp_path: Path) -> None:
    """The newcomer's failure: their edition appeared in the list of bundled ones, doctor saw their PIN."""
    home = tmp_path / "home"
    used_home(home)
    done = run_pytest(home, "tests/companion/rules/test_edition.py::test_cli_lists_the_bundled_editions",
                      "tests/companion/cli/test_doctor.py", "-k", "bundled_editions or pin")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the real home changed" not in done.stdout


def test_this_session_runs_in_a_temporary_home() -> None:
    home = Path(os.environ["CLUE_TEST_HOME"])
    assert Path.home() == home and default_path().is_relative_to(home)
    assert "CLUE_COMPANION_DB" not in os.environ and "CLUE_COMPANION_CONFIG" not in os.environ
    with Store(default_path()) as store:  # what `run` leaves behind: a host PIN in the default store
        store.set_setting("host_pin", "284617")
