"""Updating an installed board: the real mpremote (PyPI) against firmware/main.py running behind a pty.

The firmware runs on MicroPython's WebAssembly build (mpy_runner.SerialMicroPython):
mpremote's own raw-REPL entry (CR, Ctrl-C, CR, Ctrl-A: transport_serial.py,
enter_raw_repl) must stop it, and MicroPython's REPL then takes the port, so
``cp``, ``exec`` and ``ls`` work as on a Pico. What differs from a Pico: the
soft reset is the runner's (it prints the rp2 port's "MPY: soft reboot" and
stops the fake machine's timers) and raw-paste mode is not offered (see
mpy_runner.mjs).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hardware.protocol import Hello, Log, Parser
from mpy_runner import SerialMicroPython


@pytest.fixture
def pico() -> Iterator[SerialMicroPython]:
    with SerialMicroPython() as board:
        yield board


def mpremote(port: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mpremote", "connect", port, *args],
                          capture_output=True, text=True, timeout=60, check=False)


def test_mpremote_stops_the_firmware_and_copies_a_file(pico: SerialMicroPython, tmp_path: Path) -> None:
    source = tmp_path / "greeting.py"
    source.write_text("TEXT = 'copied by mpremote'\n" + "# padding\n" * 60)  # over one 256-byte chunk
    done = mpremote(pico.port, "cp", str(source), ":greeting.py")
    assert done.returncode == 0, done.stdout + done.stderr
    # The file is in MicroPython's file system, byte for byte.
    assert pico.eval("open('greeting.py').read()") == source.read_text()
    # Before mpremote stopped it, the firmware was running: it had said HELLO on the port.
    said = Parser().feed(bytes(pico.eval("list(firmware_out)")))
    assert any(isinstance(m, Hello) and m.board_id for m in said)
    assert not [m for m in said if isinstance(m, Log) and m.level == "error" and "crashed" in m.text]
    # Stopped on an emulated rp2040 it would have paused the watchdog; here a timer feeds it.
    assert pico.eval("[len(machine.timers), machine.timers[0].callback is None]", "import machine") == [1, True]


def test_mpremote_exec_and_ls_after_the_stop(pico: SerialMicroPython, tmp_path: Path) -> None:
    source = tmp_path / "piece.py"
    source.write_text("NAME = 'Mustard'\n")
    done = mpremote(pico.port, "cp", str(source), ":piece.py", "+", "exec", "import piece; print(piece.NAME * 2)",
                    "+", "ls", ":")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "MustardMustard" in done.stdout
    assert "piece.py" in done.stdout
    # A second connection finds the REPL straight away (the firmware stays stopped until a reset).
    again = mpremote(pico.port, "exec", "print(6 * 7)")
    assert again.returncode == 0 and again.stdout.strip() == "42", again.stdout + again.stderr
