"""The real MFRC522 driver (firmware/mfrc522.py) against the register-level fake chip and tags."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from fw_fixtures import mp  # noqa: F401 - pytest fixture
from mpy_runner import MicroPython

MUSTARD = "04a21b3c"  # MIFARE Classic: 4-byte UID
PLUM = "04112233445566"  # NTAG21x: 7-byte UID
WHITE = "04112233445577"  # shares PLUM's first cascade level
ROPE = "0411223344556677889a"  # 10-byte UID


@pytest.fixture
def bench(mp: MicroPython) -> Iterator[MicroPython]:
    mp.run("import fw_bench\nbench = fw_bench.Bench(2)\nchip = bench.chips[0]\nreader = bench.drivers[0]")
    yield mp


def scan(mp: MicroPython, reader: int = 0) -> list[str]:
    return mp.eval(f"bench.scan({reader})")  # type: ignore[no-any-return]


def test_init_finds_the_chip_and_sets_it_up_for_type_a(bench: MicroPython) -> None:
    assert bench.eval("reader.version()") == 0x92
    assert bench.eval("bench.init()") is True
    registers = bench.eval("[chip.register(r) for r in (0x2A, 0x2B, 0x2D, 0x15, 0x11, 0x0E, 0x14)]")
    # TAuto timer at 40 kHz, 1 ms time-out; 100 % ASK; CRC preset 0x6363; ValuesAfterColl off; antenna off.
    assert registers == [0x80, 0xA9, 40, 0x40, 0x3D, 0x00, 0x80]


def test_an_empty_reader_reports_nothing_and_leaves_its_antenna_off(bench: MicroPython) -> None:
    bench.run("bench.init()")
    assert scan(bench) == []
    assert bench.eval("chip.field_on") is False
    assert bench.eval("chip.transceives") == 1  # one WUPA, no answer


def test_one_tag_is_read_selected_and_halted(bench: MicroPython) -> None:
    bench.run(f"bench.init()\ncard = bench.place({MUSTARD!r})")
    assert scan(bench) == [MUSTARD]
    assert bench.eval(f"bench.selected({MUSTARD!r})") == 1
    assert bench.eval("chip.field_on") is False  # and the field is off again
    assert scan(bench) == [MUSTARD]  # the next scan powers it up afresh


def test_seven_and_ten_byte_uids_go_through_every_cascade_level(bench: MicroPython) -> None:
    bench.run(f"bench.init()\nbench.place({PLUM!r})")
    assert scan(bench) == [PLUM]
    bench.run(f"bench.remove({PLUM!r})\nbench.place({ROPE!r})")
    assert scan(bench) == [ROPE]


@pytest.mark.parametrize("uids", [
    [MUSTARD, PLUM],
    [MUSTARD, PLUM, ROPE],
    [PLUM, WHITE],  # identical first level: they collide only at level 2
    ["04a21b3c", "04a21bbc"],  # only the last bit of the UID differs (and so the BCC)
    ["04a21b3c", "04a21b3d"],  # only the first bit of the last byte
    ["80000000", "00000000"],  # the very last bit sent at level 1
    [PLUM, "04112233445567", "041122334455e6"],  # 7-byte UIDs differing in their last bits
    ["00010000", "00010100", "00000000"],  # a second collision two bytes past the first known byte
], ids=["4+7", "4+7+10", "same-level-1", "last-bit", "last-byte-first-bit", "bit-31", "three-7-byte",
        "second-collision-later"])
def test_every_tag_on_one_reader_is_read(bench: MicroPython, uids: list[str]) -> None:
    bench.run("bench.init()\n" + "".join(f"bench.place({uid!r})\n" for uid in uids))
    assert sorted(scan(bench)) == sorted(uids)
    assert [bench.eval(f"bench.selected({uid!r})") for uid in uids] == [1] * len(uids)


def test_a_crowd_of_random_tags_is_read(bench: MicroPython) -> None:
    rng = random.Random(2024)
    uids = sorted({bytes([0x04] + [rng.randrange(256) for _ in range(rng.choice([3, 6]))]).hex() for _ in range(7)})
    bench.run("bench.init()\n" + "".join(f"bench.place({uid!r})\n" for uid in uids))
    assert sorted(scan(bench)) == uids


def test_a_scan_stops_at_max_cards(mp: MicroPython) -> None:
    mp.run("import fw_bench\nbench = fw_bench.Bench(1, max_cards=3)\nbench.init()\n"
           + "".join(f"bench.place('0400000{i}')\n" for i in range(5)))
    assert len(scan(mp)) == 3


def test_a_removed_tag_is_no_longer_reported(bench: MicroPython) -> None:
    bench.run(f"bench.init()\nbench.place({MUSTARD!r})\nbench.place({PLUM!r})")
    assert sorted(scan(bench)) == sorted([MUSTARD, PLUM])
    bench.run(f"bench.remove({MUSTARD!r})")
    assert scan(bench) == [PLUM]


def test_readers_on_one_bus_see_only_their_own_tags(bench: MicroPython) -> None:
    bench.run(f"bench.init(0)\nbench.init(1)\nbench.place({MUSTARD!r}, 0)\nbench.place({PLUM!r}, 1)")
    assert scan(bench, 0) == [MUSTARD]
    assert scan(bench, 1) == [PLUM]


@pytest.mark.parametrize("miso", [0x00, 0xFF])
def test_a_failed_reader_is_not_alive_and_reads_nothing(bench: MicroPython, miso: int) -> None:
    bench.run(f"bench.init()\nbench.place({MUSTARD!r})\nchip.fail({miso})")
    assert bench.eval("reader.version()") == miso
    assert bench.eval("reader.alive()") is False
    assert bench.eval("bench.init()") is False
    assert scan(bench) == []


def test_a_healed_reader_needs_setting_up_again(bench: MicroPython) -> None:
    bench.run(f"bench.init()\nbench.place({MUSTARD!r})\nchip.fail()\nchip.heal()")
    assert bench.eval("reader.alive()") is True
    assert scan(bench) == []  # power-on registers: no 100 % ASK, wrong CRC preset
    assert bench.eval("bench.init()") is True
    assert scan(bench) == [MUSTARD]


def test_a_chip_without_the_crc_a_preset_cannot_select(bench: MicroPython) -> None:
    # The driver's SELECT carries the chip-computed CRC_A, which the tag checks.
    bench.run(f"bench.init()\nbench.place({MUSTARD!r})\nreader._write(0x11, 0x3F)")
    assert scan(bench) == []
    assert bench.eval(f"bench.selected({MUSTARD!r})") == 0


def test_readers_behind_74hc154_decoders_each_read_their_own_tag(mp: MicroPython) -> None:
    # 18 readers: 16 on the first decoder, 2 on the second (shared A0-A3 on GP0-3, enables GP4, GP5).
    mp.run("import fw_rig\nrig = fw_rig.Rig(18, decoder=((0, 1, 2, 3), (4, 5)))\n"
           + "".join(f"rig.place('04a21b{i:02x}', {i})\n" for i in range(18)))
    mp.run("rig.board.scanner.scan(0, lambda *a: None)")
    entries = mp.eval("[(r, fw_rig.hexlify(u)) for r, u in rig.board.scanner.entries()]")
    assert entries == [[i, f"04a21b{i:02x}"] for i in range(18)]
    assert mp.eval("rig.board.scanner.working") == (1 << 18) - 1


def test_a_collision_is_settled_by_following_the_tag_with_a_1(bench: MicroPython) -> None:
    # Both orders would find both tags; the driver's rule makes the order predictable.
    bench.run("bench.init()\nbench.place('04a21b3c')\nbench.place('04a21b3d')\nbench.place('05a21b3c')")
    assert scan(bench) == ["05a21b3c", "04a21b3d", "04a21b3c"]
