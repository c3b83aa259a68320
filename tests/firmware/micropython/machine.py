"""A stand-in for MicroPython's ``machine`` module, for the firmware tests.

Pins hold a level and tell their listeners when it changes (a fake chip's
CS, RST, a decoder's inputs). The SPI bus hands every transfer to the one
device whose chip select is active (devices keep ``selected_devices()`` up
to date themselves); nothing selected reads 0x00, and two selected at once
is a wiring or driver bug, so it raises.
"""

_pins = {}  # pin id -> _Line
_selected = []  # devices with .transfer(out, into) whose chip select is active now
buses = {}  # SPI id -> the SPI made for it last (its pins, and the devices it has talked to)
pwms = []  # every PWM made, newest last
wdts = []
timers = []


class _Memory:
    """``machine.mem32``: remembers each word written, by address (registers, e.g. the watchdog's)."""

    def __init__(self):
        self.written = {}

    def __setitem__(self, address, value):
        self.written[address] = value

    def __getitem__(self, address):
        return self.written.get(address, 0)


mem32 = _Memory()


def reset_world():
    """Forget every pin, device and output (a fresh board)."""
    _pins.clear()
    _selected.clear()
    buses.clear()
    pwms.clear()
    wdts.clear()
    timers.clear()
    mem32.written.clear()


class _Line:
    def __init__(self, ident):
        self.ident = ident
        self.value = 0
        self.mode = None
        self.listeners = []
        self.changes = 0

    def drive(self, value):
        value = 1 if value else 0
        if value != self.value:
            self.value = value
            self.changes += 1
            for listener in self.listeners:
                listener(value)


def line(ident):
    """The shared state of pin ``ident`` (made on first use)."""
    found = _pins.get(ident)
    if found is None:
        found = _pins[ident] = _Line(ident)
    return found


def listen(ident, callback):
    """Call ``callback(level)`` whenever pin ``ident`` changes level."""
    line(ident).listeners.append(callback)


def selected_devices():
    """The live list of selected SPI devices: a device adds itself when its CS goes active
    and removes itself when it goes inactive."""
    return _selected


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, ident, mode=-1, pull=-1, *, value=None):
        self._line = line(ident)
        if mode != -1:
            self._line.mode = mode
        if value is not None:
            self._line.drive(value)

    def value(self, level=None):
        line = self._line
        if level is None:
            return line.value
        # _Line.drive, inlined: the driver toggles chip selects thousands of times a second.
        level = 1 if level else 0
        if level != line.value:
            line.value = level
            line.changes += 1
            for listener in line.listeners:
                listener(level)

    def __call__(self, level=None):
        return self.value(level)

    def on(self):
        self._line.drive(1)

    def off(self):
        self._line.drive(0)

    def toggle(self):
        self._line.drive(not self._line.value)


class SPI:
    def __init__(self, ident, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0, sck=None, mosi=None,
                 miso=None):
        self.ident = ident
        self.baudrate = baudrate
        self.polarity = polarity
        self.phase = phase
        # The GPIOs given for SCK, MOSI, MISO (a wiring test holds them against pins.py).
        self.pins = tuple(pin._line.ident if pin is not None else None for pin in (sck, mosi, miso))
        self.devices = []  # every device selected during a transfer on this bus, first use first
        buses[ident] = self

    def _device(self):
        if not _selected:
            return None
        if len(_selected) > 1:
            raise AssertionError("two SPI devices selected at once")
        device = _selected[0]
        if device not in self.devices:
            self.devices.append(device)
        return device

    def write(self, buf):
        device = self._device()
        if device is not None:
            device.transfer(buf, None)

    def write_readinto(self, out, into):
        device = self._device()
        if device is None:
            for i in range(len(into)):
                into[i] = 0
        else:
            device.transfer(out, into)

    def readinto(self, into, write=0):
        self.write_readinto(bytes([write]) * len(into), into)

    def read(self, count, write=0):
        into = bytearray(count)
        self.readinto(into, write)
        return bytes(into)


class PWM:
    def __init__(self, pin, freq=None, duty_u16=None):
        self.pin = pin
        self._freq = 0
        self._duty = 0
        self.history = []  # (freq, duty) each time either changes
        pwms.append(self)
        if freq is not None:
            self.freq(freq)
        if duty_u16 is not None:
            self.duty_u16(duty_u16)

    def freq(self, value=None):
        if value is None:
            return self._freq
        if not 8 <= value <= 62_500_000:
            raise ValueError("freq out of range")
        self._freq = value
        self.history.append((self._freq, self._duty))

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        self._duty = value
        self.history.append((self._freq, self._duty))

    def deinit(self):
        self._duty = 0


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        wdts.append(self)

    def feed(self):
        self.feeds += 1


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1, *, mode=PERIODIC, period=-1, freq=-1, callback=None):
        self.mode = mode
        self.period = period
        self.callback = callback
        timers.append(self)

    def deinit(self):
        self.callback = None


def soft_reset_world():
    """What a soft reset does to ``machine`` on the rp2 port: timers stop (ports/rp2/main.c, soft_timer_deinit)."""
    for timer in timers:
        timer.deinit()


class Reset(Exception):
    """What ``machine.reset()`` raises here, instead of rebooting."""


def reset():
    raise Reset()


def unique_id():
    return b"\xe6\x61\x38\x10\x4b\x2a\x25\x2d"
