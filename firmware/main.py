"""The firmware's entry point: MicroPython runs main.py at boot.

It builds the board from config.py, talks to the host over the USB serial
port (stdin/stdout: every byte written is a protocol frame, nothing is
printed) and loops forever, feeding the watchdog once per pass.
"""

import machine
import micropython
from micropython import const

import config


def guard():
    """Ctrl-C off and the watchdog on; returns the watchdog.

    Run first at boot, before the imports below: compiling them takes a
    while on the Pico, and a crash or hang in there must still end in a
    reboot (the watchdog), while a 0x03 arriving meanwhile, inside the
    host's first frames, must not raise KeyboardInterrupt. Calling it again
    is harmless: on the rp2 port ``machine.WDT`` re-arms the one watchdog.
    """
    micropython.kbd_intr(-1)
    return machine.WDT(timeout=config.WDT_TIMEOUT_MS)


if __name__ == "__main__":
    guard()

import io  # noqa: E402 - after guard() on purpose
import select  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

from machine import PWM, Pin  # noqa: E402
from neopixel import NeoPixel  # noqa: E402

import frames  # noqa: E402
from board import Board, Timing  # noqa: E402
from mfrc522 import MFRC522  # noqa: E402
from outputs import Buzzer, Leds, StatusLed  # noqa: E402
from scanner import Scanner  # noqa: E402
from wiring import reader_links  # noqa: E402

_READ_MAX = 64  # bytes taken from USB per pass; the host sends a few frames a second
_keeper = None  # the timer that feeds the watchdog after a stop, where it cannot be disarmed
# RP2040 datasheet 2.2.2 (address map): WATCHDOG_BASE 0x40058000; 2.1.2: writing at
# +0x3000 clears the bits written; 4.7.6: CTRL (offset 0) bit 30 ENABLE, "when not
# enabled the watchdog timer is paused". pico-sdk's watchdog_enable() clears it the same way.
_WATCHDOG_CTRL_CLEAR = const(0x40058000 + 0x3000)
_WATCHDOG_ENABLE = const(1 << 30)


class UsbSerial:
    """The board's transport: non-blocking reads from the host, frames written whole."""

    def __init__(self, stream_in=None, stream_out=None, poller=None):
        self._in = stream_in or sys.stdin.buffer
        self._out = stream_out or sys.stdout.buffer
        self._poll = poller or select.poll()
        self._poll.register(self._in, select.POLLIN)
        self._buf = bytearray(_READ_MAX)

    def read(self):
        """What the host has sent so far (up to 64 bytes), or None; never waits.

        It stops after a Ctrl-C (0x03): if that one stops the firmware, what
        follows it (mpremote's CR, Ctrl-A for the raw REPL) stays in the USB
        buffer for the REPL. Inside a frame it only splits the read.
        """
        count = 0
        while count < _READ_MAX and self._poll.poll(0):
            byte = self._in.read(1)
            if not byte:
                break
            self._buf[count] = byte[0]
            count += 1
            if byte[0] == 0x03:
                break
        return bytes(self._buf[:count]) if count else None

    def write(self, data):
        self._out.write(data)


def build(transport, clock=time.ticks_ms, names=config.READERS, settle_us=config.ANTENNA_SETTLE_US):
    """The board as config.py wires it, talking over ``transport``; call ``start()`` next."""
    count = len(names)
    links = reader_links(count, config)  # the bus and chip select of each reader (pins.py)
    _reset_readers(Pin(config.READER_RST, Pin.OUT, value=1))
    readers = [MFRC522(spi, cs, settle_us, config.RX_GAIN, config.MAX_CARDS, gs_n=config.TX_GS_N,
                       cw_gs_p=config.TX_CW_GS_P, reset_us=config.FIELD_RESET_US) for spi, cs in links]
    scanner = Scanner(readers, config.MISSES, config.HEALTH_RETRY_MS)
    leds = Leds(NeoPixel(Pin(config.LED_PIN, Pin.OUT), count), count, config.BLINK_MS)
    buzzer = Buzzer(PWM(Pin(config.BUZZER_PIN)))
    status = StatusLed(Pin(config.STATUS_LED, Pin.OUT), config.BLINK_MS)
    timing = Timing(config.HELLO_RETRY_MS, config.HEARTBEAT_MS, config.HOST_TIMEOUT_MS)
    return Board(scanner, leds, buzzer, status, transport, clock, firmware=config.FIRMWARE,
                 timing=timing, names=names, board_id=machine.unique_id())


def _reset_readers(rst):
    """A hard reset of every reader (they share RST), then the oscillator start-up."""
    rst.value(0)
    time.sleep_ms(1)
    rst.value(1)
    time.sleep_ms(50)


def serve(board, wdt):
    """The main loop; returns only when someone asks for the REPL (frames.Parser._skip, :func:`_stop`)."""
    while not step(board, wdt):
        pass


def step(board, wdt):
    """One pass: poll the host, scan, feed the watchdog. True when it is time to stop."""
    try:
        board.poll()
    except Exception as exc:  # anything at all: report it, then start clean
        _crashed(board.log, exc)
    wdt.feed()
    if board.stop_requested:
        _stop(wdt)
        return True
    return False


def _crashed(log, exc):
    """``log`` the exception and where it came from, then reset: the board comes back with HELLO.

    Printing the traceback instead would put text on the data channel.
    """
    text = io.StringIO()
    sys.print_exception(exc, text)
    lines = text.getvalue().strip().split("\n")
    try:
        log(frames.ERROR, "crashed, resetting: %s (%s)" % (lines[-1], lines[-2].strip()))
        time.sleep_ms(100)  # let USB carry the LOG out
    finally:
        machine.reset()


def _stop(wdt, chip=None):
    """Hand the USB port back to the REPL (mpremote, a terminal), with the watchdog off.

    Ctrl-C interrupts again. On the RP2040 the watchdog is paused (CTRL.ENABLE
    cleared): mpremote soft-resets into the raw REPL, which would end any timer
    feeding it, and a reboot in the middle of ``cp firmware/*.py`` would leave
    new and old modules mixed. The board then stays at the prompt until a reset
    (``mpremote ... + reset``, Ctrl-D at the friendly prompt, unplugging); main.py
    arms the watchdog again at every start. Elsewhere a timer feeds it until the
    next soft reset.
    """
    global _keeper
    micropython.kbd_intr(3)
    if "RP2040" in (chip or getattr(sys.implementation, "_machine", "")):
        machine.mem32[_WATCHDOG_CTRL_CLEAR] = _WATCHDOG_ENABLE
    else:
        _keeper = machine.Timer(period=1000, mode=machine.Timer.PERIODIC, callback=lambda _t: wdt.feed())


def main():
    wdt = guard()
    usb = UsbSerial()
    try:
        board = build(usb)
        board.start()
    except Exception as exc:  # a config.py that cannot be wired, a dead SPI bus: say so in a LOG
        _crashed(lambda level, text: usb.write(frames.encode(frames.LOG, 0, frames.log_payload(level, text))), exc)
    serve(board, wdt)


if __name__ == "__main__":
    main()
