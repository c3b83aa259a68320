"""A mock I2C bus for the handhelds: TCA9548A multiplexers, MCP23008 button expanders, SSD1306 OLEDs.

Like gpiozero's ``MockFactory`` it lets the real code run without hardware:
:class:`MockI2CBus` has the smbus2 methods the handhelds use, routes each
transfer through the multiplexers' control registers to the devices on the
channels switched on, and answers ``OSError(EREMOTEIO)`` when nothing
acknowledges the address, as the Linux driver does. Its driving methods are
:meth:`MockI2CBus.unplug` / :meth:`MockI2CBus.plug` (a unit's cable; a
replugged device starts from its power-on state) and
:meth:`MockMCP23008.drive_low` (a button pressed).

It also keeps a timing model of the wire: each transfer costs its bits
(9 per byte, address byte included, plus start and stop) at ``clock_hz``,
plus ``overhead_s`` per transfer for the driver; :attr:`MockI2CBus.wire_seconds`
adds them up. The overhead is an assumption, not a measurement of a Pi.

>>> bus = MockI2CBus()
>>> expander = bus.attach(MockMCP23008(), 0x20, mux=0x70, channel=1)
>>> bus.write_byte(0x70, 1 << 1)
>>> bus.write_byte_data(0x20, 0x06, 0x0F)  # GPPU: pull-ups on GP0-GP3
>>> expander.drive_low(2)
>>> bin(bus.read_byte_data(0x20, 0x09))  # GP2 pressed; GP4-GP7 have no pull-up: they float (read low here)
'0b1011'
"""

from __future__ import annotations

import errno
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from .hardware_config import HandheldsConfig

TCA9548A_ADDRESSES = range(0x70, 0x78)


class MockDevice:
    """A device on the mock bus: bytes written to it, bytes read from it."""

    def reset(self) -> None:
        """Back to the power-on state (a replugged unit)."""

    def write(self, data: bytes) -> None:
        raise NotImplementedError

    def read(self, count: int) -> bytes:
        return bytes(count)


class MockTCA9548A(MockDevice):
    """A TCA9548A: one control register, a bit per channel, all off at power-up (SCPS207F Table 2)."""

    def __init__(self) -> None:
        self.control = 0

    def reset(self) -> None:
        self.control = 0

    def write(self, data: bytes) -> None:
        if data:
            self.control = data[-1]  # "it saves the last byte received" (SCPS207F 8.5.4)

    def read(self, count: int) -> bytes:
        return bytes([self.control] * count)


class MockMCP23008(MockDevice):
    """An MCP23008's registers (Microchip DS21919, table 1-3); GPIO reads the pins: low where pressed.

    A pin reads high only through its pull-up (GPPU bit set: 100 kΩ inside the
    chip, DS21919 1.6.7) or when nothing presses it; a released pin without
    its pull-up floats, modelled as reading low, so code that forgets GPPU sees
    every button held.
    """

    IODIR, GPPU, GPIO = 0x00, 0x06, 0x09
    REGISTERS = 11

    def __init__(self) -> None:
        self.registers = bytearray(self.REGISTERS)
        self.pointer = 0
        self.low: set[int] = set()  # pins driven low (buttons pressed)
        self.reset()

    def reset(self) -> None:
        self.registers = bytearray(self.REGISTERS)
        self.registers[self.IODIR] = 0xFF  # every pin an input at power-on (DS21919 table 1-3)
        self.pointer = 0

    def drive_low(self, pin: int) -> None:
        self.low.add(pin)

    def drive_high(self, pin: int) -> None:
        self.low.discard(pin)

    def pins(self) -> int:
        pulled = self.registers[self.GPPU]
        return sum(1 << pin for pin in range(8) if pin not in self.low and pulled >> pin & 1)

    def write(self, data: bytes) -> None:
        if not data:
            return
        self.pointer = data[0] % self.REGISTERS
        for value in data[1:]:  # sequential mode: the pointer steps on (IOCON.SEQOP = 0 at reset)
            if self.pointer != self.GPIO:
                self.registers[self.pointer] = value
            self.pointer = (self.pointer + 1) % self.REGISTERS

    def read(self, count: int) -> bytes:
        out = []
        for _ in range(count):
            out.append(self.pins() if self.pointer == self.GPIO else self.registers[self.pointer])
            self.pointer = (self.pointer + 1) % self.REGISTERS
        return bytes(out)


# Commands with arguments (SSD1306 datasheet rev 1.1, 9 "Command Table"); the rest are one byte.
SSD1306_ARGUMENTS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1,
                     0xDB: 1}


class MockSSD1306(MockDevice):
    """An SSD1306 in horizontal addressing mode: its RAM, and whether it was switched on since power-up.

    Enough of the command set for luma's ``ssd1306`` driver: the column and page
    window (0x21, 0x22), charge pump (0x8D), display on/off (0xAF/0xAE).
    """

    def __init__(self) -> None:
        self.ram = bytearray(128 * 8)
        self.on = False
        self.charge_pump = False
        self.window = (0, 127, 0, 7)
        self.cursor = (0, 0)
        self.data_bytes = 0  # display data received since power-up

    def reset(self) -> None:
        self.__init__()  # type: ignore[misc]  # power-on: RAM and settings lost

    def write(self, data: bytes) -> None:
        if not data:
            return
        if data[0] == 0x40:
            self._data(data[1:])
        elif data[0] == 0x00:
            self._commands(data[1:])

    def image(self) -> Image.Image:
        """The RAM as the panel shows it (all dark while off)."""
        image = Image.new("1", (128, 64))
        if not (self.on and self.charge_pump):
            return image
        pixels = image.load()
        assert pixels is not None
        for page in range(8):
            for x in range(128):
                byte = self.ram[page * 128 + x]
                for bit in range(8):
                    if byte >> bit & 1:
                        pixels[x, page * 8 + bit] = 1
        return image

    def _commands(self, data: bytes) -> None:
        i = 0
        while i < len(data):
            command, count = data[i], SSD1306_ARGUMENTS.get(data[i], 0)
            arguments = data[i + 1:i + 1 + count]
            i += 1 + count
            if command in (0xAE, 0xAF):
                self.on = command == 0xAF
            elif command == 0x8D and arguments:
                self.charge_pump = bool(arguments[0] & 0x04)
            elif command == 0x21 and len(arguments) == 2:
                self.window = (arguments[0], arguments[1], *self.window[2:])
                self.cursor = (arguments[0], self.cursor[1])
            elif command == 0x22 and len(arguments) == 2:
                self.window = (*self.window[:2], arguments[0], arguments[1])
                self.cursor = (self.cursor[0], arguments[0])

    def _data(self, data: bytes) -> None:
        first, last, top, bottom = self.window
        column, page = self.cursor
        for value in data:
            self.ram[(page % 8) * 128 + column % 128] = value
            column += 1
            if column > last:
                column, page = first, page + 1 if page < bottom else top
        self.cursor = (column, page)
        self.data_bytes += len(data)


@dataclass
class _Slot:
    device: MockDevice
    address: int
    mux: int | None
    channel: int | None
    plugged: bool = True


@dataclass
class MockI2CBus:
    """An smbus2 ``SMBus`` stand-in with multiplexers, devices, unplugging and a wire-time model."""

    clock_hz: int = 100_000
    overhead_s: float = 50e-6  # per transfer: ioctl and driver set-up, assumed
    wire_seconds: float = 0.0
    transfers: int = 0
    collisions: int = 0  # transfers two devices acknowledged at once (two channels on): must stay 0
    most_channels_on: int = 0  # the most channels ever switched on at once, across every multiplexer
    control_writes: list[tuple[int, int]] = field(default_factory=list)
    closed: bool = False
    _slots: list[_Slot] = field(default_factory=list)
    _muxes: dict[int, MockTCA9548A] = field(default_factory=dict)

    # -- building and driving ----------------------------------------------------------------

    def attach(self, device: MockDevice, address: int, *, mux: int | None = None,
               channel: int | None = None) -> MockDevice:
        """Put ``device`` at ``address``, on the bus itself or behind ``mux`` (added if new) on ``channel``."""
        if mux is not None and mux not in self._muxes:
            self._muxes[mux] = MockTCA9548A()
        if isinstance(device, MockTCA9548A):
            self._muxes[address] = device
        else:
            self._slots.append(_Slot(device, address, mux, channel))
        return device

    def device(self, address: int, mux: int | None = None, channel: int | None = None) -> MockDevice:
        for slot in self._slots:
            if (slot.address, slot.mux, slot.channel) == (address, mux, channel):
                return slot.device
        raise LookupError(f"no mock device at 0x{address:02X} (mux {mux}, channel {channel})")

    def mux(self, address: int) -> MockTCA9548A:
        return self._muxes[address]

    def unplug(self, mux: int | None, channel: int | None) -> None:
        """Pull the cable of the unit on ``channel``: its devices stop answering."""
        for slot in self._slots:
            if (slot.mux, slot.channel) == (mux, channel):
                slot.plugged = False

    def plug(self, mux: int | None, channel: int | None) -> None:
        """Plug it back: its devices answer again, from their power-on state."""
        for slot in self._slots:
            if (slot.mux, slot.channel) == (mux, channel) and not slot.plugged:
                slot.plugged = True
                slot.device.reset()

    def channels_on(self) -> list[tuple[int, int]]:
        return [(address, channel) for address, mux in sorted(self._muxes.items())
                for channel in range(8) if mux.control >> channel & 1]

    # -- smbus2's methods ------------------------------------------------------------------------

    def write_byte(self, address: int, value: int) -> None:
        self._write(address, bytes([value]))

    def read_byte(self, address: int) -> int:
        return self._read(address, b"", 1)[0]

    def write_quick(self, address: int) -> None:
        self._write(address, b"")

    def write_byte_data(self, address: int, register: int, value: int) -> None:
        self._write(address, bytes([register, value]))

    def read_byte_data(self, address: int, register: int) -> int:
        return self._read(address, bytes([register]), 1)[0]

    def write_i2c_block_data(self, address: int, register: int, data: Iterable[int]) -> None:
        block = bytes(data)
        if len(block) > 32:
            raise OSError(errno.EINVAL, "Invalid argument: an SMBus block is at most 32 bytes")
        self._write(address, bytes([register]) + block)

    def i2c_rdwr(self, *messages: Any) -> None:
        """smbus2 ``i2c_msg`` writes, each one transfer."""
        for message in messages:
            if message.flags & 1:
                raise NotImplementedError("the mock bus only writes through i2c_rdwr")
            data = bytes(message)
            if len(data) > 8192:
                raise OSError(errno.EINVAL, "Invalid argument: I2C_RDWR messages are at most 8192 bytes")
            self._write(message.addr, data)

    def close(self) -> None:
        self.closed = True

    # -- inside -------------------------------------------------------------------------------------

    def _cost(self, nbytes: int, restarts: int = 0) -> None:
        """One transfer: ``nbytes`` on the wire (address bytes included), 9 bits each, start and stop."""
        self.transfers += 1
        self.wire_seconds += (nbytes * 9 + 2 + restarts) / self.clock_hz + self.overhead_s

    def _targets(self, address: int) -> list[MockDevice]:
        if address in self._muxes:
            return [self._muxes[address]]
        on = set(self.channels_on())
        return [slot.device for slot in self._slots if slot.address == address and slot.plugged
                and (slot.mux is None or (slot.mux, slot.channel) in on)]

    def _answering(self, address: int) -> list[MockDevice]:
        targets = self._targets(address)
        if not targets:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if len(targets) > 1:
            self.collisions += 1
        return targets

    def _write(self, address: int, data: bytes) -> None:
        self._cost(1 + len(data))
        for target in self._answering(address):
            target.write(data)
        if address in self._muxes and data:
            self.control_writes.append((address, data[-1]))
            self.most_channels_on = max(self.most_channels_on, len(self.channels_on()))

    def _read(self, address: int, register: bytes, count: int) -> bytes:
        self._cost(2 + len(register) + count, restarts=1)
        targets = self._answering(address)
        if register:
            for target in targets:
                target.write(register)
        values = [target.read(count) for target in targets]
        return bytes(min(column) for column in zip(*values))  # open-drain: a 0 from any device wins


def mock_bus(handhelds: HandheldsConfig, **timing: float) -> MockI2CBus:
    """A mock bus wired as ``handhelds`` says: its multiplexers, and per unit an SSD1306 and (if any) an MCP23008."""
    bus = MockI2CBus(**timing)  # type: ignore[arg-type]
    for mux in handhelds.muxes():
        bus.attach(MockTCA9548A(), mux)
    for wiring in handhelds.seats:
        behind = handhelds.mux_for(wiring)
        bus.attach(MockSSD1306(), handhelds.display_address, mux=behind, channel=wiring.channel)
        if wiring.button_source == "expander":
            bus.attach(MockMCP23008(), wiring.expander_address, mux=behind, channel=wiring.channel)
    return bus
