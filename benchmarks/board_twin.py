"""The board's scan times on its twin: the real firmware on an emulated RP2040, in emulated time.

Run with ``python benchmarks/board_twin.py [--samples N] [--builds 16,29]``
(needs the image of ``tools/build-pico-image.sh`` and ``cd tests/pico && npm
ci``; about 4 minutes). For the 16-reader build and the 29-reader build (two
74HC154 decoders, the rooms' second and third antennas) it prints:

- a full scan of an empty board, and of one with every piece on it (12 pieces
  over the rooms' antennas, 18 cards on the seat pads, 3 on the centre): the
  time between two health checks of reader 0 (its VersionReg read, once a pass
  of the main loop), median and p99;
- 12 new tags laid at once in one room (the Ballroom, over its antennas): the
  time until the host has all 12;
- a piece landing (moved to another room's antenna at a random moment) to its
  TAG_ON at the host, p50 and p99 (the host reads the USB port every few ms of
  emulated time, so a figure carries up to ~10 ms of that);
- SPI transactions a second, empty and full.

Targets (issue 28): a full 29-reader scan with every piece on the board
<= 250 ms; landing to host event p99 <= 500 ms. Emulated time counts a fixed
number of cycles per instruction at 125 MHz and no flash cache misses, so it is
an estimate of a real Pico's, not a measurement of one; the readers' SPI
bytes take their 1 MHz bit times and each tag answer its air time (readers.mjs).
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "pico"))

from test_twin_readers import (
    CENTRE,
    ROOM_NAMES,
    SEAT_PADS,
    Host,
    board_files,
    booted_host,
    place,
    room_readers,
    uid_for,
)
from twin import Twin, missing
from wiring import wiring

from hardware.protocol import TagOn

SCAN_TARGET_MS = 250.0  # a full 29-reader scan with every piece on the board
LANDING_P99_TARGET_MS = 500.0


@dataclass
class Figures:
    readers: int
    empty_scan: tuple[float, float] = (0.0, 0.0)  # median, p99 (ms)
    full_scan: tuple[float, float] = (0.0, 0.0)
    twelve_ms: float = 0.0
    landing: tuple[float, float] = (0.0, 0.0)
    spi_empty: float = 0.0  # transactions a second
    spi_full: float = 0.0
    tags: int = 0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def scan_times(twin: Twin, host: Host, seconds: float) -> tuple[tuple[float, float], float]:
    """Median and p99 of reader 0's pass period (ms), and SPI transactions a second, over ``seconds``."""
    before = twin.readers({"cmd": "counters"})
    start = host.pump()
    host.run(seconds)
    after = twin.readers({"cmd": "counters"})
    reads = [t for t in twin.readers({"cmd": "version_reads", "reader": 0})["us"] if t >= start]
    periods = [(b - a) / 1000 for a, b in itertools.pairwise(reads)]
    rate = (after["transactions"] - before["transactions"]) / ((after["now_us"] - before["now_us"]) / 1e6)
    return (statistics.median(periods), percentile(periods, 0.99)), rate


def held(host: Host) -> set[tuple[int, str]]:
    return {(reader, uid) for reader, uids in host.present().items() for uid in uids}


def every_piece(count: int) -> dict[str, int]:
    """33 tags: 12 pieces over the rooms' antennas, 3 cards on each seat pad, 3 on the centre."""
    rooms = [room_readers(room, count) for room in ROOM_NAMES]
    placed = {}
    for n in range(12):
        antennas = rooms[n % 9]
        placed[uid_for(100 + n)] = antennas[n % len(antennas)]
    for n in range(18):
        placed[uid_for(200 + n)] = SEAT_PADS[n % 6]
    for n in range(3):
        placed[uid_for(300 + n)] = CENTRE
    return placed


def measure(count: int, samples: int, rng: random.Random) -> Figures:
    figures = Figures(count)
    with Twin(files=board_files(count), wiring=wiring(count), limit=600) as twin:
        host = booted_host(twin)
        try:
            host.run(0.5)
            figures.empty_scan, figures.spi_empty = scan_times(twin, host, 2.0)
            placed = every_piece(count)
            figures.tags = len(placed)
            for uid, reader in placed.items():
                place(twin, uid, [reader])
            host.until(lambda: set(placed.items()) <= {(uid, r) for r, uid in held(host)}, 5.0, "every piece seen")
            figures.full_scan, figures.spi_full = scan_times(twin, host, 2.0)
            figures.twelve_ms = twelve_at_once(twin, host, count, placed)
            figures.landing = landings(twin, host, count, samples, rng)
        finally:
            host.close()
    return figures


def twelve_at_once(twin: Twin, host: Host, count: int, placed: dict[str, int]) -> float:
    """Lift the 12 pieces, then lay 12 new tags at once over the Ballroom's antennas: ms until all are at the host."""
    pieces = list(placed)[:12]  # every_piece() lays the pieces first
    for uid in pieces:
        twin.command({"readers": {"cmd": "remove", "uid": uid}})
    host.until(lambda: not {uid for _, uid in held(host)} & set(pieces), 3.0, "the pieces lifted")
    antennas = room_readers("Ballroom", count)
    new = {uid_for(500 + n): antennas[n % len(antennas)] for n in range(12)}
    start = 0
    for uid, reader in new.items():
        at = place(twin, uid, [reader])
        start = start or at
    end = host.until(lambda: set(new.items()) <= {(uid, r) for r, uid in held(host)}, 5.0, "12 new tags seen")
    for uid in new:
        twin.command({"readers": {"cmd": "remove", "uid": uid}})
    for uid in pieces:
        place(twin, uid, [placed[uid]])
    host.until(lambda: set(placed.items()) <= {(uid, r) for r, uid in held(host)}, 5.0, "the pieces back")
    return (end - start) / 1000


def landings(twin: Twin, host: Host, count: int, samples: int, rng: random.Random) -> tuple[float, float]:
    """A piece moved to another room's antenna at a random moment: ms to its TAG_ON at the host (p50, p99).

    It visits the rooms in turn, so the room it lands in has reported it gone
    (three scans without it) long before it comes back.
    """
    rooms = [room_readers(room, count) for room in ROOM_NAMES]
    times = []
    uid = uid_for(600)

    def ons() -> int:
        return sum(1 for _, m in host.messages(TagOn) if m.uid.hex() == uid)

    for n in range(samples):
        host.run(rng.uniform(0.0, 0.3))
        seen = ons()
        landed = place(twin, uid, [rng.choice(rooms[n % 9])])
        arrived = host.until(partial(more, ons, seen), 2.0, "the piece's TAG_ON")
        times.append((arrived - landed) / 1000)
    return statistics.median(times), percentile(times, 0.99)


def per_tag(f: Figures) -> float:
    """What confirming one known tag costs a pass, in SPI transactions (full board minus empty, per tag)."""
    full = f.spi_full * f.full_scan[0] / 1000
    empty = f.spi_empty * f.empty_scan[0] / 1000
    return (full - empty) / f.tags if f.tags else 0.0


def more(count: Callable[[], int], than: int) -> bool:
    return count() > than


def table(results: list[Figures]) -> str:
    """The figures as a Markdown table, then the ratios they are judged by."""
    head = "| Figure (emulated time) | " + " | ".join(f"{f.readers} readers" for f in results) + " | Target |"
    rule = "|---|" + "---:|" * len(results) + "---|"

    def row(name: str, cells: list[str], target: str = "") -> str:
        return f"| {name} | " + " | ".join(cells) + f" | {target} |"

    def pair(values: tuple[float, float]) -> str:
        return f"{values[0]:.0f} / {values[1]:.0f} ms"

    lines = [head, rule,
             row("Full scan, empty board (p50 / p99)", [pair(f.empty_scan) for f in results]),
             row("Full scan, every piece on the board (p50 / p99)", [pair(f.full_scan) for f in results],
                 f"29 readers <= {SCAN_TARGET_MS:.0f} ms"),
             row("12 new tags at once in one room, until all at the host", [f"{f.twelve_ms:.0f} ms" for f in results]),
             row("Piece landing to TAG_ON at the host (p50 / p99)", [pair(f.landing) for f in results],
                 f"p99 <= {LANDING_P99_TARGET_MS:.0f} ms"),
             row("SPI transactions a second, empty / full", [f"{f.spi_empty:,.0f} / {f.spi_full:,.0f}" for f in results]),
             row("Tags on the full board", [str(f.tags) for f in results]),
             row("Empty scan per reader", [f"{f.empty_scan[0] / f.readers:.1f} ms" for f in results]),
             row("SPI transactions a pass per tag held", [f"{per_tag(f):.0f}" for f in results])]
    lines.append("")
    for f in results:
        lines.append(f"{f.readers} readers: full-board scan / empty scan = {f.full_scan[0] / f.empty_scan[0]:.2f}; "
                     f"full-board scan p99 / {SCAN_TARGET_MS:.0f} ms target = {f.full_scan[1] / SCAN_TARGET_MS:.2f}; "
                     f"landing p99 / {LANDING_P99_TARGET_MS:.0f} ms target = {f.landing[1] / LANDING_P99_TARGET_MS:.2f}")
    if len(results) == 2:
        small, large = results
        lines.append(f"29 / 16 readers: empty scan {large.empty_scan[0] / small.empty_scan[0]:.2f}, "
                     f"full-board scan {large.full_scan[0] / small.full_scan[0]:.2f} "
                     f"(reader count {large.readers / small.readers:.2f})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=40, help="piece landings timed per build")
    parser.add_argument("--builds", default="16,29", help="reader counts: 16 and/or 29")
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args(argv)
    why = missing()
    if why:
        print(f"board twin benchmark skipped: {why}")
        return 1
    rng = random.Random(args.seed)
    results = []
    for count in (int(n) for n in args.builds.split(",")):
        started = time.monotonic()
        results.append(measure(count, args.samples, rng))
        print(f"{count} readers measured in {time.monotonic() - started:.0f} s of real time", file=sys.stderr)
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
