"""The console at a terminal (a pty): Tab completion, help, history across sessions, log lines
that arrive while a line is being typed, and ``run --mock`` played from it."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

WAIT = 20.0  # seconds: generous, for a busy two-core machine
UP = "\x1b[A"
LEFT = "\x1b[D"
TAB = "\t"

# A console over a stand-in table that prints what it is asked to do; a thread logs a line
# (as `run` logs: JSON lines to standard error) when the test creates the file named in argv[1].
FAKE_TABLE = r"""
import logging, sys, threading, time
from pathlib import Path
from companion.cli.console import Console
from companion.cli.run import setup_logging
from companion.rules.edition import load_edition

class Table:
    edition = load_edition("classic")
    handhelds = {}
    def view(self, seat=None):
        return {"seats": ["Miss Scarlet", "Colonel Mustard", "Mrs. White", "Mr. Green"], "stage": "playing"}
    def move(self, name, place):
        print(f"MOVED {name} -> {place}", flush=True)
        return True

def log_when_asked(trigger):
    while not trigger.exists():
        time.sleep(0.02)
    logging.getLogger("clue_companion").info("board link up")

setup_logging("INFO", sys.stderr)
threading.Thread(target=log_when_asked, args=(Path(sys.argv[1]),), daemon=True).start()
Console(Table(), sys.stdout).run(sys.stdin, prompt=lambda: print("> ", end="", flush=True))
print("BYE", flush=True)
"""


class Terminal:
    """A program on a pty: type into it and read what it shows."""

    def __init__(self, fd: int, process: subprocess.Popen[bytes]) -> None:
        self.fd, self.process, self.seen = fd, process, b""

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def wait_for(self, text: str, timeout: float = WAIT) -> str:
        """Everything shown since the last wait, up to and including ``text``."""
        deadline = time.monotonic() + timeout
        wanted = text.encode()
        while wanted not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"never showed {text!r}; showed:\n{self.seen.decode(errors='replace')}"
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.2))
            if ready:
                try:
                    self.seen += os.read(self.fd, 4096)
                except OSError:  # the program ended and closed the pty
                    assert wanted in self.seen, f"ended before {text!r}:\n{self.seen.decode(errors='replace')}"
        at = self.seen.index(wanted) + len(wanted)
        shown, self.seen = self.seen[:at], self.seen[at:]
        return shown.decode(errors="replace")


@contextmanager
def terminal(args: list[str], env: dict[str, str]) -> Iterator[Terminal]:
    main, other = pty.openpty()
    process = subprocess.Popen(args, stdin=other, stdout=other, stderr=other, close_fds=True,
                               env={**os.environ, "TERM": "xterm", **env})
    os.close(other)
    try:
        yield Terminal(main, process)
        assert process.wait(timeout=WAIT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(main)


@pytest.fixture
def data(tmp_path: Path) -> dict[str, str]:
    return {"XDG_DATA_HOME": str(tmp_path / "data"), "CLUE_COMPANION_DB": str(tmp_path / "games.db")}


def fake_table(tmp_path: Path, data: dict[str, str]) -> Iterator[Terminal]:
    return terminal([sys.executable, "-c", FAKE_TABLE, str(tmp_path / "log-now")], data)


def test_tab_completes_a_name_from_any_unique_part(tmp_path: Path, data: dict[str, str]) -> None:
    with fake_table(tmp_path, data) as screen:
        screen.wait_for("> ")
        screen.type("move sc" + TAB)
        screen.wait_for("Scarlet ")
        screen.type("lou" + TAB)
        screen.wait_for("Lounge ")
        screen.type("\n")
        screen.wait_for("MOVED Miss Scarlet -> Lounge")
        screen.type("mo" + TAB + "col m" + TAB + "dining r" + TAB + "\n")
        screen.wait_for("MOVED Colonel Mustard -> Dining Room")
        screen.type("quit\n")
        screen.wait_for("BYE")


def test_two_tabs_list_the_names_that_fit(tmp_path: Path, data: dict[str, str]) -> None:
    with fake_table(tmp_path, data) as screen:
        screen.wait_for("> ")
        screen.type("move mrs" + TAB)
        screen.wait_for("Mrs. ")  # as far as both Mrs. White and Mrs. Peacock go
        screen.type(TAB + TAB)  # the second Tab lists them
        listed = screen.wait_for("White ")
        assert "Peacock " in listed
        screen.type("\x15quit\n")  # Ctrl-U: clear the line first
        screen.wait_for("BYE")


def test_help_and_help_for_one_command(tmp_path: Path, data: dict[str, str]) -> None:
    with fake_table(tmp_path, data) as screen:
        screen.wait_for("> ")
        screen.type("help\n")
        listing = screen.wait_for("help COMMAND explains one command.")
        for usage in ("move SUSPECT|WEAPON PLACE", "tap CARD SEAT|centre", "press SEAT BUTTON...", "quit"):
            assert usage in listing
        screen.type("help mo" + TAB + "\n")
        explained = screen.wait_for("e.g. move scarlet lounge")
        assert "put a mover or weapon token in a room" in explained
        screen.type("help fly\n")
        screen.wait_for("? no command 'fly' to explain")
        screen.type("move mrs dining\n")
        screen.wait_for("? 'mrs' could be Mrs. White or Mrs. Peacock: type more of the name")
        screen.wait_for("> ")
        time.sleep(0.2)  # readline reads keys now: a Ctrl-D before it did would go to the terminal driver
        screen.type("\x04")  # Ctrl-D at the prompt: the end
        screen.wait_for("BYE")


def test_history_is_recalled_in_the_next_session(tmp_path: Path, data: dict[str, str]) -> None:
    with fake_table(tmp_path, data) as screen:
        screen.wait_for("> ")
        screen.type("move white hall\n")
        screen.wait_for("MOVED Mrs. White -> Hall")
        screen.type("quit\n")
        screen.wait_for("BYE")
    saved = Path(data["XDG_DATA_HOME"]) / "clue-companion" / "console-history"
    assert saved.read_text().splitlines()[-2:] == ["move white hall", "quit"]
    with fake_table(tmp_path, data) as screen:
        screen.wait_for("> ")
        screen.type(UP + UP + "\n")  # past "quit" to the move
        screen.wait_for("MOVED Mrs. White -> Hall")
        screen.type("quit\n")
        screen.wait_for("BYE")


def test_a_log_line_mid_typing_leaves_the_typed_line_whole(tmp_path: Path, data: dict[str, str]) -> None:
    with fake_table(tmp_path, data) as screen:
        screen.wait_for("> ")
        screen.type("move whi")
        screen.wait_for("move whi")
        (tmp_path / "log-now").touch()
        shown = screen.wait_for('"event": "board link up"}')
        assert shown.endswith('\r\x1b[K' + shown[shown.rindex("{"):]), repr(shown)  # the prompt line erased first
        assert screen.wait_for("\n> move whi") == "\r\n> move whi"  # then the prompt and the typing again
        screen.type("te hall\n")
        screen.wait_for("MOVED Mrs. White -> Hall")
        screen.type("quit\n")
        screen.wait_for("BYE")


def test_after_a_log_line_the_cursor_is_back_where_it_was_in_the_line(tmp_path: Path, data: dict[str, str]) -> None:
    with fake_table(tmp_path, data) as screen:
        screen.wait_for("> ")
        screen.type("move whte hall" + LEFT * 7)  # the cursor after "wh", to put the missing "i" in
        screen.wait_for("move whte hall")
        time.sleep(0.3)  # readline has moved the cursor
        (tmp_path / "log-now").touch()
        screen.wait_for('"event": "board link up"}')
        assert screen.wait_for("\x1b[7D") == "\r\n> move whte hall\x1b[7D"
        screen.type("i\n")
        screen.wait_for("MOVED Mrs. White -> Hall")
        screen.type("quit\n")
        screen.wait_for("BYE")


def test_run_mock_is_played_from_the_terminal(tmp_path: Path, data: dict[str, str]) -> None:
    args = [sys.executable, "-m", "companion.cli", "run", "--mock", "--no-web", "--new", "--log-level", "WARNING"]
    with terminal(args, data) as screen:
        screen.wait_for("Type help for the console's commands")
        screen.wait_for("> ")
        screen.type("move sc" + TAB + "lou" + TAB + "\n")
        screen.wait_for("Lounge ")
        screen.type("status\n")
        status = screen.wait_for("stage: playing")
        assert "?" not in status and "Traceback" not in status
        screen.type("quit\n")


def test_the_history_file_keeps_only_the_latest_lines(tmp_path: Path) -> None:
    import io

    from companion.cli import terminal

    readline = terminal.load_readline()
    assert readline is not None, "readline is part of Python on Linux"
    path = tmp_path / "data" / "clue-companion" / "console-history"
    path.parent.mkdir(parents=True)
    path.write_text("".join(f"status {n}\n" for n in range(terminal.HISTORY_LENGTH + 100)))
    with terminal.history(readline, path, io.StringIO()):
        readline.add_history("move scarlet lounge")
    kept = path.read_text().splitlines()
    assert len(kept) == terminal.HISTORY_LENGTH
    assert kept[-2:] == [f"status {terminal.HISTORY_LENGTH + 99}", "move scarlet lounge"]
    assert terminal.history_path({"XDG_DATA_HOME": str(tmp_path / "data")}) == path
