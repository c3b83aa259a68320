"""firmware/main.py itself: the USB transport and main() from boot to a Ctrl-C stop."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fw_fixtures import mp  # noqa: F401 - pytest fixture
from hardware.protocol import Hello, HelloRequest, Log, Parser, encode
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


def test_a_board_that_cannot_be_built_says_why_in_safe_mode_and_stops_for_the_repl(usb: MicroPython) -> None:
    mp = usb
    mp.run("machine.reset_world()\nmain.UsbSerial = lambda: usb(b'\\r\\x03\\r\\x01')\n"
           "def bad_build(transport):\n    raise ValueError('more readers than CS pins: set DECODER in config.py')\n"
           "main.build = bad_build")
    # No reset: main() ends with the error itself, which the REPL shows once mpremote is in.
    with pytest.raises(MicroPythonError, match="ValueError: more readers than CS pins"):
        mp.run("main.main()")
    (log,) = Parser().feed(bytes.fromhex(mp.eval("out.getvalue().hex()")))
    assert log == Log("error", "safe mode, not scanning: ValueError: more readers than CS pins: set DECODER in "
                      'config.py (File "<string>", line 4, in bad_build); fix it, then reset the board', seq=0)
    assert mp.eval("into.read()") == "\r\x01"  # mpremote's CR, Ctrl-A are left for the raw REPL
    # The watchdog was fed, then left to a timer (not an RP2040/RP2350 here: see the stop tests).
    assert mp.eval("[machine.wdts[-1].feeds > 0, len(machine.timers)]") == [True, 1]


SAFE_MODE = """
import fake_tags, machine, main
machine.reset_world()
clock = fake_tags.VirtualClock()
class Port:  # the host's bytes at given times (ms), and what the board wrote
    def __init__(self, script):
        self.script = list(script)
        self.out = bytearray()
        self.times = []
    def read(self):
        now = clock.ticks_ms()
        if self.script and self.script[0][0] <= now:
            return self.script.pop(0)[1]
        return None
    def write(self, data):
        self.out.extend(data)
        self.times.append(clock.ticks_ms())
wdt = machine.WDT(timeout=8000)
"""


def hello_requests(times_ms: list[int]) -> str:
    """(time, frame) pairs of HELLO_REQUESTs with seq 0, 1, 2, ... (seq 3 is a 0x03 inside a frame)."""
    pairs = [(t, encode(HelloRequest((1, 1), seq=i))) for i, t in enumerate(times_ms)]
    return "[" + ", ".join(f"({t}, {frame!r})" for t, frame in pairs) + "]"


def test_safe_mode_answers_hello_requests_with_its_error_at_most_every_two_seconds(mp: MicroPython) -> None:
    script = hello_requests([500, 1500, 2500, 3500, 4500, 5500])
    mp.run(SAFE_MODE
           + f"port = Port({script} + [(5800, b'\\r\\x03')])\n"
           "main.safe_mode(OSError(5), wdt, port, clock)")
    got = Parser().feed(bytes.fromhex(mp.eval("port.out.hex()")))
    assert got == [Log("error", "safe mode, not scanning: OSError: [Errno 5] EIO; fix it, then reset the board", seq=i)
                   for i in range(3)]
    # At once, then for the requests (the 0x03 in the fourth one's SEQ did not stop it) every 2 s.
    assert mp.eval("port.times") == [0, 2000, 4000]
    assert mp.eval("[clock.ticks_ms(), wdt.feeds]") == [5800, 581]  # fed every 10 ms pass


def test_safe_mode_gives_up_a_half_frame_and_then_stops(mp: MicroPython) -> None:
    # A companion killed while writing a frame: A5, LEN 2, HELLO_REQUEST type, then nothing.
    mp.run(SAFE_MODE
           + "port = Port([(100, b'\\xa5\\x02\\x81'), (200, b'\\r\\x03'), (400, b'\\r\\x03')])\n"
           "main.safe_mode(ValueError('x'), wdt, port, clock)")
    assert mp.eval("clock.ticks_ms()") == 400  # the first CR, Ctrl-C lay inside the abandoned frame


POISONED_BOOT = """
import io, sys, machine
machine.reset_world()
calls = []
class FakeMicroPython:  # records kbd_intr, and how many watchdogs existed at that moment
    def const(self, value):
        return value
    def kbd_intr(self, char):
        calls.append(('kbd_intr', char, len(machine.wdts)))
class Stream:
    def __init__(self, data=b''):
        self.buffer = io.BytesIO(data)
class Implementation:
    _machine = 'Raspberry Pi Pico2 with RP2350'
class FakeSys:  # the USB serial port is stdin/stdout; mpremote's CR, Ctrl-C, CR, Ctrl-A waiting
    stdin = Stream(b'\\r\\x03\\r\\x01')
    stdout = Stream()
    implementation = Implementation()
    print_exception = sys.print_exception
class Poller:
    def register(self, stream, events):
        self.stream = stream
    def poll(self, timeout):
        return [1] if self.stream.tell() < len(self.stream.getvalue()) else []
class FakeSelect:
    POLLIN = 1
    poll = Poller
saved = (dict(sys.modules), list(sys.path))
fake_sys = FakeSys()
sys.modules['micropython'] = FakeMicroPython()
sys.modules['sys'] = fake_sys
sys.modules['select'] = FakeSelect()
for name in ('config', 'board', 'scanner', 'mfrc522', 'frames', 'wiring'):
    sys.modules.pop(name, None)
try:
    import os
    os.mkdir('/poison')
except OSError:
    pass
with open('/poison/%s.py' % POISON[0], 'w') as f:
    f.write(POISON[1])
sys.path.insert(0, '/poison')
import builtins
builtins.calls = calls
try:
    exec(open('/firmware/main.py').read(), {'__name__': '__main__'})
except Exception as exc:
    calls.append(('raised', type(exc).__name__))
finally:
    sys.modules.clear()
    sys.modules.update(saved[0])
    sys.path[:] = saved[1]
    os.remove('/poison/%s.py' % POISON[0])
    del builtins.calls
written = fake_sys.stdout.buffer.getvalue()
"""

POISONS = {
    "scanner": ("scanner", 'import machine\ncalls.append(("import scanner", len(machine.wdts)))\n'
                'raise RuntimeError("crashed while importing")\n'),
    "config": ("config", "READERS = (\n    'Kitchen',\n    'Ballroom'\n    'Hall'\nWDT_TIMEOUT_MS = 8000\n"),
}


def test_ctrl_c_is_off_and_the_watchdog_armed_before_the_heavy_imports(mp: MicroPython) -> None:
    mp.run(f"POISON = {POISONS['scanner']!r}\n" + POISONED_BOOT)
    calls = mp.eval("calls")
    assert calls[:2] == [["kbd_intr", -1, 0], ["import scanner", 1]]
    # The import failed: safe mode (the watchdog armed again and fed), then the stop for mpremote.
    assert calls[2:] == [["kbd_intr", -1, 1], ["kbd_intr", 3, 2], ["raised", "RuntimeError"]]
    assert mp.eval("machine.wdts[-1].feeds") >= 1


@pytest.mark.parametrize("poison", ["scanner", "config"])
def test_a_module_that_fails_to_import_at_boot_is_safe_mode_not_a_reset_loop(mp: MicroPython, poison: str) -> None:
    mp.run(f"POISON = {POISONS[poison]!r}\n" + POISONED_BOOT)
    (log,) = Parser().feed(bytes(mp.eval("list(written)")))
    assert log.level == "error" and log.seq == 0
    expected = {"scanner": 'RuntimeError: crashed while importing (File "/poison/scanner.py", line 3, in <module>)',
                "config": 'SyntaxError: invalid syntax (File "/poison/config.py", line 5)'}[poison]
    assert log.text == f"safe mode, not scanning: {expected}; fix it, then reset the board"
    # The stop paused the RP2350's watchdog (its CTRL.ENABLE cleared through the atomic alias).
    assert mp.eval("list(machine.mem32.written.items())") == [[0x400DB000, 1 << 30]]
    assert mp.eval("fake_sys.stdin.buffer.read()") == b"\r\x01".decode()


@pytest.mark.parametrize(("chip", "address"), [
    ("Raspberry Pi Pico with RP2040", 0x4005B000),  # WATCHDOG_BASE 0x40058000 + 0x3000
    ("Raspberry Pi Pico2 with RP2350", 0x400DB000),  # WATCHDOG_BASE 0x400D8000 + 0x3000
    ("Raspberry Pi Pico2 with RP2350-RISCV", 0x400DB000),
])
def test_a_stop_on_an_rp2040_or_rp2350_pauses_the_watchdog(mp: MicroPython, chip: str, address: int) -> None:
    mp.run("import machine, main\nmachine.reset_world()\nwdt = machine.WDT(timeout=8000)\n"
           f"main._stop(wdt, {chip!r})")
    # The atomic clear alias of CTRL <- ENABLE: the watchdog stops counting.
    assert mp.eval("list(machine.mem32.written.items())") == [[address, 1 << 30]]
    assert mp.eval("len(machine.timers)") == 0  # no timer needed, so none that a soft reset could end


def test_a_stop_elsewhere_feeds_the_watchdog_from_a_timer_until_a_soft_reset(mp: MicroPython) -> None:
    mp.run("import machine, main\nmachine.reset_world()\nwdt = machine.WDT(timeout=8000)\n"
           "main._stop(wdt, 'some other board')\nmachine.timers[-1].callback(None)")
    assert mp.eval("[wdt.feeds, machine.mem32.written]") == [1, {}]
