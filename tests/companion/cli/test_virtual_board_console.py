"""`clue-companion virtual-board`'s console: a one-line reason for every bad line, and `help`."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from companion.cli.board_monitor import COMMANDS, drive, help_text
from hardware.virtual_board import VirtualBoard

CLI = [sys.executable, "-m", "companion.cli"]
BAD = {
    "jump 3": "error: unknown command 'jump'; try help, or one of: place, remove,",
    "place": "error: place needs place UID READER, e.g. place 04:A2:1B:3C 2",
    "place 04:A2:1B:3C": "error: place needs place UID READER, e.g. place 04:A2:1B:3C 2",
    "place 04:A2:1B:3C 2 7": "error: too many words for place UID READER, e.g. place 04:A2:1B:3C 2",
    "place zz:A2:1B:3C 2": "error: 'zz:A2:1B:3C' is not a tag UID: hex bytes like 04:A2:1B:3C",
    "place 04:A2 2": "error: a tag UID has 4, 7 or 10 bytes, not 2: '04:A2'",
    "place 04:A2:1B:3C 9": "error: reader '9' is not one of 0..3",
    "remove 04:A2:1B:3": "error: '04:A2:1B:3' is not a tag UID: hex bytes like 04:A2:1B:3C",
    "fail -1": "error: reader '-1' is not one of 0..3",
    "garbage lots": "error: 'lots' is not a count: a whole number like 3",
    "drop 1.5": "error: '1.5' is not a count: a whole number like 3",
    "slow fast": "error: 'fast' is not a speed: bytes per second like 200, or 0 for full speed",
    "slow -5": "error: '-5' is not a speed: bytes per second like 200, or 0 for full speed",
    "slow inf": "error: 'inf' is not a speed: bytes per second like 200, or 0 for full speed",
    "leds now": "error: too many words for leds, e.g. leds",
}


def test_bad_lines_on_standard_input_get_one_line_reasons() -> None:
    script = "\n".join([*BAD, "help", "place 04:a2:1b:3c 2", "QUIT"]) + "\n"
    done = subprocess.run([*CLI, "virtual-board", "--readers", "4"], input=script, capture_output=True, text=True,
                          timeout=30, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert done.returncode == 0, done.stderr
    port, *answers = done.stdout.splitlines()
    assert port.startswith("/dev/")
    bad = answers[:len(BAD)]
    for line, answer in zip(BAD, bad):
        assert answer.startswith(BAD[line]), (line, answer)
    assert answers[len(BAD):] == [*help_text().splitlines(), "ok"]
    assert "Traceback" not in done.stdout + done.stderr and "Error" not in done.stdout


def test_help_lists_every_command_with_an_example() -> None:
    lines = help_text().splitlines()
    assert len(lines) == len(COMMANDS)
    for line, (word, command) in zip(lines, COMMANDS.items()):
        assert line.startswith(word) and line.endswith(f"e.g. {command.example}")


@pytest.mark.parametrize("word", [word for word in COMMANDS if word != "quit"])
def test_every_example_in_help_works(word: str) -> None:
    with VirtualBoard(readers=4) as board:
        assert drive(board, COMMANDS[word].example)
