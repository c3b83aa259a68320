"""A crowded room: a dozen tags on one antenna, tracked without relying on one anticollision round.

The real driver (firmware/mfrc522.py) and scanner (firmware/scanner.py) on a
fake field (tests/firmware/micropython/fake_mfrc522.py) whose tags follow the
ISO 14443-3 state machine, whose answers collide bit by bit and whose
colliding parity bits set ParityErr, as an MFRC522 reports them.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import pytest
from fw_fixtures import mp  # noqa: F401 - pytest fixture
from mpy_runner import MicroPython

CLASSIC = ["08a21b3c", "08a21b3d", "18a21b3c", "c0ffee01", "00000000", "80000000"]  # 4-byte UIDs
NTAG = ["04112233445566", "04112233445567", "041122334455e6", "04a0b0c0d0e0f0", "04a0b0c0d0e0f1",
        "04000000000000"]  # 7-byte UIDs, several sharing their first cascade level
TWELVE = CLASSIC + NTAG


@pytest.fixture
def bench(mp: MicroPython) -> Iterator[MicroPython]:
    mp.run("import fw_bench\nbench = fw_bench.Bench(1)\nbench.init()\nchip = bench.chips[0]")
    yield mp


@pytest.fixture
def room(mp: MicroPython) -> Iterator[MicroPython]:
    """The scanner over one reader; ``events`` collects (change, uid hex), 1 placed, 0 gone."""
    mp.run("import fw_crowd, binascii\nroom = fw_crowd.Room()\nevents = []\n"
           "def note(change, reader, uid):\n    events.append((change, binascii.hexlify(uid).decode()))\n"
           "def scan(times=1):\n    for _ in range(times):\n        room.scanner.scan(0, note)\n"
           "def place(uid):\n    room.bench.place(uid)\n"
           "def remove(uid):\n    room.bench.remove(uid)\n")
    yield mp


def events(mp: MicroPython) -> list[tuple[int, str]]:
    taken = mp.eval("list(events)", "")
    mp.run("events.clear()")
    return sorted((change, uid) for change, uid in taken)


@pytest.mark.parametrize("seed", [1, 2024, 90210])
def test_twelve_tags_come_and_go_a_hundred_times_with_no_wrong_report(mp: MicroPython, seed: int) -> None:
    mp.run(f"import fw_crowd\nroom = fw_crowd.Room({seed})\nwrong = room.churn(100, 12)")
    assert mp.eval("wrong") == []
    assert mp.eval("room.most_seen") == 12
    # The field really was crowded: answers collided, and their parity bits with them.
    assert mp.eval("room.chip.collisions") > 100
    assert mp.eval("room.chip.parity_errors") > 100
    # 7-byte and 4-byte UIDs both came and went.
    assert mp.eval("sorted({len(u) for u in room.used})") == [8, 14]


def test_twelve_tags_laid_at_once_are_all_found_in_one_scan(bench: MicroPython) -> None:
    bench.run("".join(f"bench.place({uid!r})\n" for uid in TWELVE))
    assert sorted(bench.eval("bench.scan()")) == sorted(TWELVE)
    assert bench.eval("chip.parity_errors") > 0  # colliding parity bits did not stop it
    assert set(bench.eval("bench.states()").values()) == {"HALT"}


def test_known_tags_are_confirmed_by_uid_and_only_newcomers_answer_reqa(bench: MicroPython) -> None:
    bench.run("".join(f"bench.place({uid!r})\n" for uid in TWELVE[:11]))
    first = bench.eval("bench.scan()")
    bench.run("bench.place('04deadbeef0102')\nchip.logging = True")
    # The field stayed off well under 5 ms: the eleven are still halted, the newcomer idle.
    second = bench.eval(f"bench.scan(known={first!r})")
    assert second[:11] == first and second[11:] == ["04deadbeef0102"]
    assert [bench.eval(f"bench.selected({uid!r})") for uid in TWELVE[:11]] == [2] * 11
    # One anticollision loop ran at cascade level 1 (SEL 0x93 with NVB 0x20), for the newcomer alone.
    frames = bench.eval("[v for (_t, rw, reg, v) in chip.log if rw == 'w' and reg == 0x09]")
    assert list(pairwise(frames)).count((0x93, 0x20)) == 1


def test_a_tag_halted_then_removed_is_reported_removed(room: MicroPython) -> None:
    room.run("place('08a21b3c')\nplace('04112233445566')\nscan()")
    assert events(room) == [(1, "04112233445566"), (1, "08a21b3c")]
    assert room.eval("room.chip.states()") == {"08a21b3c": "HALT", "04112233445566": "HALT"}
    room.run("remove('08a21b3c')\nscan(2)")
    assert events(room) == []  # two misses: not yet
    room.run("scan()")
    assert events(room) == [(0, "08a21b3c")]
    room.run("scan(3)")
    assert events(room) == []  # the other one stays


def test_a_tag_arriving_while_others_are_halted_is_found(room: MicroPython) -> None:
    room.run("".join(f"place({uid!r})\n" for uid in TWELVE[:8]) + "scan()")
    assert len(events(room)) == 8
    assert set(room.eval("list(room.chip.states().values())")) == {"HALT"}
    room.run("place('041122334455aa')\nscan()")
    assert events(room) == [(1, "041122334455aa")]


def test_a_tag_dropped_while_lying_halted_is_found_again_after_a_field_reset(room: MicroPython) -> None:
    # A tag that fails its confirmation three times (here: it cannot hear the reader) but lies
    # there halted is reported gone; the next scan powers the field down for 5 ms so REQA finds it.
    room.run("place('08a21b3c')\nscan()\ncard = room.bench.cards['08a21b3c']\ncard.boot_us = 10**9")
    assert events(room) == [(1, "08a21b3c")]
    room.run("scan(3)")
    assert events(room) == [(0, "08a21b3c")]
    off_at = room.eval("room.clock.now")  # the last scan has just switched the field off
    room.run("card.boot_us = 5000\nroom.chip.logging = True\nscan()")
    assert events(room) == [(1, "08a21b3c")]
    switched = room.eval("[(t, v) for (t, rw, reg, v) in room.chip.log if rw == 'w' and reg == 0x14]")
    assert switched[0][1] == 0x83 and switched[0][0] - off_at >= 5000  # the field comes on after 5 ms off


STRADDLE = """
import fw_bench, binascii
from scanner import Scanner
bench = fw_bench.Bench(2)
pair = Scanner(bench.drivers, 3, 2000)
pair.start(0)
seen = []
def note(change, reader, uid):
    seen.append((change, reader, binascii.hexlify(uid).decode()))
def passes(times=1):
    for _ in range(times):
        pair.scan(0, note)
"""


def test_a_tag_across_two_antennas_lost_while_halted_is_found_again(mp: MicroPython) -> None:
    # Two antennas of one room, scanned back to back: a tag over both is never out of a field for
    # 5 ms. Reader 0 finds it first and halts it, so reader 1 (REQA) never sees it.
    mp.run(STRADDLE + "card = bench.place_over('04a21b3c', (0, 1))\npasses(3)")
    assert mp.eval("seen") == [[1, 0, "04a21b3c"]]
    # It stops answering for three passes (detuned by a hand, say) while lying there, halted:
    # reader 0 reports it gone. The field reset that follows must power it down although reader
    # 1's field was on until just before: otherwise nobody ever finds it again.
    mp.run("seen.clear()\ncard.boot_us = 10**9\npasses(3)\ncard.boot_us = 5000\npasses(2)")
    assert mp.eval("seen") == [[0, 0, "04a21b3c"], [1, 0, "04a21b3c"]]
    assert mp.eval("sorted(binascii.hexlify(u).decode() for _, u in pair.entries())") == ["04a21b3c"]


def test_a_field_reset_costs_one_wait_of_5_ms_once(mp: MicroPython) -> None:
    # The wait comes once, in the scan after a tag was reported gone, not in every pass.
    mp.run(STRADDLE + "bench.place('04a21b3c', 0)\npasses(2)\nbench.remove('04a21b3c', 0)\n"
           "def timed():\n    start = bench.clock.now\n    passes()\n    return bench.clock.now - start\n")
    steady = mp.eval("[timed() for _ in range(3)]")  # the third reports it gone
    after = mp.eval("[timed() for _ in range(2)]")
    assert mp.eval("seen[-1]") == [0, 0, "04a21b3c"]
    assert after[0] - after[1] >= 4900  # reader 0's field stayed off 5 ms after reader 1's went off
    assert abs(after[1] - steady[0]) < 1500


def test_mixed_four_and_seven_byte_uids_sharing_levels_are_tracked(room: MicroPython) -> None:
    room.run("".join(f"place({uid!r})\n" for uid in TWELVE) + "scan()")
    assert events(room) == sorted((1, uid) for uid in TWELVE)
    room.run("remove('04112233445567')\nremove('08a21b3d')\nplace('04112233445568')\nscan(3)")
    assert events(room) == [(0, "04112233445567"), (0, "08a21b3d"), (1, "04112233445568")]


def test_a_scan_of_twelve_known_tags_takes_what_its_frames_and_silences_take(bench: MicroPython) -> None:
    bench.run("".join(f"bench.place({uid!r})\n" for uid in TWELVE) + "known = bench.scan()")
    took = bench.eval("bench.clock.now - start", "start = bench.clock.now\nbench.scan(known=known)")
    # At least: 5.1 ms of field first; per tag a WUPA and its ATQA (365 us) and an HLTA on air
    # (359 us: the driver no longer waits out the 1 ms in which a tag could refuse it); 18 SELECTs
    # with their SAKs (1148 us: 6 one-level, 6 two-level UIDs); the last REQA's ATQA time (365 us).
    # Frames at 106 kbit/s, 9.44 us a bit, start, parity and end bits (ISO/IEC 14443-3 6.1, 6.2.1.1).
    least = 5100 + 12 * (365 + 359) + 18 * 1148 + 365
    assert least <= took < 1.5 * least


def test_the_survey_statistics_count_each_tags_answers_per_scan(room: MicroPython) -> None:
    room.run("place('08a21b3c')\nplace('04112233445566')\nscan(3)\nremove('08a21b3c')\nscan(2)")
    assert room.eval("room.scanner.stats()") == {"0": {"08a21b3c": [3, 5], "04112233445566": [5, 5]}}
    room.run("room.scanner.reset_stats()")
    assert room.eval("room.scanner.stats()") == {}
    room.run("scan()")
    assert room.eval("room.scanner.stats()") == {"0": {"04112233445566": [1, 1]}}


def test_the_survey_statistics_are_bounded(room: MicroPython) -> None:
    # Tags come and go faster than 32 fit: the table stops growing, the counts go on.
    room.run("for i in range(40):\n    uid = '08a21b%02x' % i\n    place(uid)\n    scan()\n    remove(uid)\n")
    stats = room.eval("room.scanner.stats()")["0"]
    assert len(stats) == 32 and stats["08a21b00"] == [1, 40]
