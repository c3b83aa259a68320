"""firmware/main.py itself: the USB transport and main() from boot to a Ctrl-C stop."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fw_fixtures import mp  # noqa: F401 - pytest fixture
from hardware.protocol import Hello, Log, Parser
from mpy_runner import MicroPython, MicroPythonError

FAKE_USB = """
import io, machine, main
real = (main.UsbSerial, main.build)
class Poller:
    def register(self, stream, events):
        self.stream = stream
    def poll(self, timeout):
        return [1] if self.stream.tell() < len(self.stream.getvalue()) else []
def usb(data=b""):
    global into, out
    into, out = io.BytesIO(data), io.BytesIO()
    return real[0](into, out, Poller())
"""


@pytest.fixture
def usb(mp: MicroPython) -> Iterator[MicroPython]:
    """``usb(data)`` on MicroPython: a UsbSerial on in-memory streams ``into`` and ``out``."""
    mp.run(FAKE_USB)
    yield mp
    mp.run("main.UsbSerial, main.build = real")


def test_usb_serial_reads_what_is_there_without_waiting(usb: MicroPython) -> None:
    mp = usb
    mp.run("port = usb(bytes(range(100)))")
    assert mp.eval("[len(port.read()), len(port.read()), port.read()]") == [64, 36, None]
    mp.run("port.write(b'\\xa5\\x00')")
    assert mp.eval("out.getvalue() == b'\\xa5\\x00'") is True


def test_main_boots_says_hello_and_stops_on_ctrl_c(usb: MicroPython) -> None:
    mp = usb
    # No fake chips on the bus: all 16 readers read 0x00, so each is reported failed.
    mp.run("machine.reset_world()\nmain.UsbSerial = lambda: usb(b'\\r\\x03\\x03')\nmain.main()")
    got = Parser().feed(bytes.fromhex(mp.eval("out.getvalue().hex()")))
    assert [m.text for m in got if isinstance(m, Log)][0] == (
        "reader 0 (Kitchen): no answer on SPI: check its CS, 3.3 V, GND and MISO")
    assert got[16] == Hello((1, 0), (1, 0, 0), 16, frozenset(), seq=16)
    assert len(got) == 17
    assert mp.eval("[machine.wdts[-1].timeout, machine.wdts[-1].feeds, len(machine.timers)]") == [8000, 1, 1]


def test_main_logs_a_board_it_cannot_build_then_resets(usb: MicroPython) -> None:
    mp = usb
    mp.run("main.UsbSerial = lambda: usb()\n"
           "def bad_build(transport):\n    raise ValueError('more readers than CS pins: set DECODER in config.py')\n"
           "main.build = bad_build")
    with pytest.raises(MicroPythonError, match="Reset"):
        mp.run("main.main()")
    (log,) = Parser().feed(bytes.fromhex(mp.eval("out.getvalue().hex()")))
    assert isinstance(log, Log) and log.level == "error" and log.seq == 0
    assert log.text.startswith("crashed, resetting: ValueError: more readers than CS pins: set DECODER in config.py")
