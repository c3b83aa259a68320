"""``clue-companion doctor``: each check says what it saw and, for a problem, the fix; exit 1 on a problem."""

from __future__ import annotations

import argparse
import json
import logging
import os
import pty
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from serial.tools import list_ports

from companion.cli import doctor as doctor_command
from companion.table.store import Store
from hardware.protocol import Log, encode
from hardware.virtual_board import VirtualBoard

PIN = "284617"
REPO_CONFIG = Path(__file__).resolve().parents[3] / "tools/pi/clue-companion.toml"


def doctor(capsys, *argv: str, web_port: str | None = "0") -> tuple[int, str]:
    """Run ``clue-companion doctor ARGV`` (through its own parser, as main registers it); exit code and output.

    The web check looks at ``--port web_port``: 0 (any free port) by default, which no other test
    can take meanwhile (a port found free and released could be, under load); None: the config's.
    """
    parser = argparse.ArgumentParser()
    doctor_command.add_parser(parser.add_subparsers())
    args = parser.parse_args(["doctor", *argv, *(["--port", web_port] if web_port is not None else [])])
    code = args.command(args)
    out, err = capsys.readouterr()
    assert err == ""
    return code, out


@pytest.fixture
def setup(tmp_path, monkeypatch) -> Path:
    """A config with a store in ``tmp_path``; no board in the environment, none on USB.

    Its web port is checked only by tests that say so (``doctor(..., web_port=None)``).
    """
    for name in ("CLUE_COMPANION_CONFIG", "CLUE_COMPANION_DB", "CLUE_BOARD_PORT"):
        monkeypatch.delenv(name, raising=False)
    for name, folder in (("HOME", "home"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config")):
        monkeypatch.setenv(name, str(tmp_path / folder))  # nothing read or written in the real home
    monkeypatch.setattr(list_ports, "comports", lambda: [])
    config = tmp_path / "clue.toml"
    config.write_text(f'[store]\npath = "{tmp_path / "companion.db"}"\n\n[web]\nport = 8000\n')
    return config


def line(out: str, check: str) -> str:
    """The finding's first line and what follows it, up to the next finding."""
    block = out[out.index(f" {check}: ") - 1:].split("\n\n")[0]
    ends = [block.index(f"\n{mark} ") for mark in "✓!✗" if f"\n{mark} " in block]
    return block[:min(ends)] if ends else block


def test_without_a_board_it_names_the_missing_board_and_the_fix(capsys, setup):
    code, out = doctor(capsys, "--config", str(setup))
    assert code == 1
    board = line(out, "board")
    assert board.startswith("✗ board: no board found: no USB serial device with vendor ID 0x2E8A")
    assert "fix: plug the Pico in by USB" in board and "Flashing the firmware" in board
    assert out.rstrip().endswith("problem found.")


def test_the_virtual_board_shows_its_firmware_and_the_reader_that_failed(capsys, setup):
    with VirtualBoard(readers=4, firmware=(1, 2, 3)) as board:
        board.fail_reader(2)
        time.sleep(0.3)  # the board notices at its next scan
        code, out = doctor(capsys, "--config", str(setup), "--serial", board.port)
    board_line = line(out, "board")
    assert board_line.startswith(f"! board: {board.port}: firmware 1.2.3, protocol 1.")
    assert "4 readers, not answering: 2" in board_line and "fix: check those readers' wiring" in board_line
    assert code == 0, out  # a failed reader is a warning; the rest is fine


def test_a_device_that_only_logs_has_no_handshake_and_its_log_is_shown(capsys, setup):
    controller, device = pty.openpty()
    port = os.ttyname(device)
    stop = threading.Event()

    def crash_loop() -> None:  # a Pico whose firmware crashes at boot: log lines, never a HELLO
        while not stop.is_set():
            os.write(controller, encode(Log("error", "main.py line 12: ImportError: no module named 'mfrc522'")))
            time.sleep(0.05)

    writer = threading.Thread(target=crash_loop, daemon=True)
    writer.start()
    try:
        code, out = doctor(capsys, "--config", str(setup), "--serial", port, "--wait", "1")
    finally:
        stop.set()
        writer.join()
        os.close(controller)
        os.close(device)
    board = line(out, "board")
    assert code == 1
    assert board.startswith(f"✗ board: no handshake from {port} in 1 s: it sent ")
    assert "board log (error): main.py line 12: ImportError: no module named 'mfrc522'" in board
    assert "fix: is it the CLUE board, running its firmware?" in board


def test_a_store_in_use_names_the_process_holding_it(capsys, setup, tmp_path):
    db = tmp_path / "companion.db"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from companion.table.store import Store\n"
         f"with Store({str(db)!r}): print('open', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "open\n"
        code, out = doctor(capsys, "--config", str(setup))
    finally:
        holder.communicate("", timeout=10)
    store = line(out, "store")
    assert store.startswith(f"✓ store: {db} (from {setup} [store] path)")
    assert f"0 games; integrity ok; in use by process {holder.pid}" in store


def test_a_free_store_lists_its_unfinished_game(capsys, setup, tmp_path):
    from companion.rules.actions import Roll, Setup

    with Store(tmp_path / "companion.db") as store:
        game = store.new_game(Setup("classic", ("Miss Scarlet", "Mr. Green", "Mrs. White")), {})
        store.append(game, 1, Roll("Miss Scarlet", (4,)))
    code, out = doctor(capsys, "--config", str(setup))
    store_line = line(out, "store")
    assert "1 game; integrity ok; not in use" in store_line
    assert "unfinished: game 1 (classic, 1 actions" in store_line


@pytest.mark.parametrize("damage", ["not sqlite", "torn page"])
def test_a_damaged_store_fails_with_the_way_out(capsys, setup, tmp_path, damage):
    db = tmp_path / "companion.db"
    if damage == "not sqlite":
        db.write_bytes(b"this is not a database" * 100)
    else:
        with Store(db) as store:
            for n in range(200):
                store.set_setting(f"key{n}", "x" * 200)
        data = bytearray(db.read_bytes())
        for page in range(1, len(data) // 4096):  # every page's header but the file's own: torn writes
            data[page * 4096: page * 4096 + 12] = b"\x07" * 12
        db.write_bytes(bytes(data))
    code, out = doctor(capsys, "--config", str(setup))
    store = line(out, "store")
    assert code == 1 and store.startswith(f"✗ store: {db} (from {setup} [store] path): ")
    assert f"fix: stop the companion, keep the damaged file aside (mv {db} {db}.damaged)" in store


def test_the_config_pin_is_shown_to_the_shell_and_never_logged(capsys, caplog, setup):
    setup.write_text(setup.read_text() + f'pin = "{PIN}"\n')
    caplog.set_level(logging.DEBUG)
    code, out = doctor(capsys, "--config", str(setup))
    assert line(out, "host PIN").strip() == f"✓ host PIN: {PIN} (from {setup} [web] pin)"
    assert out.count(PIN) == 1 and not any(PIN in record.getMessage() for record in caplog.records)


def test_the_stored_pin_is_shown_when_the_config_has_none(capsys, setup, tmp_path):
    with Store(tmp_path / "companion.db") as store:
        store.set_setting("host_pin", PIN)
    _, out = doctor(capsys, "--config", str(setup))
    assert line(out, "host PIN").strip() == f"✓ host PIN: {PIN} (from {tmp_path / 'companion.db'})"


def test_a_guessable_config_pin_is_a_problem_not_shown(capsys, setup):
    setup.write_text(setup.read_text() + 'pin = "12"\n')
    code, out = doctor(capsys, "--config", str(setup))
    assert code == 1
    assert line(out, "host PIN").startswith(f"✗ host PIN: {setup} [web] pin: The host PIN must be")


def test_json_lists_every_finding(capsys, setup):
    code, out = doctor(capsys, "--config", str(setup), "--json")
    report = json.loads(out)
    assert code == 1 and report["ok"] is False
    checks = [finding["check"] for finding in report["findings"]]
    assert checks[:3] == ["config", "board", "store"] and {"web", "service", "host PIN"} <= set(checks)
    board = report["findings"][1]
    assert board["status"] == "fail" and board["fix"].startswith("plug the Pico in by USB")


def test_the_web_port_in_use_by_another_program_is_a_problem(capsys, setup, tmp_path):
    with socket.socket() as other:
        other.bind(("0.0.0.0", 0))
        other.listen()
        port = other.getsockname()[1]
        setup.write_text(f'[store]\npath = "{tmp_path / "companion.db"}"\n\n[web]\nport = {port}\n')
        code, out = doctor(capsys, "--config", str(setup), web_port=None)
        assert line(out, "web").startswith(f"✗ web: port {port}: in use by another program")
        code, out = doctor(capsys, "--config", str(setup), web_port=str(port))  # --port: as run's
        assert line(out, "web").startswith(f"✗ web: port {port}: in use by another program")


def test_a_missing_config_says_it_does_not_exist_and_how_to_make_one(capsys, setup, tmp_path):
    missing = tmp_path / "missing.toml"
    code, out = doctor(capsys, "--config", str(missing))
    config = line(out, "config")
    assert code == 1
    assert config.startswith(f"✗ config: {missing} (from --config) does not exist")
    assert f"fix: make it: cp hardware/clue-companion.example.toml {missing}" in config
    assert "fix: edit" not in config


def test_the_old_port_for_the_board_is_refused_naming_serial(capsys, setup):
    from companion.cli.main import main

    with pytest.raises(SystemExit) as exited:
        main(["doctor", "--config", str(setup), "--port", "/dev/ttyACM0"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--port is the web page's port (a number); the board's serial device is --serial /dev/ttyACM0" in err


def test_an_unreadable_config_sends_the_user_to_the_service_user_and_checks_no_default_store(capsys, setup):
    setup.write_text("[web]\nport = [\n")  # stands for any config that cannot be loaded
    code, out = doctor(capsys, "--config", str(setup))
    assert code == 1 and line(out, "config").startswith(f"✗ config: {setup}: not valid TOML")
    assert line(out, "store").startswith("✗ store: not checked: the config that names it could not be read")


class FakeBus:
    """An I2C bus with a TCA9548A at 0x70 (if ``mux``) and displays at 0x3C behind ``displays`` channels."""

    def __init__(self, displays: set[int], mux: bool = True) -> None:
        self.displays, self.mux = displays, mux
        self.register = 0b1000_0000  # channel 7 on, as something else left it
        self.closed = False

    def read_byte(self, address: int) -> int:
        if address != 0x70 or not self.mux:
            raise OSError(121, "Remote I/O error")
        return self.register

    def write_byte(self, address: int, value: int) -> None:
        self.read_byte(address)
        self.register = value

    def write_quick(self, address: int) -> None:
        if address != 0x3C or not any(self.register == 1 << channel for channel in self.displays):
            raise OSError(121, "Remote I/O error")

    def close(self) -> None:
        self.closed = True


def test_the_handhelds_seen_through_the_multiplexer_are_named_and_its_channel_put_back(tmp_path):
    from companion.cli.doctor_board import check_buses
    from hardware.hardware_config import load_hardware_config

    (tmp_path / "i2c-1").touch()  # /dev/i2c-1: I2C enabled
    config = load_hardware_config(REPO_CONFIG)
    bus = FakeBus({0, 1, 3})
    i2c, spi, handhelds = check_buses(config, None, dev=tmp_path, open_bus=lambda port: bus)
    assert i2c.status == "ok" and spi.status == "warn" and "do_spi 0" in spi.fix
    assert handhelds.status == "warn"
    assert handhelds.text == ("display 0x3C answers for seat 1 (channel 0), seat 2 (channel 1), seat 4 (channel 3); "
                              "not for seat 3 (channel 2): no display 0x3C")
    assert bus.register == 0b1000_0000 and bus.closed

    missing = check_buses(config, None, dev=tmp_path, open_bus=lambda port: FakeBus(set(), mux=False))[2]
    assert missing.status == "fail" and missing.text.startswith("no TCA9548A multiplexer answers at 0x70")
    running = check_buses(config, 4242, dev=tmp_path, open_bus=lambda port: 1 / 0)[2]
    assert running.text == "not probed: the running companion (process 4242) draws on the bus"


def test_run_as_root_it_checks_the_store_as_its_owner_and_leaves_no_root_files_beside_it(capsys, setup):
    """``sudo clue-companion doctor`` must not leave root's SQLite -wal/-shm files the service cannot write."""
    state = Path(tempfile.mkdtemp(prefix="clue-state-"))  # under /tmp, which any user may enter (pytest's is 0700)
    try:
        with Store(state / "companion.db") as store:
            store.set_setting("host_pin", PIN)
        owner = 65534 if os.geteuid() == 0 else os.geteuid()  # nobody, when the test runs as root (as in CI)
        for path in (state, *state.iterdir()):
            os.chown(path, owner, owner)
        code, out = doctor(capsys, "--config", str(setup), "--db", str(state / "companion.db"))
        assert line(out, "store").startswith(f"✓ store: {state / 'companion.db'}")
        assert f"✓ host PIN: {PIN} (from {state / 'companion.db'})" in out
        assert sorted(p.name for p in state.iterdir() if p.stat().st_uid != owner) == []
    finally:
        shutil.rmtree(state)


def test_as_root_the_store_checks_run_as_the_stores_owner(tmp_path):
    """Root's checks would say "writable" for a store the service's user cannot write, and a doctor killed
    mid-check would leave root-owned -wal/-shm files: so they run as the owner (this machine's CI runs as root)."""
    store = tmp_path / "companion.db"
    store.write_bytes(b"")
    owner = 65534 if os.geteuid() == 0 else os.geteuid()
    os.chown(store, owner, owner)
    assert doctor_command.as_owner(store, lambda: (os.geteuid(), os.getegid())) == (owner, owner)
    with pytest.raises(ZeroDivisionError):  # a check that fails as the owner fails here too
        doctor_command.as_owner(store, lambda: 1 // 0)


def test_in_a_chroot_without_systemd_running_the_service_is_said_to_start_at_boot(monkeypatch, tmp_path):
    monkeypatch.setattr(doctor_command.shutil, "which", lambda name: "/usr/bin/systemctl")
    monkeypatch.setattr(doctor_command, "_systemctl", lambda verb: {"is-enabled": "enabled"}[verb])
    monkeypatch.setattr(doctor_command, "SYSTEMD_RUNNING", tmp_path / "no-systemd")
    finding = doctor_command.check_service()
    assert (finding.status, finding.text) == ("warn", "clue-companion.service enabled; systemd is not running here "
                                                      "(a chroot or container)")


def test_ten_seats_on_two_multiplexers_with_button_expanders_are_probed_one_channel_at_a_time(tmp_path):
    """The 10-seat layout of the example config: seats 1-8 behind 0x70, 9-10 behind 0x71, each with an MCP23008."""
    from companion.cli.doctor_board import check_buses
    from hardware.hardware_config import load_hardware_config
    from hardware.i2c_mock import mock_bus

    (tmp_path / "i2c-1").touch()
    text = REPO_CONFIG.read_text()
    lines = [line[2:] for line in text[text.index("# Ten seats"):].splitlines()
             if re.match(r"# (\[\[|seat =|channel =|mux_address =|expander_address =)", line)]
    path = tmp_path / "ten.toml"
    path.write_text('[handhelds]\nbuttons = "expander"\n' + "\n".join(lines) + "\n")
    config = load_hardware_config(path)
    assert len(config.handhelds.seats) == 10 and config.handhelds.muxes() == (0x70, 0x71)
    bus = mock_bus(config.handhelds)
    bus.mux(0x70).write(bytes([0b100]))  # something left channel 2 on
    nine = next(w for w in config.handhelds.seats if w.seat == 9)
    bus.unplug(config.handhelds.mux_for(nine), nine.channel)
    handhelds = check_buses(config, None, dev=tmp_path, open_bus=lambda port: bus)[2]
    assert handhelds.status == "warn"
    assert "not for seat 9 (0x71 channel" in handhelds.text and handhelds.text.count("seat ") == 10
    assert bus.mux(0x70).read(1) == bytes([0b100]) and bus.mux(0x71).read(1) == b"\x00"  # put back as found
    assert bus.collisions == 0 and bus.most_channels_on == 1
