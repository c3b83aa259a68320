"""The README's command lines work as written: the files they name exist and each command exits 0.

Commands that start a companion, a board or an enrolment (they run until stopped or need
hardware) are only checked for the files they name. ``make run`` passes PORT= and ARGS= on.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PROGRAM = ".venv/bin/clue-companion"
# run and the board commands wait for hardware; doctor exits 1 on a machine without a board, by design
LONG_RUNNING = {"run", "enroll", "board-monitor", "virtual-board", "doctor"}
SHIPPED = {"examples/classic-sample.jsonl", "examples/classic-notes.jsonl", "examples/my_board.txt"}


def readme_commands() -> list[list[str]]:
    """Each ``.venv/bin/clue-companion`` line of the README's ``sh`` blocks, as words (comments dropped)."""
    blocks = re.findall(r"^```sh\n(.*?)^```", README.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)
    lines = [line for block in blocks for line in block.splitlines() if line.startswith(PROGRAM + " ")]
    return [shlex.split(line, comments=True) for line in lines]


def named_examples(words: list[str]) -> list[str]:
    return [word for word in words if word.startswith("examples/")]


COMMANDS = readme_commands()


def test_the_readme_names_the_shipped_examples() -> None:
    named = {path for words in COMMANDS for path in named_examples(words)}
    assert SHIPPED <= named, f"the README no longer uses {sorted(SHIPPED - named)}"


@pytest.mark.parametrize("words", COMMANDS, ids=[" ".join(words[1:4]) for words in COMMANDS])
def test_every_file_a_readme_command_reads_exists(words: list[str]) -> None:
    for path in named_examples(words):
        assert (ROOT / path).is_file(), f"README names {path}, which is not in the repository"


@pytest.mark.parametrize("words", [w for w in COMMANDS if w[1] not in LONG_RUNNING],
                         ids=lambda words: " ".join(words[1:4]))
def test_every_readme_command_runs_and_exits_0(words: list[str], tmp_path: Path) -> None:
    # Run where the README is read (examples/ beside it), writing any pictures into a scratch folder.
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    args, stdin = list(words[1:]), None
    if "<" in args:
        at = args.index("<")
        stdin = (tmp_path / args[at + 1]).read_bytes()
        del args[at:at + 2]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data"),
           "HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "config")}  # never the real home
    done = subprocess.run([sys.executable, "-m", "companion.cli", *args], cwd=tmp_path, input=stdin,
                          capture_output=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert done.stdout.strip(), "the command printed nothing"


def make_run_line(*assignments: str) -> str:
    make = shutil.which("make")
    assert make, "make is needed for `make run`"
    env = {key: value for key, value in os.environ.items() if key not in ("PORT", "ARGS", "MAKEFLAGS")}
    done = subprocess.run([make, "-n", "-C", str(ROOT), "run", *assignments], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return next(line for line in done.stdout.splitlines() if "clue-companion run" in line)


def test_make_run_takes_port_and_args() -> None:
    line = make_run_line("PORT=8080", "ARGS=--edition doctor_who --seats 'Amy & Rory,Strax,Clara Oswald'")
    assert line == (".venv/bin/clue-companion run --mock --port 8080 --edition doctor_who "
                    "--seats 'Amy & Rory,Strax,Clara Oswald'")


def test_make_run_alone_is_unchanged() -> None:
    assert make_run_line() == ".venv/bin/clue-companion run --mock"
    assert make_run_line("ARGS=--new") == ".venv/bin/clue-companion run --mock --new"


def enrol_steps(text: str) -> list[str]:
    """The ``sh`` lines of ``text`` that stop the service, enrol into its store, or start it, in order."""
    blocks = re.findall(r"^```sh\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    steps = {"systemctl stop clue-companion": "stop", "-u clue clue-companion enroll": "enroll",
             "systemctl start clue-companion": "start"}
    return [step for block in blocks for line in block.splitlines()
            for words, step in steps.items() if words in line.split("#")[0]]


@pytest.mark.parametrize("doc", ["README.md", "docs/install.md"])
def test_the_pi_instructions_stop_the_service_to_enrol_and_start_it_again(doc: str) -> None:
    # The board answers one program at a time: enrolling beside the running service fails.
    steps = enrol_steps((ROOT / doc).read_text(encoding="utf-8"))
    assert "enroll" in steps, f"{doc} does not say how to enrol on the Pi"
    at = steps.index("enroll")
    assert steps[at - 1:at + 2] == ["stop", "enroll", "start"], f"{doc}: {steps}"
