"""The handhelds' I2C bus: one lock, up to eight TCA9548A multiplexers, and luma's serial interface on a channel.

Every OLED answers at 0x3C and every button expander at 0x20, so each unit
sits on its own multiplexer channel and only one channel may be switched on
across all multiplexers at once. A TCA9548A's control register has one bit
per channel, and 0x00 switches every channel off (TI TCA9548A datasheet
SCPS207F, 8.5.4 "Control Register", Table 2; addresses 0x70-0x77 by A2-A0,
Table 1), so moving to a channel of another multiplexer first writes 0 to
the one that was on.

A write that fails (an unplugged unit answers with no ACK: ``OSError``
EREMOTEIO) leaves the multiplexers' state unknown: :meth:`SharedI2C.invalidate`
forgets it, and the next transfer writes every control register again.

>>> from hardware.i2c_mock import MockI2CBus, MockTCA9548A
>>> bus = MockI2CBus()
>>> _ = bus.attach(MockTCA9548A(), 0x70), bus.attach(MockTCA9548A(), 0x71)
>>> shared = SharedI2C(1, open_bus=lambda port: bus)
>>> shared.attach(0x70), shared.attach(0x71)
(None, None)
>>> _ = shared.acquire()
>>> shared.run(0x71, 2, lambda raw: None)
>>> [hex(address) + ":" + hex(value) for address, value in bus.control_writes]
['0x70:0x0', '0x71:0x4']
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")
SMBUS_BLOCK = 32  # the SMBus block-write limit (I2C_SMBUS_BLOCK_MAX in linux/i2c.h)
RDWR_LIMIT = 8192  # linux drivers/i2c/i2c-dev.c refuses an I2C_RDWR message longer than this
CONTROL, DATA = 0x00, 0x40  # SSD1306/SH1106 control byte: commands follow, or display RAM data


class SharedI2C:
    """One I2C bus and the multiplexers on it, shared by the units behind them.

    The lock makes "select my channel, then transfer" one step, so two units
    drawing (or a unit drawing while another's buttons are read) never write
    to each other's devices.
    """

    def __init__(self, port: int, open_bus: Callable[[int], Any] | None = None) -> None:
        self.port = port
        self._open_bus = open_bus  # None: smbus2.SMBus; tests and run --mock pass a mock bus
        self.lock = threading.RLock()
        self._bus: Any = None
        self._users = 0
        self._muxes: set[int] = set()
        self._route: tuple[int, int] | None = None  # the one channel known to be on
        self._off: set[int] = set()  # multiplexers known to have every channel off

    def attach(self, mux: int | None) -> None:
        """Note a multiplexer in use, so switching to another one turns it off first."""
        if mux is not None:
            with self.lock:
                self._muxes.add(mux)

    def acquire(self) -> Any:
        """The open smbus2 bus (opened by the first user)."""
        with self.lock:
            if self._bus is None:
                if self._open_bus is None:
                    import smbus2

                    self._open_bus = smbus2.SMBus
                self._bus = self._open_bus(self.port)
                self.invalidate()
            self._users += 1
            return self._bus

    def release(self) -> None:
        with self.lock:
            self._users -= 1
            if self._users <= 0 and self._bus is not None:
                self._bus.close()
                self._bus, self._users = None, 0

    @property
    def bus(self) -> Any:
        return self._bus

    def invalidate(self) -> None:
        """Forget which channels are on: a transfer failed, or the bus was reopened."""
        with self.lock:
            self._route = None
            self._off = set()

    def run(self, mux: int | None, channel: int | None, transfer: Callable[[Any], T]) -> T:
        """Route the bus to ``channel`` of ``mux`` (None: a device on the bus itself), then ``transfer(bus)``."""
        with self.lock:
            try:
                self._select(mux, channel)
                return transfer(self._bus)
            except OSError:
                self.invalidate()
                raise

    def _select(self, mux: int | None, channel: int | None) -> None:
        if mux is None or channel is None or self._route == (mux, channel):
            return  # the config refuses a unit on the bus itself beside multiplexed ones
        self._route = None
        for other in sorted(self._muxes - self._off - {mux}):
            self._switch_off(other)
        self._bus.write_byte(mux, 1 << channel)
        self._off.discard(mux)
        self._route = (mux, channel)

    def _switch_off(self, mux: int) -> None:
        """Every channel of ``mux`` off; one that does not answer is skipped (and tried again next time).

        A TCA9548A that does not acknowledge its address is unpowered or off
        the bus, and one that powers up has every channel off (SCPS207F Table 2).
        """
        try:
            self._bus.write_byte(mux, 0)
            self._off.add(mux)
        except OSError as err:
            log.debug("TCA9548A 0x%02X did not answer the switch-off: %s", mux, err)


class MuxedSerial:
    """luma's serial interface (``command``, ``data``, ``cleanup``) for an OLED on a multiplexer channel.

    Display data goes in blocks of ``block`` bytes: above the SMBus limit of
    32 as one I2C_RDWR message each (luma's own managed i2c interface uses 4096),
    so a 1024-byte SSD1306 frame is one transfer instead of 32.
    """

    def __init__(self, shared: SharedI2C, mux: int | None, channel: int | None, address: int,
                 block: int = 4096) -> None:
        if not SMBUS_BLOCK <= block <= RDWR_LIMIT - 1:
            raise ValueError(f"block must be from {SMBUS_BLOCK} to {RDWR_LIMIT - 1} bytes, not {block}")
        self._shared, self._mux, self._channel, self.address = shared, mux, channel, address
        self.block = block
        self._released = False
        shared.attach(mux)
        shared.acquire()

    def command(self, *cmd: int) -> None:
        self._shared.run(self._mux, self._channel,
                         lambda bus: bus.write_i2c_block_data(self.address, CONTROL, list(cmd)))

    def data(self, data: Sequence[int]) -> None:
        for start in range(0, len(data), self.block):
            chunk = list(data[start:start + self.block])
            self._shared.run(self._mux, self._channel, partial(self._write, chunk=chunk))

    def probe(self) -> None:
        """The address alone, no data (what i2cdetect sends): OSError if the OLED is not there."""
        self._shared.run(self._mux, self._channel, lambda bus: bus.write_quick(self.address))

    def cleanup(self) -> None:
        if not self._released:  # luma's exit hook may call this again
            self._released = True
            self._shared.release()

    def _write(self, bus: Any, chunk: list[int]) -> None:
        if self.block <= SMBUS_BLOCK:
            bus.write_i2c_block_data(self.address, DATA, chunk)
            return
        from smbus2 import i2c_msg

        bus.i2c_rdwr(i2c_msg.write(self.address, [DATA, *chunk]))
