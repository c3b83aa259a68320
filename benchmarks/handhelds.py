"""How long the handhelds' I2C bus takes to redraw every unit, by bus speed and block size.

Run with ``make bench`` (or ``python benchmarks/handhelds.py``). Units are
real :class:`hardware.handheld.Handheld` objects with luma's SSD1306 or SH1106
driver on :class:`hardware.i2c_mock.MockI2CBus`: seats 1-8 behind a TCA9548A at
0x70, seats 9-10 behind one at 0x71, buttons on MCP23008 expanders. The times
are the mock bus's model of the wire, not a measurement: each transfer costs
(bytes x 9 + 2) bits at the clock rate plus 50 µs of driver overhead (an
assumption). A full redraw sends every unit a new screen; "changed only" sends
every unit a view but only two screens change (the usual turn hand-over),
and the others are skipped.

Prints ms per redraw, the ratio to the 100 kHz / 32-byte baseline (the
companion before this change, and what luma's i2c class does on a bus it did
not open), and the share of the bus that polling ten expanders at 50 Hz takes.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import warnings  # noqa: E402

from hardware.expander import MCP23008  # noqa: E402
from hardware.handheld import Handheld, SharedI2C  # noqa: E402
from hardware.hardware_config import HandheldsConfig, HandheldWiring  # noqa: E402
from hardware.i2c_mock import mock_bus  # noqa: E402

SPEEDS = (100_000, 400_000)
BLOCKS = (32, 4096)
POLL_HZ = 50
warnings.filterwarnings("ignore", "Image.Image.getdata is deprecated")  # luma.oled 3.16 on Pillow 13


def config(units: int, driver: str, block: int) -> HandheldsConfig:
    wirings = tuple(HandheldWiring(seat=n, up=0, down=1, ok=2, back=3, channel=(n - 1) % 8,
                                   mux_address=0x70 if n <= 8 else 0x71, button_source="expander")
                    for n in range(1, units + 1))
    return HandheldsConfig(display="luma", driver=driver, seats=wirings, expander_poll_hz=0, i2c_block=block)


def notice(seat: str, number: int) -> dict[str, object]:
    return {"stage": "idle", "seat": seat, "notice": {"text": f"note {number}", "code": None, "id": number}}


def measure(units: int, driver: str, speed: int, block: int) -> tuple[float, float, float]:
    """(full redraw ms, changed-only ms, host CPU ms per unit frame) on the modelled wire."""
    handhelds = config(units, driver, block)
    bus = mock_bus(handhelds, clock_hz=speed)
    shared = SharedI2C(1, open_bus=lambda port: bus)
    for mux in handhelds.muxes():
        shared.attach(mux)
    opened = [Handheld(f"seat {w.seat}", w, lambda command: None, config=handhelds, i2c=shared)
              for w in handhelds.seats]
    for unit in opened:
        unit.open()
    try:
        start, started = bus.wire_seconds, time.perf_counter()
        for unit in opened:
            unit.show(notice(unit.seat, 1))
        full, cpu = bus.wire_seconds - start, (time.perf_counter() - started) / units
        start = bus.wire_seconds
        for at, unit in enumerate(opened):
            unit.show(notice(unit.seat, 2 if at < 2 else 1))
        changed = bus.wire_seconds - start
    finally:
        for unit in opened:
            unit.close()
    return full * 1000, changed * 1000, cpu * 1000


def polling_share(units: int, speed: int) -> float:
    """The fraction of the bus that reading ``units`` expanders ``POLL_HZ`` times a second takes."""
    handhelds = config(units, "ssd1306", 4096)
    bus = mock_bus(handhelds, clock_hz=speed)
    shared = SharedI2C(1, open_bus=lambda port: bus)
    shared.acquire()
    chips = [MCP23008(shared, handhelds.mux_for(w), w.channel, w.expander_address) for w in handhelds.seats]
    start = bus.wire_seconds
    for chip in chips:
        chip.levels()
    return (bus.wire_seconds - start) * POLL_HZ


def main() -> None:
    print("Handheld redraw on the modelled I2C wire (9 bits a byte + start/stop, 50 us per transfer)")
    print(f"{'units':>5} {'driver':<8}{'bus kHz':>8}{'block':>7}{'full ms':>10}{'x base':>8}"
          f"{'changed ms':>12}{'cpu ms/unit':>13}")
    for units in (6, 10):
        for driver in ("ssd1306", "sh1106"):
            base = None
            for speed in SPEEDS:
                for block in BLOCKS:
                    full, changed, cpu = measure(units, driver, speed, block)
                    base = base or full
                    print(f"{units:>5} {driver:<8}{speed // 1000:>8}{block:>7}{full:>10.1f}{base / full:>8.2f}"
                          f"{changed:>12.1f}{cpu:>13.2f}")
    print(f"\nExpander polling at {POLL_HZ} Hz (select + read GPIO per unit), share of the bus")
    print(f"{'units':>5}{'bus kHz':>8}{'share':>8}")
    for units in (6, 10):
        for speed in SPEEDS:
            print(f"{units:>5}{speed // 1000:>8}{polling_share(units, speed):>8.1%}")
    print("\ncpu ms/unit: this machine's time to render and convert one frame (slower on a Pi); "
          "it overlaps nothing, so add it to the wire time")


if __name__ == "__main__":
    main()
