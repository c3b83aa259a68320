"""The real MFRC522 driver (firmware/mfrc522.py) against the register-level fake chip and tags.

Adapted for tracking by UID (docs/sensing.md): a tag stays halted across a
short field gap, so a second scan finds it only when it is passed as known
(confirmed by WUPA + SELECT) or when the field is reset first. The tests of
the reader details (error order, antenna timing, brown-out, RxGain and the
transmitter, SPI speed) read the fake chip's register log.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from fw_fixtures import mp  # noqa: F401 - pytest fixture
from mpy_runner import MicroPython

from hardware.protocol import Log, Parser

MUSTARD = "04a21b3c"  # MIFARE Classic: 4-byte UID
PLUM = "04112233445566"  # NTAG21x: 7-byte UID
WHITE = "04112233445577"  # shares PLUM's first cascade level
ROPE = "0411223344556677889a"  # 10-byte UID


@pytest.fixture
def bench(mp: MicroPython) -> Iterator[MicroPython]:
    mp.run("import fw_bench\nbench = fw_bench.Bench(2)\nchip = bench.chips[0]\nreader = bench.drivers[0]")
    yield mp


def scan(mp: MicroPython, reader: int = 0, known: tuple[str, ...] = (), reset: bool = False) -> list[str]:
    return mp.eval(f"bench.scan({reader}, {list(known)!r}, {reset})")  # type: ignore[no-any-return]


def log(mp: MicroPython, rw: str, reg: int) -> list[list[int]]:
    """[time_us, value] of every read ("r") or write ("w") of ``reg`` since logging began."""
    found: list[list[int]] = mp.eval(f"[[t, v] for (t, rw, reg, v) in chip.log if rw == {rw!r} and reg == {reg}]")
    return found


def test_init_finds_the_chip_and_sets_it_up_for_type_a(bench: MicroPython) -> None:
    assert bench.eval("reader.version()") == 0x92
    assert bench.eval("bench.init()") is True
    registers = bench.eval("[chip.register(r) for r in (0x2A, 0x2B, 0x2D, 0x15, 0x11, 0x0E, 0x14, 0x27, 0x28, 0x26)]")
    # TAuto timer at 40 kHz, 1 ms time-out; 100 % ASK; CRC preset 0x6363; ValuesAfterColl off; antenna off;
    # transmitter conductance at its most (GsNReg CWGsN 0xF, ModGsN 8; CWGsPReg 0x3F); RxGain 33 dB.
    assert registers == [0x80, 0xA9, 40, 0x40, 0x3D, 0x00, 0x80, 0xF8, 0x3F, 0x48]


def test_an_empty_reader_reports_nothing_and_leaves_its_antenna_off(bench: MicroPython) -> None:
    bench.run("bench.init()")
    assert scan(bench) == []
    assert bench.eval("chip.field_on") is False
    assert bench.eval("chip.transceives") == 1  # one REQA, no answer


def test_one_tag_is_read_selected_and_halted(bench: MicroPython) -> None:
    bench.run(f"bench.init()\ncard = bench.place({MUSTARD!r})")
    assert scan(bench) == [MUSTARD]
    assert bench.eval(f"bench.selected({MUSTARD!r})") == 1
    assert bench.eval("chip.field_on") is False  # and the field is off again
    assert bench.eval("bench.states()") == {MUSTARD: "HALT"}
    assert scan(bench) == []  # a short gap leaves it halted: REQA does not wake it ...
    assert scan(bench, known=(MUSTARD,)) == [MUSTARD]  # ... WUPA + SELECT by its UID does
    assert bench.eval(f"bench.selected({MUSTARD!r})") == 2
    assert bench.eval("bench.states()") == {MUSTARD: "HALT"}
    assert scan(bench, reset=True) == [MUSTARD]  # and so does a field reset


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
    assert scan(bench, known=(MUSTARD, PLUM)) == [PLUM]


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
    assert bench.eval("reader.version()") == 0x92
    assert bench.eval("reader.alive()") is False  # it answers, but lost its set-up
    assert scan(bench) == []  # power-on registers: no 100 % ASK, wrong CRC preset
    assert bench.eval("bench.init()") is True
    assert scan(bench) == [MUSTARD]


def test_the_drivers_crc_a_is_iso_14443_3s(bench: MicroPython) -> None:
    # ISO/IEC 14443-3 Annex B's examples (0x00 0x00 -> 0x1EA0, 0x12 0x34 -> 0xCF26), HLTA's well-known
    # 50 00 57 CD, and the fake tags' own CRC_A over SELECT-like frames; data plus its CRC gives 0.
    bench.run("import mfrc522, fake_tags")
    assert bench.eval("mfrc522.crc_a(b'\\x00\\x00', 0, 2), mfrc522.crc_a(b'\\x12\\x34', 0, 2)") == [0x1EA0, 0xCF26]
    assert bench.eval("mfrc522.crc_a(b'\\x50\\x00', 0, 2)") == 0xCD57
    frames = [bytes([0x93, 0x70, i, 255 - i, i * 7 & 255, i * 13 & 255, i]) for i in range(0, 256, 17)]
    ours = bench.eval(f"[mfrc522.crc_a(f, 0, len(f)) for f in {frames!r}]")
    assert ours == bench.eval(f"[fake_tags.crc_a(f) for f in {frames!r}]")
    assert bench.eval("mfrc522.crc_a(b'\\x08\\xb6\\xdd', 0, 3)") == 0  # SAK 0x08 and its CRC_A


def test_a_sak_whose_crc_a_is_wrong_is_not_a_selection(bench: MicroPython) -> None:
    # The tag's SAK comes with a CRC_A the driver checks; a corrupted one fails the SELECT.
    bench.run(f"bench.init()\nbench.place({MUSTARD!r})\n"
              "orig = chip._receive\n"
              "def corrupt(answers, align):\n    heard = orig(answers, align)\n"
              "    if heard == 24:\n        chip._fifo[2] ^= 1\n    return heard\n"
              "chip._receive = corrupt")
    assert scan(bench) == []


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


# ---- reader details (issue 20, item 4), each read off the register log -------------------------------------


def test_a_collision_wins_over_the_parity_error_it_brings(bench: MicroPython) -> None:
    # The two UIDs differ in one bit of a byte sent whole, so their parity bits collide as well:
    # ErrorReg reads CollErr | ParityErr, and NXP's order (overflow, collision, protocol, CRC/parity)
    # makes it a collision to resolve, not an error that ends the round.
    bench.run("bench.init()\nbench.place('04a21b3c')\nbench.place('04a21b3d')\nchip.logging = True")
    assert sorted(scan(bench)) == ["04a21b3c", "04a21b3d"]
    entries = bench.eval("[(rw, reg, v) for (_t, rw, reg, v) in chip.log]")
    both = [i for i, (rw, reg, value) in enumerate(entries) if rw == "r" and reg == 0x06 and value & 0x0A == 0x0A]
    assert both, "the fake never set CollErr and ParityErr together"
    # In the anticollision round the driver went on to read where the collision was (CollReg)
    # before its next command, instead of giving up on a parity error.
    def next_command(at: int) -> int:
        return next(i for i in range(at, len(entries)) if entries[i][:2] == ["w", 0x01])

    assert any(["r", 0x0E] in [entry[:2] for entry in entries[at:next_command(at)]] for at in both)


def test_a_protocol_error_alone_ends_the_round(bench: MicroPython) -> None:
    # ErrorReg is written by the chip; forcing ProtocolErr on an answer makes it an error.
    bench.run("bench.init()\nbench.place('04a21b3c')\nreader._write(0x0C, 0)\n"
              "orig = chip._receive\n"
              "def garbled(answers, align):\n    heard = orig(answers, align)\n    chip._regs[0x06] |= 0x01\n"
              "    return heard\n"
              "chip._receive = garbled")
    assert scan(bench) == []


def test_the_field_is_on_5_1_ms_before_the_first_request(bench: MicroPython) -> None:
    bench.run("bench.init()\nbench.place('04a21b3c')\nchip.logging = True")
    assert scan(bench) == ["04a21b3c"]  # a tag that needs its full 5 ms of field answers the first REQA
    on = next(t for t, value in log(bench, "w", 0x14) if value == 0x83)
    first_send = next(t for t, value in log(bench, "w", 0x0D) if value & 0x80)
    assert first_send - on >= 5100
    assert bench.eval("chip.transceives") < 20  # no retries were needed


def test_a_reader_with_too_little_settle_misses_a_slow_tag(mp: MicroPython) -> None:
    # The fake holds tags to ISO 14443-3's 5 ms: the old 1.5 ms settle would lose them.
    mp.run("import fw_bench\nbench = fw_bench.Bench(1, settle_us=1500)\nbench.init()\nbench.place('04a21b3c')")
    assert mp.eval("bench.scan()") == []


def test_the_field_goes_off_5_ms_only_when_a_reset_is_asked_for(bench: MicroPython) -> None:
    bench.run("bench.init()\nbench.place('04a21b3c')\nchip.logging = True")
    scan(bench)
    scan(bench, known=("04a21b3c",))
    scan(bench, reset=True)
    switched = log(bench, "w", 0x14)
    gaps = [switched[i + 1][0] - switched[i][0] for i in range(1, len(switched) - 1, 2)]  # off -> next on
    assert len(gaps) == 2
    assert gaps[0] < 5000  # an ordinary scan does not wait: known tags are woken by WUPA
    assert gaps[1] >= 5000  # the reset keeps the field off 5 ms, so halted tags power down
    assert bench.eval("chip.transceives") > 0


def test_a_reader_that_reset_itself_is_noticed(bench: MicroPython) -> None:
    bench.run("bench.init()\nimport mfrc522")
    assert bench.eval("reader.health() == mfrc522.HEALTHY") is True
    bench.run("chip.power_on()")  # a brown-out: every register back to its power-on value
    assert bench.eval("reader.version()") == 0x92  # VersionReg alone would not tell
    assert bench.eval("reader.health() == mfrc522.WAS_RESET") is True
    assert bench.eval("reader.alive()") is False
    assert bench.eval("reader.init()") is True
    assert bench.eval("reader.health() == mfrc522.HEALTHY") is True


def test_a_brown_out_is_reported_and_the_reader_set_up_again_keeping_its_tags(mp: MicroPython) -> None:
    mp.run("import fw_rig\nrig = fw_rig.Rig(2)\nrig.host_send('')\nrig.place('04a21b3c', 0)\nrig.advance(20)")
    assert mp.eval("[(r, fw_rig.hexlify(u)) for r, u in rig.board.scanner.entries()]") == [[0, "04a21b3c"]]
    written = mp.eval("rig.chips[0].power_on() or rig.advance(10)")
    assert mp.eval("rig.board.scanner.working") == 0b10  # noticed, reported as not working
    # ... and told apart from a dead reader: the board logs it (taking the scanner's count)
    texts = [m.text for m in Parser().feed(bytes.fromhex(written)) if isinstance(m, Log)]
    assert texts == ["reader 0 (Kitchen) reset itself (power dip?): set up again"]  # not "no module"
    written = mp.eval("rig.advance(10)")
    assert mp.eval("rig.board.scanner.working") == 0b11  # set up again on the next pass
    texts = [m.text for m in Parser().feed(bytes.fromhex(written)) if isinstance(m, Log)]
    assert texts == ["reader 0 (Kitchen) answers again"]
    assert mp.eval("rig.chips[0].register(0x2B)") == 0xA9
    assert mp.eval("[(r, fw_rig.hexlify(u)) for r, u in rig.board.scanner.entries()]") == [[0, "04a21b3c"]]


# ---- a missing module, an overheated chip (issue 28, findings 6 and 7) ------------------------------


@pytest.mark.parametrize("version", [0x91, 0x92, 0x88, 0x12])
def test_every_known_chip_version_is_a_module(mp: MicroPython, version: int) -> None:
    # 0x91/0x92: MFRC522 v1.0/v2.0 (datasheet 9.3.4.8); 0x88 FM17522 and 0x12 counterfeit, as
    # miguelbalboa/rfid's PCD_DumpVersionToSerial names them.
    mp.run(f"import fw_bench, mfrc522\nbench = fw_bench.Bench(1)\nbench.chips[0].version = {version}\n"
           "bench.chips[0].power_on()\nbench.place('04a21b3c')")
    assert mp.eval("bench.init()") is True
    assert mp.eval("bench.drivers[0].health() == mfrc522.HEALTHY") is True
    assert mp.eval("bench.scan()") == ["04a21b3c"]


@pytest.mark.parametrize("miso", [0x00, 0xFF, 0x5A, 0x93])
def test_any_other_version_is_no_module_and_costs_one_spi_transaction(bench: MicroPython, miso: int) -> None:
    # 0x00: an unplugged module, its MISO buffer's input pulled down; anything else is noise.
    bench.run(f"import mfrc522\nchip.fail({miso})\nbefore = (chip.transfers, bench.clock.now)")
    assert bench.eval("reader.health() == mfrc522.NO_ANSWER") is True
    assert bench.eval("reader.version_read") == miso
    assert bench.eval("reader.recover() == mfrc522.NO_ANSWER") is True  # a retry by the scanner
    assert bench.eval("bench.init()") is False
    # health(), recover() and init() took one SPI transaction each, no soft reset and no 50 ms wait.
    assert bench.eval("chip.transfers - before[0]") == 3
    assert bench.eval("bench.clock.now - before[1]") < 200


def test_an_overheated_reader_says_so_and_works_again_once_cooled_and_cleared(bench: MicroPython) -> None:
    bench.run("import mfrc522\nbench.init()\nbench.place('04a21b3c')\nchip.logging = True")
    assert scan(bench) == ["04a21b3c"]
    bench.run("chip.overheat()")
    assert bench.eval("reader.health() == mfrc522.OVERHEATED") is True
    assert scan(bench, known=("04a21b3c",)) == []  # the drivers are off: an empty field
    assert bench.eval("reader.recover() == mfrc522.OVERHEATED") is True  # still too hot: TempErr stays
    bench.run("chip.cool()")
    assert bench.eval("reader.health() == mfrc522.OVERHEATED") is True  # latched until cleared
    assert bench.eval("reader.recover() == mfrc522.HEALTHY") is True
    # Each try pulses TempSensClear (Status2Reg bit 7), without a soft reset (the set-up is kept).
    assert [value for _, value in log(bench, "w", 0x08)] == [0x80, 0x00, 0x80, 0x00]
    assert [value for _, value in log(bench, "w", 0x01) if value == 0x0F] == []
    assert scan(bench, known=("04a21b3c",)) == ["04a21b3c"]


# ---- a tag across two antennas (issue 28, finding 5) --------------------------------------------------


def test_a_field_reset_waits_for_every_antenna_a_straddling_tag_lies_over(bench: MicroPython) -> None:
    bench.run("bench.init(0)\nbench.init(1)\nbench.place_over('04a21b3c', (0, 1))")
    assert scan(bench, 0) == ["04a21b3c"]  # reader 0 finds it and halts it
    # Reader 1's own field has been off long, but reader 0's field kept the tag powered and halted
    # until a moment ago: a reset that looks only at its own antenna does not wake it.
    assert scan(bench, 1, reset=True) == []
    assert scan(bench, 0, known=("04a21b3c",)) == ["04a21b3c"]
    # Given when the last antenna went off (the scanner passes it), the reset waits 5 ms from then.
    bench.run("chip.logging = bench.chips[1].logging = True\noff = bench.drivers[0].off_at")
    assert bench.eval("bench.scan(1, reset=True, off_at=off)") == ["04a21b3c"]
    on = bench.eval("[t for (t, rw, reg, v) in bench.chips[1].log if rw == 'w' and reg == 0x14 and v == 0x83]")
    assert on[0] - bench.eval("off") >= 5000


@pytest.mark.parametrize("gain", [0x00, 0x40, 0x70])
def test_rxgain_is_written_keeping_rfcfgreg_reserved_bits(mp: MicroPython, gain: int) -> None:
    mp.run("import fw_bench, mfrc522, chipselect\nbench = fw_bench.Bench(1)\nchip = bench.chips[0]\n"
           f"reader = mfrc522.MFRC522(bench.spi, chipselect.DirectSelect(0), 5100, {gain})\n"
           "chip._regs[0x26] = 0x8D\nchip.logging = True\nchip.power_on = lambda: None")  # reserved bits 1, 1101
    assert mp.eval("reader.init()") is True
    reads, writes = log(mp, "r", 0x26), log(mp, "w", 0x26)
    assert len(reads) == 1 and len(writes) == 1 and reads[0][0] <= writes[0][0]  # read, modify, write
    assert writes[0][1] == 0x8D | gain  # bit 7 and bits 3-0 as they were, bits 6-4 the gain
    assert [value for _, value in log(mp, "w", 0x27)] == [0xF8]
    assert [value for _, value in log(mp, "w", 0x28)] == [0x3F]


def test_the_readers_share_a_1_mhz_spi_bus(mp: MicroPython) -> None:
    mp.run("import fw_rig, machine\nrig = fw_rig.Rig(1)")
    assert mp.eval("rig.board.scanner.readers[0]._spi.baudrate") == 1_000_000


def test_behind_decoders_the_address_lines_are_written_once_a_reader(mp: MicroPython) -> None:
    # A0-A3 change only when the driver turns to another reader (chipselect.Address.show): one
    # pass over 18 readers writes them a few times per reader, not on each of its SPI transactions.
    mp.run("import fw_rig\nrig = fw_rig.Rig(18, decoder=((0, 1, 2, 3), (4, 5)))\n"
           + "".join(f"rig.place('04a21b{i:02x}', {i})\n" for i in range(18))
           + "rig.board.scanner.scan(0, lambda *a: None)\n"
           "writes = [0]\n"
           "address = rig.board.scanner.readers[0]._cs._address\n"
           "def counted(pin):\n    plain = pin.value\n"
           "    def value(level=None):\n        writes[0] += 1\n        return plain(level)\n"
           "    pin.value = value\n"
           "for pin in address.pins:\n    counted(pin)\n"
           "before = sum(chip.transfers for chip in rig.chips)\n"
           "rig.board.scanner.scan(0, lambda *a: None)\n"
           "transactions = sum(chip.transfers for chip in rig.chips) - before")
    assert mp.eval("transactions") > 18 * 20  # each reader confirmed its tag: dozens of transactions
    assert 0 < mp.eval("writes[0]") <= 18 * 4
    entries = mp.eval("[(r, fw_rig.hexlify(u)) for r, u in rig.board.scanner.entries()]")
    assert entries == [[i, f"04a21b{i:02x}"] for i in range(18)]


def test_hlta_waits_its_air_time_but_not_the_1_ms_silence(bench: MicroPython) -> None:
    bench.run(f"bench.init()\nbench.place({MUSTARD!r})\nknown = bench.scan()\nchip.logging = True")
    assert scan(bench, known=(MUSTARD,)) == [MUSTARD]
    entries = bench.eval("[(t, rw, reg, v) for (t, rw, reg, v) in chip.log]")
    hlta = next(i for i, (_t, rw, reg, v) in enumerate(entries) if rw == "w" and reg == 0x09 and v == 0x50)
    sent = next(t for t, rw, reg, v in entries[hlta:] if rw == "w" and reg == 0x0D and v & 0x80)
    after = next(t for t, rw, reg, _v in entries[hlta:] if t > sent and rw == "w" and reg == 0x01)
    # 4 bytes with parity, start and end bits: 38 bit times of 9.44 us (ISO/IEC 14443-3 6.1).
    assert 359 + 20 <= after - sent < 1000  # and a 20 us margin
    assert bench.eval(f"bench.states()[{MUSTARD!r}]") == "HALT"


def test_a_failure_while_counting_the_previous_reader_leaves_no_field_on(mp: MicroPython) -> None:
    # The scanner counts reader 0's finds (and sends their events) while reader 1's field settles;
    # if sending raises, reader 1's field goes off again before the error leaves the scanner.
    mp.run("import fw_rig\nrig = fw_rig.Rig(2)\nrig.place('04a21b3c', 0)\n"
           "def boom(change, reader, uid):\n    raise OSError('USB gone')\n"
           "try:\n    rig.board.scanner.scan(0, boom)\n    raised = False\nexcept OSError:\n    raised = True")
    assert mp.eval("raised") is True
    assert mp.eval("[chip.field_on for chip in rig.chips]") == [False, False]
