"""The firmware's entry point: MicroPython runs main.py at boot.

It builds the board from config.py, talks to the host over the USB serial
port (stdin/stdout: every byte written is a protocol frame, nothing is
printed) and loops forever, feeding the watchdog once per pass.

When the board cannot start (config.py will not compile or cannot be wired,
a module fails to import), it enters a safe mode instead of a reset loop: it
says why in a LOG frame, at once and in answer to the host's HELLO_REQUESTs,
feeds the watchdog, and stops for the REPL on the same bytes as the running
firmware (mpremote's CR, Ctrl-C), so the files can be fixed. Safe mode needs
nothing but this file and MicroPython's own modules.
"""

import machine
import micropython
import select
import sys
from micropython import const

_BOOT_WDT_MS = const(8000)  # the watchdog until config.py is read (its WDT_TIMEOUT_MS from then on)
_READ_MAX = 64  # bytes taken from USB per pass; the host sends a few frames a second
_keeper = None  # the timer that feeds the watchdog after a stop, where it cannot be disarmed
# The watchdog's CTRL register is at offset 0 of the block, ENABLE is bit 30 ("when not enabled
# the watchdog timer is paused"), and a write at +0x3000 clears the bits written (atomic clear
# alias). RP2040: WATCHDOG_BASE 0x40058000 (RP2040 datasheet 2.2.2 address map, 2.1.2 atomic
# access, 4.7.6 CTRL). RP2350: WATCHDOG_BASE 0x400D8000, same CTRL and alias (RP2350 datasheet,
# address map and watchdog CTRL; pico-sdk 2.2.0 src/rp2350/hardware_regs/include/hardware/regs/
# addressmap.h WATCHDOG_BASE, REG_ALIAS_CLR_BITS, watchdog.h WATCHDOG_CTRL_ENABLE_BITS). pico-sdk's
# watchdog_disable() clears the bit this way on both chips.
_RP2040_WATCHDOG_CTRL_CLEAR = const(0x40058000 + 0x3000)
_RP2350_WATCHDOG_CTRL_CLEAR = const(0x400D8000 + 0x3000)
_WATCHDOG_ENABLE = const(1 << 30)
_SAFE_LOG_MS = const(2000)  # safe mode says why at most this often
_HALF_FRAME_MS = const(200)  # a frame the host left half written is given up (frames.Parser.expire)


def guard(timeout_ms=_BOOT_WDT_MS):
    """Ctrl-C off and the watchdog on; returns the watchdog.

    Run first at boot, before the imports below: compiling them takes a
    while on the Pico, and a hang in there must still end in a reboot (the
    watchdog), while a 0x03 arriving meanwhile, inside the host's first
    frames, must not raise KeyboardInterrupt. Calling it again is harmless:
    on the rp2 port ``machine.WDT`` re-arms the one watchdog.
    """
    micropython.kbd_intr(-1)
    return machine.WDT(timeout=timeout_ms)


if __name__ == "__main__":
    guard()


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


def _watchdog_ctrl_clear(chip):
    """The atomic clear alias of the watchdog's CTRL on this chip, or None (not an RP2040/RP2350)."""
    if "RP2350" in chip:  # "RP2350" and "RP2350-RISCV" (ports/rp2/mpconfigport.h MICROPY_HW_MCU_NAME)
        return _RP2350_WATCHDOG_CTRL_CLEAR
    if "RP2040" in chip:
        return _RP2040_WATCHDOG_CTRL_CLEAR
    return None


def _stop(wdt, chip=None):
    """Hand the USB port back to the REPL (mpremote, a terminal), with the watchdog off.

    Ctrl-C interrupts again. On the RP2040 and RP2350 the watchdog is paused
    (CTRL.ENABLE cleared): mpremote soft-resets into the raw REPL, which would
    end any timer feeding it, and a reboot in the middle of ``cp
    firmware/*.py`` would leave new and old modules mixed. The board then
    stays at the prompt until a reset (``mpremote ... + reset``, Ctrl-D at the
    friendly prompt, unplugging); main.py arms the watchdog again at every
    start. Elsewhere a timer feeds it until the next soft reset. ``chip``:
    ``sys.implementation._machine`` ("Raspberry Pi Pico2 with RP2350").
    """
    global _keeper
    micropython.kbd_intr(3)
    clear = _watchdog_ctrl_clear(chip or getattr(sys.implementation, "_machine", ""))
    if clear is not None:
        machine.mem32[clear] = _WATCHDOG_ENABLE
    else:
        _keeper = machine.Timer(period=1000, mode=machine.Timer.PERIODIC, callback=lambda _t: wdt.feed())


# ---- safe mode: no frames.py, no config.py ------------------------------------------------------


def _describe(exc):
    """The exception's last line and where it was raised, e.g. 'SyntaxError: invalid syntax (File "config.py", line 9)'."""
    import io

    text = io.StringIO()
    sys.print_exception(exc, text)
    lines = text.getvalue().strip().split("\n")
    where = lines[-2].strip() if len(lines) > 1 else ""
    return "%s (%s)" % (lines[-1], where) if where.startswith("File") else lines[-1]


def _crc16(data):
    """CRC-16/CCITT-FALSE, as frames.crc16 (docs/protocol.md), bit by bit: safe mode sends a few frames."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = (crc << 1 ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
    return crc


def log_frame(seq, text, level=3):
    """A LOG frame (docs/protocol.md; level 3 = error), the text cut to 240 bytes on a character boundary."""
    raw = text.encode()
    if len(raw) > 240:
        end = 240
        while raw[end] & 0xC0 == 0x80:  # not inside a UTF-8 sequence
            end -= 1
        raw = raw[:end]
    body = bytes((len(raw) + 1, 0x07, seq & 0xFF, level)) + raw
    crc = _crc16(body)
    return b"\xa5" + body + bytes((crc >> 8, crc & 0xFF))


class HostBytes:
    """What safe mode needs from the host's bytes: HELLO_REQUESTs, and the stop for the REPL.

    Frames are skipped by their LEN, so a 0x03 inside one is data; outside any
    frame a 0x03 right after a CR or another 0x03 is the stop (docs/protocol.md,
    "Stopping the firmware for the REPL"). A frame left half written for 200 ms
    is given up.
    """

    def __init__(self):
        self._left = -1  # bytes of the current frame still to come; -1: outside one, 0: its LEN is next
        self._at = 0  # frame position: 1 after LEN (TYPE next)
        self._last = 0  # the previous byte outside frames
        self._heard = 0  # when the last byte came
        self.hello_requests = 0

    def feed(self, data, now, ticks_diff):
        """Take bytes; True when they ask for the REPL."""
        if self._left >= 0 and ticks_diff(now, self._heard) >= _HALF_FRAME_MS:
            self._left = -1
        self._heard = now
        for byte in data:
            if self._left > 0:
                self._left -= 1
                self._at += 1
                if self._at == 2 and byte == 0x81:  # TYPE: HELLO_REQUEST
                    self.hello_requests += 1
                continue
            if self._left == 0:  # LEN
                if byte <= 240:
                    self._left = byte + 4  # TYPE, SEQ, payload, CRC
                    self._at = 1
                    continue
                self._left = -1  # not a frame after all
            if byte == 0xA5:
                self._left = 0
            elif byte == 0x03 and (self._last == 0x0D or self._last == 0x03):
                return True
            self._last = byte
        return False


def safe_mode(exc, wdt, port=None, clock=None):
    """Say why the board cannot start, and wait for someone to fix it over the REPL; never resets.

    A LOG (error) at once and in answer to HELLO_REQUESTs, at most every 2 s:
    the host shows the last line of a board that never says HELLO (docs/
    protocol.md). The watchdog is fed meanwhile and paused at the stop. The
    status LED blinks fast. ``clock``: ``time`` (tests pass a virtual one).
    """
    if clock is None:
        import time as clock
    port = port or UsbSerial()
    text = "safe mode, not scanning: %s; fix it, then reset the board" % _describe(exc)
    host = HostBytes()
    led = _status_led()
    seq = 0
    said_at = None
    answered = 0
    while True:
        wdt.feed()
        now = clock.ticks_ms()
        if said_at is None or (host.hello_requests > answered and clock.ticks_diff(now, said_at) >= _SAFE_LOG_MS):
            port.write(log_frame(seq, text))
            seq += 1
            said_at = now
            answered = host.hello_requests
        data = port.read()
        if data and host.feed(data, now, clock.ticks_diff):
            break
        if led is not None:
            led.value(now // 100 & 1)
        clock.sleep_ms(10)
    _stop(wdt)


def _status_led():
    try:
        return machine.Pin("LED", machine.Pin.OUT)
    except ValueError:  # a board without the named LED
        return None


try:  # the rest of the firmware: a failure here is safe mode at boot, an ordinary error for tests
    import time

    from machine import PWM, Pin
    from neopixel import NeoPixel

    import config
    import frames
    from board import Board, Timing
    from mfrc522 import MFRC522
    from outputs import Buzzer, Leds, StatusLed
    from scanner import Scanner
    from wiring import reader_links
except Exception as _exc:
    if __name__ != "__main__":
        raise
    safe_mode(_exc, guard())
    raise  # main.py ends here and the REPL takes over, showing the traceback


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
        # Unless the host asked for the REPL in this pass: a crash in every pass must not keep
        # mpremote out.
        _crashed(board.log, exc, reset=not board.stop_requested)
    wdt.feed()
    if board.stop_requested:
        _stop(wdt)
        return True
    return False


def _crashed(log, exc, reset=True):
    """``log`` the exception and where it came from, then reset: the board comes back with HELLO.

    Printing the traceback instead would put text on the data channel.
    """
    try:
        log(frames.ERROR, ("crashed, resetting: %s" if reset else "crashed: %s") % _describe(exc))
        time.sleep_ms(100)  # let USB carry the LOG out
    finally:
        if reset:
            machine.reset()


def main():
    wdt = guard(config.WDT_TIMEOUT_MS)
    usb = UsbSerial()
    try:
        board = build(usb)
        board.start()
    except Exception as exc:  # a config.py that cannot be wired, a reader that raises: no reset loop
        safe_mode(exc, wdt, usb)
        raise  # for the person at the REPL: main.py ends with the traceback
    serve(board, wdt)


if __name__ == "__main__":
    main()
