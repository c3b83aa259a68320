"""The firmware's protocol behaviour (docs/protocol.md, "The board") on MicroPython, on simulated time.

Each test drives firmware/main.py's loop through tests/firmware/firmware_board.py
(fake chips, clock and cable; 10 ms a pass) and speaks to it in protocol bytes
with the host codec, hardware/protocol.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from board_host import Host as SharedHost
from board_host import kinds, snapshot_tags
from firmware_board import FirmwareBoard
from fw_fixtures import board, mp  # noqa: F401 - pytest fixtures
from hardware.protocol import (
    Buzzer, Heartbeat, Hello, HelloRequest, HostHeartbeat, Led, Log, Message, Readers, Snapshot,
    SnapshotRequest, Stats, StatsRequest, TagOff, TagOn, Unknown, Welcome, crc16, encode,
)
from mpy_runner import MicroPython, MicroPythonError

MUSTARD = bytes.fromhex("04A21B3C")
PICO_ID = bytes.fromhex("E66138104B2A252D")  # the fake machine.unique_id()
PLUM = bytes.fromhex("04112233445566")


class Host(SharedHost):
    """The shared host, plus the firmware rig's timeline and direct access."""

    def timeline(self, ms: int) -> list[tuple[int, Message]]:
        """(time in ms since the reset, message) for every frame written in the next ``ms``."""
        steps = self.board.mp.eval(f"rig.timeline({ms})")
        found = [(t, m) for t, written, _ in steps for m in self.parser.feed(bytes.fromhex(written))]
        self.log += [m for _, m in found]
        return found

    def rig(self, expression: str) -> Any:
        return self.board.mp.eval(f"rig.{expression}")


@pytest.fixture
def host(board: FirmwareBoard) -> Host:
    return Host(board)


def logs(messages: list[Message]) -> list[tuple[str, str]]:
    return [(m.level, m.text) for m in messages if isinstance(m, Log)]


# ---- hello, welcome ------------------------------------------------------------


def test_hello_at_once_then_every_second_while_unwelcomed(host: Host) -> None:
    host.board.place(MUSTARD, 0)
    got = host.timeline(3000)
    assert [(t, type(m).__name__) for t, m in got] == [(0, "Hello"), (1000, "Hello"), (2000, "Hello")]
    assert got[0][1] == Hello((1, 1), (1, 1, 0), 4, frozenset(range(4)), seq=0, board_id=PICO_ID)
    assert [m.seq for _, m in got] == [0, 1, 2]


def test_a_hello_request_is_answered_at_once_and_unwelcomes(host: Host) -> None:
    host.welcome()
    host.send(HelloRequest((1, 0)))
    got = host.timeline(1500)
    assert [(t, type(m).__name__) for t, m in got] == [(70, "Hello"), (1070, "Hello")]  # no HEARTBEAT


def test_welcome_of_our_major_brings_a_snapshot_and_any_minor_is_fine(host: Host) -> None:
    host.board.place(MUSTARD, 1)
    host.board.place(PLUM, 1)
    host.run(100)
    host.send(Welcome((1, 7)))
    got = host.run(30)
    assert kinds(got) == ["Snapshot", "Readers"]  # READERS always follows the last part
    assert got[0].part == 0 and got[0].parts == 1 and set(got[0].tags) == {(1, MUSTARD), (1, PLUM)}
    assert got[1] == Readers(4, frozenset(range(4)), seq=got[0].seq + 1)


def test_a_welcome_of_another_major_is_logged_and_ignored(host: Host) -> None:
    host.run(20)
    host.send(Welcome((2, 0)))
    got = host.run(1000)
    assert kinds(got) == ["Hello"]
    assert logs(got) == [("error", "host speaks protocol 2.0, this firmware 1.1: WELCOME ignored")]


def test_a_snapshot_request_is_answered_welcomed_or_not(host: Host) -> None:
    host.board.place(PLUM, 3)
    host.run(100)
    host.send(SnapshotRequest())
    got = host.run(20)
    assert kinds(got) == ["Snapshot", "Readers"] and snapshot_tags(got) == {(3, PLUM)}


# ---- tags --------------------------------------------------------------------------


def test_tag_on_at_first_sight_and_tag_off_after_three_missed_scans(host: Host) -> None:
    host.welcome()
    host.board.place(MUSTARD, 2)
    on = host.timeline(20)
    assert [(t, m.reader, m.uid) for t, m in on if isinstance(m, TagOn)] == [(70, 2, MUSTARD)]
    host.board.remove(MUSTARD)
    off = host.timeline(100)
    # Passes at 90, 100 and 110 ms miss it; the third miss reports it gone.
    assert [(t, type(m).__name__, m.reader) for t, m in off if isinstance(m, (TagOn, TagOff))] == [(110, "TagOff", 2)]


def test_a_tag_missed_twice_is_not_reported_gone(host: Host) -> None:
    host.board.place(MUSTARD, 0)
    host.welcome()
    host.board.remove(MUSTARD)
    host.run(20)  # two scans without it
    host.board.place(MUSTARD, 0)
    assert not [m for m in host.run(200) if isinstance(m, (TagOn, TagOff))]


def test_tags_come_and_go_unreported_while_unwelcomed_and_show_in_the_snapshot(host: Host) -> None:
    host.board.place(MUSTARD, 0)
    host.board.place(PLUM, 1)
    host.run(100)
    host.board.remove(PLUM)
    got = host.run(1000)
    assert kinds(got) == ["Hello"]
    assert snapshot_tags(host.welcome()) == {(0, MUSTARD)}


def test_a_tag_moved_between_readers_goes_off_one_and_on_the_other(host: Host) -> None:
    host.board.place(MUSTARD, 1)
    host.welcome()
    host.board.place(MUSTARD, 3)
    got = [(type(m).__name__, m.reader, m.uid) for m in host.run(100) if isinstance(m, (TagOn, TagOff))]
    assert got == [("TagOn", 3, MUSTARD), ("TagOff", 1, MUSTARD)]


def test_a_snapshot_of_many_tags_comes_in_parts_with_consecutive_seqs(mp: MicroPython) -> None:
    board = FirmwareBoard(readers=16, mp=mp)
    try:
        host = Host(board)
        placed = {(reader, bytes([4, reader, i, 0x1B, 0x3C, 0x5D, 0x6E])) for reader in range(16) for i in range(2)}
        placed |= {(9, bytes([0x08, i, 0x22, 0x33])) for i in range(3)}  # the centre holds three more
        for reader, uid in placed:
            board.place(uid, reader)
        host.run(10)
        got = host.welcome()
        parts = [m for m in got if isinstance(m, Snapshot)]
        assert len(placed) == 35 and [(p.part, p.parts) for p in parts] == [(0, 2), (1, 2)]
        assert [p.seq for p in parts] == [parts[0].seq, parts[0].seq + 1]
        assert kinds(got) == ["Snapshot", "Snapshot", "Readers"]
        assert all(len(encode(p)) <= 246 for p in parts)
        assert snapshot_tags(parts) == placed
    finally:
        board.close()


def test_an_empty_board_snapshot_is_one_part_with_no_tags(host: Host) -> None:
    got = host.welcome()
    assert [(m.part, m.parts, m.tags) for m in got if isinstance(m, Snapshot)] == [(0, 1, ())]


# ---- heartbeats, silence, sequence numbers -------------------------------------------------


def test_heartbeats_every_second_once_welcomed(host: Host) -> None:
    host.welcome()
    beats = []
    for _ in range(4):
        host.send(HostHeartbeat())
        beats += [t for t, m in host.timeline(1000) if isinstance(m, Heartbeat)]
    assert beats == [1020, 2020, 3020, 4020]  # WELCOME was read at 20 ms


def test_three_seconds_of_host_silence_turn_the_leds_off_and_bring_back_hello(host: Host) -> None:
    host.welcome()  # WELCOME read at 20 ms
    host.send(Led("on", (255, 0, 0), ()))  # read at 70 ms: the last frame from the host
    got = host.timeline(3100)
    hellos = [t for t, m in got if isinstance(m, Hello)]
    assert hellos == [3070]
    assert ("warning", "no frame from the host for 3000 ms: saying HELLO again") in logs([m for _, m in got])
    assert host.board.leds() == {}
    assert host.rig("shown()") == [[0, 0, 0]] * 4
    assert [t for t, m in host.timeline(1000) if isinstance(m, Hello)] == [4070]


def test_host_heartbeats_keep_the_board_welcomed(host: Host) -> None:
    host.welcome()
    got = host.run(6000, heartbeat_every=500)
    assert "Hello" not in kinds(got) and kinds(got).count("Heartbeat") == 6


def test_sequence_numbers_wrap_from_255_to_0(host: Host) -> None:
    for _ in range(150):
        host.send(HelloRequest((1, 0)))
        host.send(SnapshotRequest())
        host.run(10)
    seqs = [m.seq for m in host.log]
    assert len(seqs) >= 300
    assert seqs == [i % 256 for i in range(len(seqs))]


# ---- reader health -------------------------------------------------------------------------------


def test_a_failed_reader_is_reported_keeps_its_tags_and_is_retried_every_two_seconds(host: Host) -> None:
    host.board.place(MUSTARD, 2)
    host.welcome()
    host.board.fail_reader(2)
    got = host.run(200, heartbeat_every=100)
    assert [m.working for m in got if isinstance(m, Readers)] == [frozenset({0, 1, 3})]
    assert ("error", "reader 2 (Conservatory): no module answers: check its cable (CS, 3.3 V, GND, MISO)") in logs(got)
    host.board.remove(MUSTARD)  # lifted while the reader is dead: nobody can know yet
    got = host.run(1500, heartbeat_every=100)
    assert not [m for m in got if isinstance(m, (TagOff, Readers))]
    host.send(SnapshotRequest())
    assert snapshot_tags(host.run(20)) == {(2, MUSTARD)}
    host.board.heal_reader(2)
    host.send(HostHeartbeat())
    got = host.timeline(900)
    # Failed at 70 ms, retried at 2070 ms: it answers and is set up again; the next three passes miss the tag.
    assert [(t, m.working) for t, m in got if isinstance(m, Readers)] == [(2070, frozenset(range(4)))]
    assert [(t, m.reader, m.uid) for t, m in got if isinstance(m, TagOff)] == [(2100, 2, MUSTARD)]


def test_a_reader_dead_from_power_on_is_missing_from_hello(mp: MicroPython) -> None:
    board = FirmwareBoard(readers=4, mp=mp)
    try:
        mp.run("rig = fw_rig.Rig(4, failed=(1,))")
        host = Host(board)
        got = host.run(10)
        assert got[0] == Log("error", "reader 1 (Ballroom): no module answers: check its cable (CS, 3.3 V, GND, MISO)")
        assert got[1] == Hello((1, 1), (1, 1, 0), 4, frozenset({0, 2, 3}), seq=1, board_id=PICO_ID)
    finally:
        board.close()


def test_a_reader_that_fails_while_unwelcomed_is_only_logged_until_hello_or_snapshot(host: Host) -> None:
    host.run(20)  # HELLO says every reader works
    host.board.fail_reader(0)
    got = host.run(20)
    assert kinds(got) == [] and logs(got)[0][0] == "error"
    host.send(Welcome((1, 0)))
    got = host.run(20)
    assert kinds(got) == ["Snapshot", "Readers"] and got[-1].working == frozenset({1, 2, 3})


def test_an_unplugged_module_is_reported_once_as_missing_and_retried_cheaply(host: Host) -> None:
    host.welcome()
    # Unplugged: the pull-down on its MISO buffer's input reads 0x00; noise would read anything.
    host.board.mp.run("rig.fail_reader(1, 0x5A)")
    got = host.run(5000, heartbeat_every=100)
    assert logs(got) == [("error", "reader 1 (Ballroom): no module answers (VersionReg 0x5A): "
                                   "check its cable (CS, 3.3 V, GND, MISO)")]  # once, and not a "power dip"
    assert [m.working for m in got if isinstance(m, Readers)] == [frozenset({0, 2, 3})]
    # Retried every 2 s, one SPI transaction each: the bus is not held 57 ms per try.
    host.board.mp.run("chip = rig.chips[1]\nbefore = chip.transfers")
    host.run(4000, heartbeat_every=100)
    assert host.board.mp.eval("chip.transfers - before") == 2
    host.board.heal_reader(1)
    got = host.run(2000, heartbeat_every=100)
    assert logs(got) == [("info", "reader 1 (Ballroom) answers again")]


def test_an_overheated_reader_is_reported_once_keeps_its_tags_and_comes_back_cooled(host: Host) -> None:
    host.board.place(MUSTARD, 2)
    host.welcome()
    host.board.mp.run("rig.chips[2].overheat()")
    got = host.run(3000, heartbeat_every=100)
    assert logs(got) == [("error", "reader 2 (Conservatory) overheated; antenna off until it cools down")]
    assert [m.working for m in got if isinstance(m, Readers)] == [frozenset({0, 1, 3})]
    assert not [m for m in got if isinstance(m, (TagOff, TagOn))]  # down, so unknown: not empty
    host.board.mp.run("rig.chips[2].cool()")
    got = host.run(2100, heartbeat_every=100)
    assert logs(got) == [("info", "reader 2 (Conservatory) cooled down; antenna on again")]
    assert [m.working for m in got if isinstance(m, Readers)] == [frozenset(range(4))]
    assert not [m for m in got if isinstance(m, (TagOff, TagOn))]  # the tag is confirmed where it was
    assert host.board.mp.eval("rig.chips[2].field_on or rig.chips[2].register(0x06)") == 0


# ---- LEDs and buzzer -------------------------------------------------------------------------------


def test_led_frames_reach_the_ws2812_chain(host: Host) -> None:
    host.welcome()
    host.send(Led("on", (255, 0, 0), (1, 2)))
    host.send(Led("on", (0, 0, 9), (7, 200)))  # past the end of a 4-LED chain: ignored
    host.run(10)
    assert host.board.leds() == {1: ("on", (255, 0, 0)), 2: ("on", (255, 0, 0))}
    assert host.rig("shown()") == [[0, 0, 0], [255, 0, 0], [255, 0, 0], [0, 0, 0]]
    host.send(Led("off", leds=(2,)))
    host.run(10)
    assert host.rig("shown()") == [[0, 0, 0], [255, 0, 0], [0, 0, 0], [0, 0, 0]]


def test_blinking_leds_are_lit_half_of_each_second(host: Host) -> None:
    host.welcome()  # now 70 ms
    host.send(Led("blink", (0, 255, 0), (3,)))
    seen = []
    for _ in range(4):  # 80, 330, 580, 830 ms
        host.run(10)
        seen.append(host.rig("shown()")[3])
        host.run(240)
    assert seen == [[0, 255, 0], [0, 255, 0], [0, 0, 0], [0, 0, 0]]
    host.run(200)
    assert host.rig("shown()")[3] == [0, 255, 0]
    assert host.board.leds() == {3: ("blink", (0, 255, 0))}


def test_the_chain_is_written_only_when_it_changes(host: Host) -> None:
    host.welcome()
    writes = host.rig("pixels.writes")
    host.run(2000, heartbeat_every=500)
    assert host.rig("pixels.writes") == writes
    host.send(Led("on", (1, 2, 3), ()))
    host.run(100)
    assert host.rig("pixels.writes") == writes + 1


def test_a_buzzer_frame_sounds_the_pwm_for_its_duration(host: Host) -> None:
    host.welcome()
    host.send(Buzzer(880, 200))
    host.run(10)
    assert host.rig("tone()") == [880, 32768]
    host.run(190)
    assert host.rig("tone()") == [880, 32768]
    host.run(10)
    assert host.rig("tone()")[1] == 0
    host.send(Buzzer(5, 1000))  # below what a piezo (or the PWM) can do: clamped
    host.run(10)
    assert host.rig("tone()") == [20, 32768]
    host.send(Buzzer(0, 1000))  # frequency 0 silences at once
    host.run(10)
    assert host.rig("tone()")[1] == 0


# ---- what the host should not send -----------------------------------------------------------------


def test_garbage_from_the_host_is_skipped(host: Host) -> None:
    host.welcome()
    host.board.host_send(b"\x00junk\xa5\xf0\x03" + b"noise" * 3)  # a false start with a long LEN
    host.send(SnapshotRequest())
    got = host.run(10)
    assert kinds(got) == ["Snapshot", "Readers"]  # not held back behind the false start
    host.board.host_send(encode(SnapshotRequest(seq=9))[:-1] + b"\x00")  # bad CRC: no answer
    assert kinds(host.run(20)) == []


def test_unknown_and_board_side_types_from_the_host_are_logged_and_ignored(host: Host) -> None:
    host.welcome()
    host.send(Unknown(0x90, b"\x01\x02"))
    host.send(TagOn(1, MUSTARD))
    got = host.run(20)
    assert kinds(got) == []
    assert logs(got) == [("warning", "ignored a frame of type 0x90 from the host"),
                         ("warning", "ignored a frame of type 0x03 from the host")]


def test_a_malformed_frame_is_dropped_whole(host: Host) -> None:
    host.welcome()
    body = bytes([1, 0x84, 5, 0])  # a SNAPSHOT_REQUEST with a payload it should not have
    host.board.host_send(b"\xa5" + body + crc16(body).to_bytes(2, "big"))
    assert host.run(20) == []


# ---- the main loop ------------------------------------------------------------------------------------


def test_the_status_led_blinks_until_welcomed_then_stays_on(host: Host) -> None:
    steps = host.board.mp.eval("rig.timeline(1000)")
    assert {t: led for t, _, led in steps if t % 250 == 0} == {0: 1, 250: 1, 500: 0, 750: 0}
    host.send(Welcome((1, 0)))
    steps = host.board.mp.eval("rig.timeline(1000)")
    assert {led for _, _, led in steps} == {1}


def test_the_watchdog_is_fed_once_per_pass(host: Host) -> None:
    host.run(500)
    assert host.rig("wdt.feeds") == 50
    assert host.rig("wdt.timeout") == 8000


def test_ctrl_c_twice_stops_the_loop_and_keeps_the_watchdog_fed(host: Host) -> None:
    host.welcome()
    host.board.host_send(b"\r\x03\x03")
    host.run(10)
    assert host.rig("stopped") is True
    host.board.mp.run("import machine\nfeeds = rig.wdt.feeds\nmachine.timers[-1].callback(None)")
    assert host.board.mp.eval("rig.wdt.feeds - feeds") == 1
    assert host.board.mp.eval("machine.timers[-1].period") == 1000


def test_a_crash_is_logged_then_the_board_resets(host: Host) -> None:
    host.welcome()
    host.board.mp.run("def boom(*args):\n    raise OSError(5)\nrig.board.scanner.scan = boom")
    with pytest.raises(MicroPythonError, match="in reset\\nReset"):
        host.board.advance(10)
    got = host.parser.feed(bytes.fromhex(host.board.mp.eval("fw_rig.hexlify(rig.cable.take())")))
    assert got == [Log("error", 'crashed, resetting: OSError: [Errno 5] EIO (File "<string>", line 2, in boom)',
                       seq=got[0].seq)]


def test_a_crash_in_the_pass_that_asks_for_the_repl_stops_instead_of_resetting(host: Host) -> None:
    # A board that crashes in every pass must still let mpremote in: no reset when it asked.
    host.welcome()
    host.board.mp.run("def boom(*args):\n    raise OSError(5)\nrig.board.scanner.scan = boom")
    host.board.host_send(b"\r\x03")
    got = host.parser.feed(bytes.fromhex(host.board.mp.eval("rig.advance(10)")))
    assert host.rig("stopped") is True
    assert [(m.level, m.text) for m in got if isinstance(m, Log)] == [
        ("error", 'crashed: OSError: [Errno 5] EIO (File "<string>", line 2, in boom)')]


FAKE_STATS = """
class FakeStats:  # Scanner.stats()/reset_stats() as the scanner's owner specifies them
    def __init__(self):
        self.counts = {0: {'04a21b3c': (18, 20)}, 3: {'04a21b3c5d6e80': (5, 20), '04112233': (20, 20)}}
        self.resets = 0
    def stats(self):
        return self.counts
    def reset_stats(self):
        self.resets += 1
fake = FakeStats()
rig.board.scanner.stats = fake.stats
rig.board.scanner.reset_stats = fake.reset_stats
"""


def test_stats_request_is_answered_with_the_scanners_counts(host: Host) -> None:
    host.board.mp.run(FAKE_STATS)
    host.run(20)
    host.send(StatsRequest(restart=False))
    (stats,) = [m for m in host.run(20) if isinstance(m, Stats)]
    assert (stats.part, stats.parts) == (0, 1)
    assert stats.counts == ((0, MUSTARD, 18, 20), (3, bytes.fromhex("04112233"), 20, 20),
                            (3, bytes.fromhex("04a21b3c5d6e80"), 5, 20))
    assert host.board.mp.eval("fake.resets") == 0
    host.send(StatsRequest(restart=True))
    assert len([m for m in host.run(20) if isinstance(m, Stats)]) == 1
    assert host.board.mp.eval("fake.resets") == 1
