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
    mp.run("port = usb(bytes(range(4, 104)))")
    assert mp.eval("[len(port.read()), len(port.read()), port.read()]") == [64, 36, None]


def test_usb_serial_leaves_what_follows_a_ctrl_c_for_the_repl(usb: MicroPython) -> None:
    mp = usb
    mp.run("port = usb(b'x\\r\\x03\\r\\x01')")  # mpremote's CR, Ctrl-C, CR, Ctrl-A
    assert mp.eval("[port.read(), into.read()]") == ["x\r\x03", "\r\x01"]
    mp.run("port.write(b'\\xa5\\x00')")
    assert mp.eval("out.getvalue() == b'\\xa5\\x00'") is True


def test_main_boots_says_hello_and_stops_on_ctrl_c(usb: MicroPython) -> None:
    mp = usb
    # No fake chips on the bus: all 16 readers read 0x00, so each is reported failed.
    mp.run("machine.reset_world()\nmain.UsbSerial = lambda: usb(b'\\r\\x03\\x03')\nmain.main()")
    got = Parser().feed(bytes.fromhex(mp.eval("out.getvalue().hex()")))
    assert [m.text for m in got if isinstance(m, Log)][0] == (
        "reader 0 (Kitchen): no module answers: check its cable (CS, 3.3 V, GND, MISO)")
    assert got[16] == Hello((1, 1), (1, 1, 0), 16, frozenset(), seq=16, board_id=bytes.fromhex("e66138104b2a252d"))
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


GUARD_FIRST = """
import sys, machine
machine.reset_world()
calls = []
class FakeMicroPython:  # records kbd_intr, and how many watchdogs existed at that moment
    def const(self, value):
        return value
    def kbd_intr(self, char):
        calls.append(('kbd_intr', char, len(machine.wdts)))
saved = (dict(sys.modules), list(sys.path))
sys.modules['micropython'] = FakeMicroPython()
for name in ('board', 'scanner', 'mfrc522', 'frames'):
    sys.modules.pop(name, None)
try:
    import os
    os.mkdir('/poison')
except OSError:
    pass
with open('/poison/scanner.py', 'w') as f:
    f.write('import machine\\ncalls.append(("import scanner", len(machine.wdts)))\\nraise RuntimeError("crashed while importing")')
sys.path.insert(0, '/poison')
import builtins
builtins.calls = calls
try:
    exec(open('/firmware/main.py').read(), {'__name__': '__main__'})
except RuntimeError as exc:
    calls.append(('raised', str(exc)))
finally:
    sys.modules.clear()
    sys.modules.update(saved[0])
    sys.path[:] = saved[1]
    del builtins.calls
"""


def test_ctrl_c_is_off_and_the_watchdog_armed_before_the_heavy_imports(mp: MicroPython) -> None:
    mp.run(GUARD_FIRST)
    assert mp.eval("calls") == [["kbd_intr", -1, 0], ["import scanner", 1], ["raised", "crashed while importing"]]
    # Nothing feeds that watchdog any more: a crash or hang while importing reboots the board.
    assert mp.eval("[machine.wdts[0].timeout, machine.wdts[0].feeds]") == [8000, 0]


def test_a_stop_on_an_rp2040_pauses_the_watchdog(mp: MicroPython) -> None:
    mp.run("import machine, main\nmachine.reset_world()\nwdt = machine.WDT(timeout=8000)\n"
           "main._stop(wdt, 'Raspberry Pi Pico with RP2040')")
    # WATCHDOG_BASE + 0x3000 (the atomic clear alias) <- CTRL.ENABLE: the watchdog stops counting.
    assert mp.eval("list(machine.mem32.written.items())") == [[0x4005B000, 1 << 30]]
    assert mp.eval("len(machine.timers)") == 0  # no timer needed, so none that a soft reset could end


def test_a_stop_elsewhere_feeds_the_watchdog_from_a_timer_until_a_soft_reset(mp: MicroPython) -> None:
    mp.run("import machine, main\nmachine.reset_world()\nwdt = machine.WDT(timeout=8000)\n"
           "main._stop(wdt, 'some other board')\nmachine.timers[-1].callback(None)")
    assert mp.eval("[wdt.feeds, machine.mem32.written]") == [1, {}]
