"""The documented Pi set-up enrols tags into the store the service plays from.

docs/install.md: the installer writes ``tools/pi/clue-companion.toml`` to
/etc/clue-companion.toml and installs ``tools/pi/clue-companion.service``; the
maker enrols with ``sudo -u clue clue-companion enroll``; the service runs the
unit's ExecStart with its Environment=. Here a temporary root stands for / (the
shipped files' /etc and /var/lib paths are rewritten into it), and a virtual
board on a pty for the Pico on USB.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo
from test_enroll_command import UIDS, Hand, mover_taps

from companion.cli import where
from companion.cli.main import main
from companion.table.store import Store, StoreError
from hardware.board_core import BoardTiming
from hardware.virtual_board import VirtualBoard

REPO = Path(__file__).resolve().parents[3]
UNIT = REPO / "tools/pi/clue-companion.service"
CONFIG = REPO / "tools/pi/clue-companion.toml"
SCARLET = UIDS["Miss Scarlet"]


def unit_service() -> tuple[dict[str, str], list[str]]:
    """The unit's Environment= variables and ExecStart= words."""
    environment: dict[str, str] = {}
    command: list[str] = []
    for line in UNIT.read_text().splitlines():
        key, _, value = line.partition("=")
        if key == "Environment":
            for word in shlex.split(value):
                name, _, setting = word.partition("=")
                environment[name] = setting
        elif key == "ExecStart":
            command = shlex.split(value)
    return environment, command


def rooted(text: str, root: Path) -> str:
    """``text`` with the install's absolute /etc and /var/lib paths moved under ``root``."""
    return re.sub(r"(?<![\w/])/(etc|var/lib)/", lambda m: f"{root}/{m.group(1)}/", text)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def install(root: Path, web_port: int) -> Path:
    """What the installer does that matters here: the config in (root)/etc, the state folder, the clue user's home."""
    config = root / "etc/clue-companion.toml"
    config.parent.mkdir(parents=True)
    text = rooted(CONFIG.read_text(), root)
    config.write_text(re.sub(r"(?m)^port = 8000$", f"port = {web_port}", text))  # [web] port: a free one here
    (root / "var/lib/clue-companion").mkdir(parents=True, mode=0o700)  # the unit's StateDirectory=
    (root / "home/clue").mkdir(parents=True)
    return config


def usb_pico(port: str) -> ListPortInfo:
    """The virtual board as pyserial would list a Pico on USB (vendor ID 0x2E8A)."""
    info = ListPortInfo(port, skip_link_detection=True)
    info.vid, info.pid = 0x2E8A, 0x0005
    return info


def test_enrol_as_documented_then_the_service_plays_from_that_store(tmp_path, monkeypatch):
    environment, command = unit_service()
    assert command[1:] == ["run", "--no-console", "--log-json"] and "CLUE_COMPANION_DB" not in environment
    assert environment["CLUE_COMPANION_CONFIG"] == str(where.SYSTEM_CONFIG)
    root = tmp_path / "root"
    config = install(root, free_port())
    store = rooted("/var/lib/clue-companion/companion.db", root)
    home = root / "home/clue"

    with VirtualBoard(readers=24, timing=BoardTiming(debounce=0.015)) as board:
        # 1. `sudo -u clue clue-companion enroll`: sudo's login environment has none of our variables;
        #    enroll finds the system config as run does, and the board by its USB vendor ID.
        monkeypatch.setattr(where, "SYSTEM_CONFIG", root / "etc/clue-companion.toml")
        for name in ("CLUE_COMPANION_CONFIG", "CLUE_COMPANION_DB", "CLUE_BOARD_PORT", "XDG_DATA_HOME",
                     "CLUE_COMPANION_SYSTEM_CONFIG"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("HOME", str(home))
        monkeypatch.setattr(list_ports, "comports", lambda: [usb_pico(board.port)])
        hand = Hand(board, mover_taps())
        monkeypatch.setattr(sys, "stdout", hand)
        assert main(["enroll", "--only", "movers", "--settle", "0.03", "--timeout", "5"]) == 0
        monkeypatch.setattr(sys, "stdout", sys.__stdout__)
        assert hand.lines[-1] == "Enrolled 6 of 6 pieces"
        enrolled_in = f"clue-companion: store {store} (from {config} [store] path)"
        assert not (home / ".local").exists()  # nothing went to the clue user's default store

        # 2. The service: exactly the unit's Environment= and ExecStart= arguments, as systemd starts it
        #    (User=clue: HOME; WorkingDirectory=: the state folder). CLUE_BOARD_PORT stands in for finding
        #    the Pico by USB ID, which a pty cannot fake in another process.
        board.place(SCARLET, 0)  # her mover, left on the Kitchen's reader
        env = {"PATH": os.environ["PATH"], "HOME": str(home), "PYTHONPATH": str(REPO),
               **{name: rooted(value, root) for name, value in environment.items()},
               "CLUE_BOARD_PORT": board.port}
        with subprocess.Popen([sys.executable, "-m", "companion.cli", *command[1:]],
                              cwd=root / "var/lib/clue-companion", env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as service:
            try:
                _plays_from(service, store, enrolled_in)
            finally:
                service.send_signal(signal.SIGTERM)
                service.wait(timeout=20)
    assert service.returncode == 0


def _plays_from(service: subprocess.Popen[str], store: str, enrolled_in: str) -> None:
    """The service says it uses ``store`` for the same reason enroll did, holds it, and knows its tags."""
    said = _read_until(service, "clue-companion: web page on ")
    assert said[0] == enrolled_in
    with Store(store, exclusive=False) as seen:  # an observer beside the service
        assert set(dict(seen.tag_map("classic").items())) == set(UIDS.values())
    try:
        Store(store).open()
    except StoreError as err:
        assert str(err) == f"the store {store} is in use by process {service.pid}"
    else:
        raise AssertionError("the service does not hold the store it printed")
    url = re.search(r"web page on (http://\S+?)[ /]", said[-1])
    assert url
    # The service knows the tag on the Kitchen's reader is Miss Scarlet's mover: it was enrolled.
    differences = _board_differences(url.group(1).replace("0.0.0.0", "127.0.0.1"),
                                     lambda text: text.startswith("Miss Scarlet's mover") and "Kitchen" in text)
    assert any(text.startswith("Miss Scarlet's mover") and "Kitchen" in text for text in differences), differences


def _read_until(process: subprocess.Popen[str], start: str) -> list[str]:
    assert process.stdout is not None
    lines: list[str] = []
    while not lines or not lines[-1].startswith(start):
        line = process.stdout.readline()
        assert line, "the service stopped early:\n" + "".join(lines)
        lines.append(line.rstrip("\n"))
    return lines


def _board_differences(base: str, wanted: Callable[[str], bool]) -> list[str]:
    """What the table page says to fix on the board, once it says what is ``wanted``.

    The link takes a moment to come up, and each tag of the snapshot its settle time (a real
    board's, 0.25 s: the service is not on mock hardware), so the first differences shown may
    be the weapons' alone.
    """
    deadline = time.monotonic() + 15
    while True:
        with urllib.request.urlopen(base + "/api/table", timeout=10) as answer:
            view = json.load(answer)
        differences = list(view["board"]["differences"])
        if any(wanted(text) for text in differences) or time.monotonic() > deadline:
            return differences
        time.sleep(0.2)
