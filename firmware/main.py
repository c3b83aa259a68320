"""The firmware's entry point: MicroPython runs main.py at boot.

It builds the board from config.py, talks to the host over the USB serial
port (stdin/stdout: every byte written is a protocol frame, nothing is
printed) and loops forever, feeding the watchdog once per pass.
"""

import io
import select
import sys
import time

import machine
import micropython
from machine import PWM, SPI, Pin
from neopixel import NeoPixel

import config
import frames
from board import Board, Timing
from chipselect import make_selects
from mfrc522 import MFRC522
from outputs import Buzzer, Leds, StatusLed
from scanner import Scanner

_READ_MAX = 64  # bytes taken from USB per pass; the host sends a few frames a second
_keeper = None  # the timer that feeds the watchdog after a stop (see _stop)


class UsbSerial:
    """The board's transport: non-blocking reads from the host, frames written whole."""

    def __init__(self, stream_in=None, stream_out=None, poller=None):
        self._in = stream_in or sys.stdin.buffer
        self._out = stream_out or sys.stdout.buffer
        self._poll = poller or select.poll()
        self._poll.register(self._in, select.POLLIN)
        self._buf = bytearray(_READ_MAX)

    def read(self):
        """What the host has sent so far (up to 64 bytes), or None; never waits."""
        count = 0
        while count < _READ_MAX and self._poll.poll(0):
            byte = self._in.read(1)
            if not byte:
                break
            self._buf[count] = byte[0]
            count += 1
        return bytes(self._buf[:count]) if count else None

    def write(self, data):
        self._out.write(data)


def build(transport, clock=time.ticks_ms, names=config.READERS, settle_us=config.ANTENNA_SETTLE_US):
    """The board as config.py wires it, talking over ``transport``; call ``start()`` next."""
    count = len(names)
    spi = SPI(config.SPI_ID, baudrate=config.SPI_BAUDRATE, polarity=0, phase=0,
              sck=Pin(config.SPI_SCK), mosi=Pin(config.SPI_MOSI), miso=Pin(config.SPI_MISO))
    selects = make_selects(count, config.CS_PINS, config.DECODER)
    _reset_readers(Pin(config.READER_RST, Pin.OUT, value=1))
    readers = [MFRC522(spi, cs, settle_us, config.RX_GAIN, config.MAX_CARDS) for cs in selects]
    scanner = Scanner(readers, config.MISSES, config.HEALTH_RETRY_MS)
    leds = Leds(NeoPixel(Pin(config.LED_PIN, Pin.OUT), count), count, config.BLINK_MS)
    buzzer = Buzzer(PWM(Pin(config.BUZZER_PIN)))
    status = StatusLed(Pin(config.STATUS_LED, Pin.OUT), config.BLINK_MS)
    timing = Timing(config.HELLO_RETRY_MS, config.HEARTBEAT_MS, config.HOST_TIMEOUT_MS)
    return Board(scanner, leds, buzzer, status, transport, clock, protocol=config.PROTOCOL,
                 firmware=config.FIRMWARE, timing=timing, names=names)


def _reset_readers(rst):
    """A hard reset of every reader (they share RST), then the oscillator start-up."""
    rst.value(0)
    time.sleep_ms(1)
    rst.value(1)
    time.sleep_ms(50)


def serve(board, wdt):
    """The main loop; returns only when someone sends Ctrl-C twice (see :func:`_stop`)."""
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


def _stop(wdt):
    """Hand the USB port back to the REPL (mpremote, a terminal).

    Ctrl-C interrupts again, and since a started watchdog cannot be stopped,
    a timer keeps feeding it until the next reset; after a soft reset the
    watchdog reboots the board within 8 s, back into the firmware.
    """
    global _keeper
    micropython.kbd_intr(3)
    _keeper = machine.Timer(period=1000, mode=machine.Timer.PERIODIC, callback=lambda _t: wdt.feed())


def main():
    # Ctrl-C (0x03) is an ordinary byte inside frames: it must not raise
    # KeyboardInterrupt. Two of them outside any frame stop the loop instead.
    micropython.kbd_intr(-1)
    wdt = machine.WDT(timeout=config.WDT_TIMEOUT_MS)
    usb = UsbSerial()
    try:
        board = build(usb)
        board.start()
    except Exception as exc:  # a config.py that cannot be wired, a dead SPI bus: say so in a LOG
        _crashed(lambda level, text: usb.write(frames.encode(frames.LOG, 0, frames.log_payload(level, text))), exc)
    serve(board, wdt)


if __name__ == "__main__":
    main()
