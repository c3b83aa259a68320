"""`clue-companion board-monitor` and `clue-companion virtual-board`, as a maker runs them."""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import serial

from companion.cli.board_monitor import drive, survey
from companion.cli.main import main
from hardware.virtual_board import VirtualBoard

CLI = [sys.executable, "-m", "companion.cli"]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}


@contextmanager
def virtual_board(*args: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`clue-companion virtual-board` in a subprocess, and the port it printed."""
    with subprocess.Popen([*CLI, "virtual-board", "--readers", "4", *args], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV) as board:
        assert board.stdout is not None
        try:
            yield board, board.stdout.readline().strip()
        finally:
            board.communicate("quit\n", timeout=10)
    assert board.returncode == 0


def _monitor_lines(port: str, duration: float, during=None) -> list[dict]:
    with subprocess.Popen([*CLI, "board-monitor", "--serial", port, "--duration", str(duration), "--settle", "0.05"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV) as monitor:
        if during:
            during()
        out, err = monitor.communicate(timeout=duration + 20)
    assert monitor.returncode == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_board_monitor_prints_the_link_and_each_tag_as_json_lines():
    with virtual_board("--firmware", "1.4.2") as (board, port):
        assert port.startswith("/dev/")
        lines = _monitor_lines(port, 3.5, lambda: _tap(board))
    events = [{k: v for k, v in line.items() if k != "t"} for line in lines]
    assert events == [
        {"event": "link_up", "port": port, "protocol": "1.1", "firmware": "1.4.2", "readers": 4,
         "working": [0, 1, 2, 3], "failed": [], "board_id": "7669727475616c30"},
        {"event": "placed", "reader": 2, "uid": "04:A2:1B:3C:5D:6E:80"},
        {"event": "removed", "reader": 2, "uid": "04:A2:1B:3C:5D:6E:80"},
    ]
    assert all(isinstance(line["t"], float) for line in lines)


def _tap(board: subprocess.Popen[str]) -> None:
    """Put a tag on reader 2 once the monitor is up, and lift it again."""
    assert board.stdin is not None
    time.sleep(1.5)
    board.stdin.write("place 04:A2:1B:3C:5D:6E:80 2\n")
    board.stdin.flush()
    time.sleep(0.6)
    board.stdin.write("remove 04:A2:1B:3C:5D:6E:80\n")
    board.stdin.flush()


def test_board_monitor_refuses_a_board_of_another_major_version():
    with virtual_board("--protocol", "2.0") as (_, port):
        lines = _monitor_lines(port, 1.5)
    assert lines[0]["event"] == "link_down"
    assert "protocol 2.0" in lines[0]["reason"] and "update the companion" in lines[0]["reason"]
    assert not any(line["event"] == "link_up" for line in lines)


def test_board_monitor_waits_for_a_port_that_is_not_there(tmp_path):
    lines = _monitor_lines(str(tmp_path / "ttyACM9"), 0.5)
    assert [line["event"] for line in lines] == ["link_down"]
    assert "is the board plugged in?" in lines[0]["reason"]


def test_permission_denied_on_the_port_is_a_clear_message_not_a_traceback(monkeypatch, capsys):
    def denied(port: str):
        raise serial.SerialException(errno.EACCES, f"could not open port {port}: [Errno 13] Permission denied")

    monkeypatch.setattr("hardware.board_link.open_port", denied)
    code = main(["board-monitor", "--serial", "/dev/ttyACM0", "--duration", "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert "permission denied opening /dev/ttyACM0" in err and "dialout" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("command, message", [
    ("jump 3", "unknown command 'jump'"),
    ("place 04:A2:1B:3C 9", "reader '9' is not one of 0..3"),
    ("place 04:A2 1", "4, 7 or 10 bytes"),
    ("remove", "remove needs remove UID"),
])
def test_the_virtual_board_console_explains_bad_commands(command, message):
    with VirtualBoard(readers=4) as board, pytest.raises(ValueError, match=message):
        drive(board, command)


def test_the_virtual_board_console_drives_the_board():
    with VirtualBoard(readers=4) as board:
        assert drive(board, "place 04:A2:1B:3C 1") == "ok"
        assert board.core.placed == {bytes.fromhex("04A21B3C"): 1}
        assert drive(board, "fail 2") == "ok" and board.core.failed == {2}
        assert drive(board, "unplug") == "ok" and not board.plugged
        assert drive(board, "replug").startswith("/dev/") and board.plugged
        assert drive(board, "leds") == "{}"


@pytest.mark.parametrize("args, message", [
    (["--readers", "0"], "a board has 1 to 255 readers"),
    (["--readers", "many"], "a board has 1 to 255 readers"),
    (["--firmware", "1.x"], "is not a version like 1.1.1"),
    (["--link", "/nonexistent-dir/clue-board"], "cannot start the virtual board"),
])
def test_virtual_board_refuses_bad_arguments_without_a_traceback(args, message):
    done = subprocess.run([*CLI, "virtual-board", *args], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, env=ENV, timeout=30)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def test_board_monitor_refuses_a_negative_settle_time(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["board-monitor", "--settle", "-1"])
    assert exit_.value.code == 2 and "seconds cannot be negative" in capsys.readouterr().err


def test_the_survey_reports_each_readers_read_rate_per_tag():
    with VirtualBoard(readers=3) as board:
        board.core.place(bytes.fromhex("04A21B3C"), 0)
        board.core.place(bytes.fromhex("04A21B3C5D6E80"), 2)
        out, err = io.StringIO(), io.StringIO()
        names = {"04:A2:1B:3C": "Miss Scarlet's mover"}.get
        assert survey(board.port, 0.5, out, err, names=names) == 0, err.getvalue()
        table = out.getvalue().splitlines()
        json_out = io.StringIO()
        assert survey(board.port, 0.3, json_out, err, as_json=True) == 0, err.getvalue()
    assert table[0].startswith("reader 0 (") and table[0].endswith(" scans)")
    assert table[1].split() == ["04:A2:1B:3C", "Miss", "Scarlet's", "mover", "100.0", "%"]
    assert table[2:4] == [table[2], "  no tag seen"] and table[2].startswith("reader 1 (")
    assert table[5].split() == ["04:A2:1B:3C:5D:6E:80", "(not", "enrolled)", "100.0", "%"]
    report = json.loads(json_out.getvalue())
    assert report["seconds"] == 0.3 and [r["reader"] for r in report["readers"]] == [0, 1, 2]
    counted = report["readers"][0]
    # Counting restarted at the start of this survey: only its own scans, each of which saw the tag.
    assert 0 < counted["scans"] == counted["tags"][0]["seen"] and counted["tags"][0]["piece"] is None


def test_the_survey_names_a_board_that_never_comes_up(tmp_path):
    err = io.StringIO()
    assert survey(str(tmp_path / "no-such-port"), 0.1, io.StringIO(), err, wait=0.5) == 1
    assert err.getvalue().startswith("clue-companion: survey: ")


def test_the_survey_names_the_pieces_enrolled_in_the_store_run_would_use(tmp_path):
    from companion.table.store import Store
    from companion.table.tags import Piece

    store = tmp_path / "games.db"
    with Store(store) as opened:
        opened.enrol("classic", "04:A2:1B:3C", Piece("mover", "Miss Scarlet"))
    with VirtualBoard(readers=2) as board:
        board.core.place(bytes.fromhex("04A21B3C"), 1)
        done = subprocess.run([*CLI, "board-monitor", "--serial", board.port, "--survey", "0.3", "--db", str(store)],
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              env={**ENV, "CLUE_COMPANION_CONFIG": ""}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"survey: piece names from {store} (Classic CLUE)" in done.stderr
    row = next(line for line in done.stdout.splitlines() if "04:A2:1B:3C" in line)
    assert "Miss Scarlet" in row and "100.0 %" in " ".join(row.split()[-2:])
