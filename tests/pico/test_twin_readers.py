"""The real firmware on the twin with its readers: tags in one room, a full board, faults, the netlist's wiring.

Issue 28's twin tests b, e, f and g (its crossed wires in test_twin_wiring.py). The board is firmware/*.py on MicroPython
v1.28.0 on an emulated RP2040 (twin.py); its readers are readers.mjs's MFRC522
models, wired as the circuit's netlist connects them (wiring.py). The test is
the host: it reads the board's frames off the twin's USB serial port, answers
HELLO with WELCOME and sends heartbeats. Every wait is in emulated time, under
a real-time limit.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from reader_host import Host, booted_host, lift, place, uid_for, wiring_problems
from twin import Twin, firmware_with, require
from wiring import wiring

from hardware.protocol import Readers, TagOff, TagOn

# The crowded-room build (firmware/config.py's comment, docs/hardware.md "Reader placement"):
# each room's other antennas as readers 16-28, their selects from two 74HC154s.
OTHER_ANTENNAS = ("Kitchen 2", "Ballroom 2", "Ballroom 3", "Conservatory 2", "Dining Room 2", "Dining Room 3",
                  "Billiard Room 2", "Library 2", "Lounge 2", "Lounge 3", "Hall 2", "Hall 3", "Study 2")
CROWDED = f"\nREADERS = READERS + {OTHER_ANTENNAS!r}\nDECODER = (pins.DECODER_ADDRESS, pins.DECODER_ENABLES)\n"
ROOM_NAMES = ("Kitchen", "Ballroom", "Conservatory", "Dining Room", "Billiard Room", "Library", "Lounge", "Hall",
              "Study")
SEAT_PADS = (10, 11, 12, 13, 14, 15)
CENTRE = 9
HEAP_EVERY_MS = 1000  # emulated time between two heap reports
# A failed reader is tried again every second, not every 2 s (config.py): f waits for one retry, at half the cost.
RETRY_MS = 1000
# main.py's own loop (serve/step), with the heap measured: the lowest gc.mem_free() between two
# reports, then the free heap after a collection, in a LOG frame the host reads.
HEAP_MAIN = b"""import gc
import time

import board_main as fw
import frames


def run():
    wdt = fw.guard()
    board = fw.build(fw.UsbSerial())
    board.start()
    low = 1 << 30
    due = time.ticks_add(time.ticks_ms(), EVERY)
    while not fw.step(board, wdt):
        low = min(low, gc.mem_free())
        if time.ticks_diff(time.ticks_ms(), due) >= 0:
            gc.collect()
            board.log(frames.INFO, "twin heap: %d free after gc, %d at least" % (gc.mem_free(), low))
            low = 1 << 30
            due = time.ticks_add(time.ticks_ms(), EVERY)


run()
""".replace(b"EVERY", str(HEAP_EVERY_MS).encode())


def room_readers(room: str, count: int = 29) -> list[int]:
    """The readers of ``room`` in the crowded build: its first antenna, then its others."""
    names = ROOM_NAMES + ("centre",) + tuple(f"seat {n}" for n in range(1, 7)) + OTHER_ANTENNAS
    return [i for i, name in enumerate(names[:count]) if name == room or name.startswith(room + " ")]


def crowded_files() -> dict[str, bytes]:
    """firmware/*.py for the 29-reader build, failed readers retried every RETRY_MS, main.py reporting the
    heap (the real one as board_main)."""
    files = firmware_with(HEALTH_RETRY_MS=RETRY_MS)
    files["config.py"] += CROWDED.encode()
    files["board_main.py"] = files["main.py"]
    files["main.py"] = HEAP_MAIN
    return files


@pytest.fixture(scope="module")
def crowded() -> Iterator[tuple[Twin, Host]]:
    """The 29-reader build (two 74HC154s, seat pads on SPI1), its main loop reporting the heap."""
    require()
    with Twin(files=crowded_files(), wiring=wiring(29), limit=170) as twin:
        host = booted_host(twin)
        yield twin, host
        host.close()


# ---- b: 12 tags in one room over its antennas -----------------------------------------------------


@dataclass
class Truth:
    """Where each tag lay, as a timeline: uid -> [(emulated us, antennas)]."""

    moves: dict[str, list[tuple[int, frozenset[int]]]] = field(default_factory=dict)

    def record(self, uid: str, at: int, readers: list[int]) -> None:
        self.moves.setdefault(uid, [(0, frozenset())]).append((at, frozenset(readers)))

    def spans(self, uid: str, start: int, end: int) -> list[frozenset[int]]:
        """Every set of antennas ``uid`` lay over at some time in [start, end]."""
        moves = self.moves.get(uid, [(0, frozenset())])
        found = [readers for at, readers in moves if start <= at <= end]
        before = [readers for at, readers in moves if at < start]
        return found + before[-1:]

    def now(self) -> dict[str, frozenset[int]]:
        return {uid: moves[-1][1] for uid, moves in self.moves.items() if moves[-1][1]}


def wrong_reports(host: Host, truth: Truth, readers: list[int], window_us: int) -> list[str]:
    """Reports the field's timeline does not explain: a tag on where it never lay within ``window_us``, off where it stayed."""
    wrong = []
    for at, message in host.got:
        if not isinstance(message, (TagOn, TagOff)):
            continue
        uid = message.uid.hex()
        spans = truth.spans(uid, at - window_us, at)
        if message.reader not in readers:
            wrong.append(f"{type(message).__name__} on reader {message.reader}, outside the room, at {at}")
        elif isinstance(message, TagOn) and not any(message.reader in s for s in spans):
            wrong.append(f"TAG_ON {uid} on {message.reader} at {at}: never there in the window ({spans})")
        elif isinstance(message, TagOff) and all(message.reader in s for s in spans):
            wrong.append(f"TAG_OFF {uid} on {message.reader} at {at}: it lay there the whole window")
    return wrong


def test_b_twelve_tags_come_and_go_over_one_rooms_antennas(crowded: tuple[Twin, Host]) -> None:
    twin, host = crowded
    antennas = room_readers("Ballroom")
    assert antennas == [1, 17, 18]
    rng = random.Random(28)
    uids = [uid_for(n) for n in range(12)]
    truth = Truth()
    since = host.pump()
    for _ in range(100):
        uid = rng.choice(uids)
        lying = truth.now().get(uid)
        roll = rng.random()
        if lying and roll < 0.4:
            truth.record(uid, lift(twin, uid), [])
            continue
        over = rng.sample(antennas, 2) if roll > 0.8 else [rng.choice(antennas)]
        how = "slide" if lying and roll > 0.6 else "place"  # slid: it stays powered if a field stays on
        truth.record(uid, place(twin, uid, over, how), over)
        host.run(0.05)  # several changes a pass: arrivals, departures and moves overlap
    expected = set(truth.now())
    held_by = {reader: {uid for uid, over in truth.now().items() if reader in over} for reader in antennas}

    def settled() -> bool:
        """The room holds what lies in it; no antenna holds a tag that left it (a tag across two
        antennas may be held by one of them only: the other finds it halted)."""
        held = host.present()
        in_room = set().union(*(held.get(r, set()) for r in antennas))
        return in_room == expected and all(held.get(r, set()) <= held_by[r] for r in antennas)

    host.until(settled, 4.0, f"the room's reports settle on {sorted(expected)}")
    window = 700_000  # a full pass of 29 readers (~250 ms), three misses for a departure, the host's polling
    assert wrong_reports(host, truth, antennas, window) == []
    assert len(host.messages(TagOn, since)) >= 20  # the churn was seen, not slept through


def test_b_a_tag_straddling_two_antennas(crowded: tuple[Twin, Host]) -> None:
    """Finding 5: a tag over two antennas of a room, halted by one, powered by the other."""
    twin, host = crowded
    first, second = room_readers("Ballroom")[1:]
    uid = uid_for(99)
    start = place(twin, uid, [first, second], "straddle")
    host.until(lambda: any(uid in host.present().get(r, set()) for r in (first, second)), 1.0,
               "the straddling tag is reported")
    host.run(0.8)  # three passes and more: a tag the scans lost would be reported gone by now
    assert not [m for _, m in host.messages(TagOff, start) if m.uid.hex() == uid]
    holders = [r for r in (first, second) if uid in host.present().get(r, set())]
    place(twin, uid, [second], "slide")  # off the first antenna, still on the second: powered, maybe halted
    host.until(lambda: uid in host.present().get(second, set()) and uid not in host.present().get(first, set()),
               2.0, "the slid tag held by the antenna it lies on, and only by it")
    gone = lift(twin, uid)
    host.until(lambda: all(uid not in host.present().get(r, set()) for r in (first, second)), 2.0,
               f"the lifted tag reported gone (held by {holders})")
    assert all(m.reader in (first, second) for _, m in host.messages(TagOn, start) if m.uid.hex() == uid)
    assert gone > start


# ---- e: the 29-reader build with every piece on the board ----------------------------------------


def test_e_every_piece_on_the_29_reader_board(crowded: tuple[Twin, Host]) -> None:
    twin, host = crowded
    twin.command({"readers": {"cmd": "clear"}})  # the tags of b: reported gone meanwhile
    rooms = [room_readers(room) for room in ROOM_NAMES]
    placed: dict[str, int] = {}
    for n in range(12):  # six movers and six weapons, in the rooms, over their antennas
        antennas = rooms[n % 9]
        placed[uid_for(100 + n)] = antennas[n % len(antennas)]
    for n in range(18):  # the dealt cards, three on each seat pad
        placed[uid_for(200 + n)] = SEAT_PADS[n % 6]
    for n in range(3):  # the envelope's three cards on the centre
        placed[uid_for(300 + n)] = CENTRE
    for uid, reader in placed.items():
        place(twin, uid, [reader])

    def all_seen() -> bool:
        held = host.present()
        return all(uid in held.get(reader, set()) for uid, reader in placed.items())

    host.until(all_seen, 5.0, "every piece and card reported")
    steady = host.pump()
    host.until(lambda: len(host.logs("twin heap", steady)) >= 2, 5.0, "two heap reports at steady state")
    assert twin.boots()[-1]["n"] == 1, "the board rebooted"
    assert not host.logs("MemoryError|crashed")
    heap = [tuple(map(int, re.findall(r"\d+", text))) for text in host.logs("twin heap", steady)]
    after_gc, least = min(h[0] for h in heap), min(h[1] for h in heap)
    print(f"\n29 readers, {len(placed)} tags: gc.mem_free() {after_gc} bytes after gc.collect(), "
          f"{least} at least between collections")
    assert least > 20_000


# ---- f: a missing module, TempErr and a power dip, each reported once ----------------------------


def test_f_unplugged_overheated_and_dipped_readers_are_each_reported_once(crowded: tuple[Twin, Host]) -> None:
    twin, host = crowded
    unplugged, hot, dipped = 28, 27, 26  # Study 2, Hall 3, Hall 2
    names = {unplugged: "Study 2", hot: "Hall 3", dipped: "Hall 2"}
    since = host.pump()
    for reader, cmd in ((unplugged, "unplug"), (hot, "overheat"), (dipped, "power_dip")):
        twin.command({"readers": {"cmd": cmd, "reader": reader}})
    host.run(RETRY_MS / 1000 + 0.6)  # a retry of the failed readers (a pass to fail, the wait, a pass to retry)
    faults = {unplugged: "no module answers", hot: "overheated", dipped: "reset itself"}
    about = {reader: host.logs(re.escape(names[reader]) + ".*" + faults[reader], since) for reader in names}
    assert about == {reader: about[reader][:1] for reader in names} and all(about.values()), about  # each once
    assert [text for text in host.logs("Hall 2", since) if text not in about[dipped]] == \
        ["reader 26 (Hall 2) answers again"]  # set up afresh on the next pass
    working = host.messages(Readers, since)[-1][1].working
    assert unplugged not in working and hot not in working and dipped in working
    later = host.pump()
    twin.command({"readers": {"cmd": "plug", "reader": unplugged}})
    twin.command({"readers": {"cmd": "cool", "reader": hot}})

    def back() -> bool:
        frames = host.messages(Readers, later)
        return bool(frames) and {unplugged, hot} <= frames[-1][1].working

    host.until(back, 4.5, "both readers back after a retry")
    assert [len(host.logs(re.escape(names[reader]), later)) for reader in (unplugged, hot)] == [1, 1]
    assert not [text for text in host.logs(".", since) if re.search(faults[unplugged], text)][1:]


# ---- g: the netlist's wiring ---------------------------------------------------------------------


def test_g_the_netlist_as_drawn_passes_the_wiring_check(crowded: tuple[Twin, Host]) -> None:
    """A tag on a reader of each kind (a direct chip select, a decoder's output, a seat pad on SPI1) is
    reported there and only there; test_twin_wiring.py runs the same check on a netlist with wires crossed."""
    twin, host = crowded
    twin.command({"readers": {"cmd": "clear"}})
    assert wiring_problems(twin, host, (0, 16, 10), 29) == []
