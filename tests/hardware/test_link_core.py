"""The host's side of the link (LinkCore) against the board's (BoardCore), on a fake clock.

Each test reads as a line of docs/protocol.md, "Conversation": a board and a host wired back to
back by link_sim.Wire, which moves time on 10 ms at a step and can lose, corrupt or cut frames.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from link_sim import Wire, corrupt_crc, drop, drop_where

from hardware.board_core import BoardCore
from hardware.link_core import BOOT_LOG, LOG_RATE, LinkCore, LinkTiming
from hardware.link_events import (
    BoardInfo, BoardLog, BoardStats, LinkDown, LinkUp, ReadersChanged, TagPlaced, TagRemoved,
)
from hardware.protocol import (
    Heartbeat, Hello, HelloRequest, HostHeartbeat, Log, Message, Readers, Snapshot, SnapshotRequest, StatsRequest,
    TagOff, TagOn, Welcome, encode, format_uid,
)

SETTLE = LinkTiming().settle  # 0.25 s
HANDSHAKE = LinkTiming().handshake  # 5 s
TIMEOUT = LinkTiming().timeout  # 3 s
STEP = 0.01
EPS = 1e-6

MUSTARD = bytes.fromhex("04a21b3c")
ROPE = bytes.fromhex("04112233445566")
WRENCH = bytes.fromhex("0411223344556677889a")
PLUM = bytes.fromhex("a5a5a505")  # a UID full of start bytes


def tag(reader: int, uid: bytes) -> tuple[int, str]:
    return reader, format_uid(uid)


def placed(reader: int, uid: bytes) -> TagPlaced:
    return TagPlaced(reader, format_uid(uid))


def removed(reader: int, uid: bytes) -> TagRemoved:
    return TagRemoved(reader, format_uid(uid))


def on_the_board(board: BoardCore) -> set[tuple[int, str]]:
    """Where the tags physically lie."""
    return {tag(reader, uid) for uid, reader in board.placed.items()}


def settled(wire: Wire, seconds: float = 1.0) -> Wire:
    """Connect, and let every tag already on the board be reported."""
    wire.connect()
    return wire.run(seconds)


# ---- the handshake -------------------------------------------------------------------------


def test_the_handshake_is_hello_request_hello_welcome_snapshot_then_one_link_up():
    board = BoardCore(readers=6, firmware=(1, 2, 3))
    board.fail_reader(4)
    wire = Wire(board).open().run(5)

    assert [type(m) for _, m in wire.host_sent[:2]] == [HelloRequest, Welcome]
    assert [type(m) for _, m in wire.board_sent[:2]] == [Hello, Snapshot]
    assert wire.of(LinkUp) == [LinkUp(BoardInfo("sim", (1, 1), (1, 2, 3), 6, frozenset({0, 1, 2, 3, 5}), "7669727475616c30"))]
    assert wire.of(LinkDown) == []
    assert wire.times_of(LinkUp)[0] < 0.1  # two round trips, not a retry later


def test_tags_placed_before_the_handshake_arrive_with_the_snapshot_after_settling():
    wire = Wire()
    wire.board.place(MUSTARD, 1)
    wire.board.place(ROPE, 5)
    wire.run(2).open().run(1)

    assert wire.sent_by_board(TagOn) == []  # an unwelcomed board keeps quiet about tags
    assert set(wire.tag_events()) == {placed(1, MUSTARD), placed(5, ROPE)}
    assert len(wire.tag_events()) == 2
    (up,) = wire.times_of(LinkUp)
    assert all(t >= up + SETTLE - EPS for t in wire.times_of(TagPlaced))


# ---- settle ------------------------------------------------------------------------------


def test_a_tag_slid_across_a_reader_is_not_reported():
    wire = settled(Wire())
    wire.board.place(MUSTARD, 2)
    wire.run(0.05)
    wire.board.remove(MUSTARD)
    wire.run(2)

    assert len(wire.sent_by_board(TagOn)) == len(wire.sent_by_board(TagOff)) == 1  # the board saw it pass
    assert wire.tag_events() == []
    assert wire.host.reported == set()


def test_a_tag_that_stays_is_placed_exactly_once_after_the_settle_time():
    wire = settled(Wire())
    put_down = wire.now
    wire.board.place(MUSTARD, 2)
    wire.run(5)

    assert wire.tag_events() == [placed(2, MUSTARD)]
    (when,) = wire.times_of(TagPlaced)
    assert SETTLE - EPS <= when - put_down <= SETTLE + 3 * STEP
    assert wire.host.reported == {tag(2, MUSTARD)}


def test_a_tag_moved_from_reader_1_to_2_is_removed_from_1_and_placed_on_2():
    wire = Wire()
    wire.board.place(MUSTARD, 1)
    settled(wire)
    since = wire.now
    wire.board.place(MUSTARD, 2)
    wire.run(2)

    assert wire.tag_events(since) == [placed(2, MUSTARD), removed(1, MUSTARD)]
    assert wire.host.reported == {tag(2, MUSTARD)}


# ---- versions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("protocol", "advice"),
    [((0, 9), "update the firmware"), ((2, 0), "update the companion")],
    ids=["board older", "board newer"],
)
def test_a_board_of_another_major_version_is_refused(protocol, advice):
    wire = Wire(BoardCore(readers=8, protocol=protocol, firmware=(protocol[0], 0, 0))).open().run(5)

    (down,) = wire.of(LinkDown)
    assert advice in down.reason
    assert f"{protocol[0]}.{protocol[1]}" in down.reason
    assert wire.sent_by_host(Welcome) == []
    assert wire.of(LinkUp) == []
    assert len(wire.sent_by_board(Hello)) >= 5  # it kept asking, and was ignored
    assert not wire.host.is_up


def test_a_refused_board_is_accepted_once_it_speaks_the_same_major_version():
    wire = Wire(BoardCore(readers=8, protocol=(2, 0))).open().run(2)
    wire.board = BoardCore(readers=8)  # reflashed
    wire.run(2)

    assert len(wire.of(LinkDown)) == 1
    assert len(wire.of(LinkUp)) == 1


def test_a_board_of_another_minor_version_is_accepted():
    wire = Wire(BoardCore(readers=6, protocol=(1, 7))).open().run(2)

    (up,) = wire.of(LinkUp)
    assert up.info.protocol == (1, 7)
    assert wire.of(LinkDown) == []


# ---- heartbeats and silence --------------------------------------------------------------


def test_the_host_sends_a_heartbeat_every_second_and_the_board_stays_welcomed():
    wire = settled(Wire())
    since = wire.now
    wire.run(10)

    beats = wire.sent_by_host(HostHeartbeat, since)
    assert len(beats) >= 9
    assert all(1.0 - EPS <= b - a <= 1.0 + STEP + EPS for a, b in zip(beats, beats[1:]))
    assert wire.board.welcomed
    assert len(wire.of(LinkUp)) == 1 and wire.of(LinkDown) == []


def test_three_seconds_without_a_frame_bring_the_link_down_once_then_hello_requests_follow():
    wire = Wire()
    wire.board.place(MUSTARD, 1)
    settled(wire)
    wire.board_cut = True
    wire.run(6)

    (down,) = wire.of(LinkDown)
    (down_at,) = wire.times_of(LinkDown)
    assert wire.delivered_at is not None
    assert TIMEOUT - EPS <= down_at - wire.delivered_at <= TIMEOUT + STEP + EPS
    assert "no word from the board" in down.reason
    retries = wire.sent_by_host(HelloRequest, down_at)
    assert len(retries) >= 3
    assert all(1.0 - EPS <= b - a <= 1.0 + STEP + EPS for a, b in zip(retries, retries[1:]))

    wire.board_cut = False
    wire.run(3)
    assert len(wire.of(LinkUp)) == 2
    assert wire.tag_events(down_at) == []  # the tag never moved: nothing to say
    assert wire.host.reported == {tag(1, MUSTARD)}


def test_after_an_outage_only_the_tags_that_changed_are_reported():
    wire = Wire()
    for uid, reader in [(MUSTARD, 1), (ROPE, 2), (WRENCH, 3)]:
        wire.board.place(uid, reader)
    settled(wire)
    wire.board_cut = True
    wire.run(1)
    wire.board.remove(MUSTARD)
    wire.board.place(ROPE, 5)
    wire.board.place(PLUM, 4)
    wire.run(4)
    since = wire.now
    wire.board_cut = False
    wire.run(3)

    assert sorted(wire.tag_events(since), key=repr) == sorted(
        [removed(1, MUSTARD), removed(2, ROPE), placed(5, ROPE), placed(4, PLUM)], key=repr
    )
    assert wire.host.reported == on_the_board(wire.board)
    assert len(wire.of(LinkDown)) == 1 and len(wire.of(LinkUp)) == 2


def test_a_board_that_restarts_goes_down_and_up_without_repeating_tags():
    wire = Wire()
    wire.board.place(MUSTARD, 1)
    wire.board.place(WRENCH, 4)
    settled(wire)
    since = wire.now
    wire.board.reboot()
    wire.run(3)

    (down,) = wire.of(LinkDown)
    assert "restarted" in down.reason
    assert len(wire.of(LinkUp)) == 2
    assert wire.times_of(LinkUp)[1] > wire.times_of(LinkDown)[0]
    assert wire.tag_events(since) == []
    assert wire.host.reported == {tag(1, MUSTARD), tag(4, WRENCH)}


def test_an_unplugged_board_goes_down_and_comes_back_with_only_what_changed():
    wire = Wire()
    wire.board.place(MUSTARD, 1)
    wire.board.place(ROPE, 2)
    settled(wire)
    since = wire.now
    wire.unplug()
    wire.board.remove(MUSTARD)
    wire.run(5)
    wire.open().run(2)

    assert wire.of(LinkDown) == [LinkDown("the board went away (unplugged, or its USB reset)")]
    assert len(wire.of(LinkUp)) == 2
    assert wire.tag_events(since) == [removed(1, MUSTARD)]
    assert wire.host.reported == {tag(2, ROPE)}


# ---- repair: sequence gaps and snapshots ------------------------------------------------------


def test_a_dropped_frame_leaves_a_sequence_gap_that_a_snapshot_repairs():
    wire = settled(Wire())
    wire.board_tamper = drop(TagOn)
    since = wire.now
    wire.board.place(MUSTARD, 3)
    wire.run(3)

    assert wire.host.gaps == 1
    assert len(wire.sent_by_host(SnapshotRequest, since)) == 1
    assert wire.tag_events(since) == [placed(3, MUSTARD)]
    assert wire.host.reported == {tag(3, MUSTARD)}


def test_a_frame_with_a_bad_crc_is_dropped_and_a_snapshot_repairs_it():
    wire = Wire()
    wire.board.place(MUSTARD, 3)
    settled(wire)
    wire.board_tamper = corrupt_crc(TagOff)
    since = wire.now
    wire.board.remove(MUSTARD)
    wire.run(3)

    assert wire.host.gaps == 1
    assert len(wire.sent_by_host(SnapshotRequest, since)) == 1
    assert wire.tag_events(since) == [removed(3, MUSTARD)]
    assert wire.host.reported == set()


def many_tags(board: BoardCore, count: int) -> None:
    """``count`` tags with 7-byte UIDs, spread over the readers."""
    for i in range(count):
        board.place(bytes([0x04, i, 0x1B, 0x3C, 0x5D, 0x6E, 0x80]), i % board.readers)


def test_a_snapshot_of_40_tags_with_7_byte_uids_comes_in_two_parts_and_is_assembled():
    wire = Wire(BoardCore(readers=20))
    many_tags(wire.board, 40)
    settled(wire)

    snapshot = wire.sent_by_board(Snapshot)
    assert [(s.part, s.parts, len(s.tags)) for s in snapshot] == [(0, 2, 26), (1, 2, 14)]
    assert len(wire.of(LinkUp)) == 1
    assert len(wire.of(TagPlaced)) == 40
    assert wire.host.reported == on_the_board(wire.board)


def test_a_snapshot_that_loses_its_middle_part_is_asked_for_again():
    wire = Wire(BoardCore(readers=20))
    many_tags(wire.board, 60)
    wire.board_tamper = drop_where(lambda m: isinstance(m, Snapshot) and m.part == 1)
    settled(wire)

    assert [(s.part, s.parts) for s in wire.sent_by_board(Snapshot)] == [(0, 3), (1, 3), (2, 3)] * 2
    assert len(wire.sent_by_host(SnapshotRequest)) == 1
    assert len(wire.of(LinkUp)) == 1
    assert len(wire.of(TagPlaced)) == 60
    assert wire.host.reported == on_the_board(wire.board)


def test_a_requested_snapshot_that_loses_a_part_is_asked_for_again_a_second_later():
    wire = Wire(BoardCore(readers=20))
    many_tags(wire.board, 60)
    settled(wire)
    wire.board_tamper = drop_where(lambda m: isinstance(m, TagOn) or (isinstance(m, Snapshot) and m.part == 1), 2)
    since = wire.now
    wire.board.place(MUSTARD, 19)
    wire.run(4)

    first, again = wire.sent_by_host(SnapshotRequest, since)
    assert 1.0 - EPS <= again - first <= 1.0 + STEP + EPS
    assert wire.tag_events(since) == [placed(19, MUSTARD)]
    assert wire.host.reported == on_the_board(wire.board)


# ---- readers and logs ------------------------------------------------------------------------


def test_a_failed_reader_is_reported_and_the_tags_on_it_are_kept():
    wire = Wire()
    wire.board.place(MUSTARD, 2)
    wire.board.place(ROPE, 3)
    settled(wire)
    since = wire.now
    wire.board.fail_reader(2)
    wire.board.remove(MUSTARD)  # lifted while the reader is dead: nobody can know
    wire.run(3)

    assert wire.of(ReadersChanged, since) == [ReadersChanged(frozenset({0, 1, 3, 4, 5}), frozenset({2}))]
    assert wire.tag_events(since) == []
    assert wire.host.reported == {tag(2, MUSTARD), tag(3, ROPE)}

    since = wire.now
    wire.board.heal_reader(2)
    wire.run(2)
    assert wire.of(ReadersChanged, since) == [ReadersChanged(frozenset(range(6)), frozenset())]
    assert wire.tag_events(since) == [removed(2, MUSTARD)]


def test_a_lost_readers_frame_is_repaired_like_any_other():
    wire = settled(Wire())
    wire.board_tamper = drop(Readers)
    wire.board.fail_reader(2)
    wire.run(5)

    assert wire.host.gaps == 1
    assert wire.host.info is not None and wire.host.info.failed == frozenset({2})


def test_a_log_frame_becomes_a_board_log_event():
    wire = settled(Wire())
    wire.say(Log("error", "reader 7: no answer (0x00) – check CS"))
    wire.run(0.1)

    assert wire.of(BoardLog) == [BoardLog("error", "reader 7: no answer (0x00) – check CS")]
    assert wire.host.gaps == 0


def test_a_command_the_board_does_not_take_comes_back_as_a_warning():
    wire = settled(Wire())
    wire.board.receive(wire.host.command(Heartbeat()), wire.now)
    wire.run(0.1)

    (log,) = wire.of(BoardLog)
    assert log.level == "warning" and "HEARTBEAT" in log.text


# ---- why the link is not up, and what the board said before the handshake ----------------------------


def test_a_device_that_never_answers_is_reported_down_once_while_the_host_keeps_asking():
    wire = Wire()
    wire.board_cut = True  # a port that opens, but nothing comes back
    wire.open().run(HANDSHAKE * 3)

    (down,) = wire.of(LinkDown)
    (down_at,) = wire.times_of(LinkDown)
    assert HANDSHAKE - EPS <= down_at <= HANDSHAKE + STEP + EPS
    assert down.reason == "the device on sim is not a CLUE board (no answer to HELLO): is the firmware on its Pico?"
    assert len(wire.sent_by_host(HelloRequest, down_at)) >= 2 * HANDSHAKE - 1  # asked every second after
    wire.board_cut = False
    wire.run(2)
    assert len(wire.of(LinkUp)) == 1 and len(wire.of(LinkDown)) == 1


def test_a_device_that_answers_with_text_is_told_apart_from_a_silent_one():
    wire = Wire()
    wire.board_cut = True
    wire.open()
    wire.host.received(b"MicroPython v1.22.0 on 2024-01-01; Raspberry Pi Pico with RP2040\r\n>>> ", wire.now)
    wire.run(HANDSHAKE + 0.1)

    (down,) = wire.of(LinkDown)
    assert "is not a CLUE board (no answer to HELLO)" in down.reason
    assert "bytes that are not frames" in down.reason and "copy firmware/*.py" in down.reason


def test_a_board_that_fell_silent_is_said_down_once_not_again_for_the_unanswered_handshake():
    wire = settled(Wire())
    wire.board_cut = True
    wire.run(TIMEOUT + HANDSHAKE * 3)

    (down,) = wire.of(LinkDown)
    assert "no word from the board" in down.reason


def test_log_frames_before_the_hello_are_delivered_and_kept_for_the_connection():
    wire = Wire()
    wire.open()
    wire.say(Log("error", "crashed, resetting: OSError: [Errno 5] EIO (line 88)"))  # before its first poll: no HELLO
    wire.say(Log("error", "reader 3 (Lounge): no answer on SPI"))
    wire.run(1)

    boot = [BoardLog("error", "crashed, resetting: OSError: [Errno 5] EIO (line 88)"),
            BoardLog("error", "reader 3 (Lounge): no answer on SPI")]
    assert wire.of(BoardLog) == boot
    assert list(wire.host.boot_log) == boot
    assert len(wire.of(LinkUp)) == 1
    first_up = wire.times_of(LinkUp)[0]
    assert all(t < first_up for t in wire.times_of(BoardLog))
    assert wire.host.gaps == 0  # the HELLO restarts the count: no snapshot asked for the LOG frames

    wire.unplug().open()  # a new connection starts a new boot log
    assert list(wire.host.boot_log) == []


def test_a_board_that_logs_but_never_says_hello_is_reported_with_its_last_line():
    wire = Wire()
    wire.board_cut = True
    wire.open()
    for seq, text in enumerate(["starting", "crashed, resetting: ImportError: no module named 'config'"]):
        wire.host.received(encode(Log("error", text, seq)), wire.now)
    wire.run(HANDSHAKE + 0.1)

    (down,) = wire.of(LinkDown)
    assert "sent log lines but no HELLO" in down.reason
    assert down.reason.endswith("its last: error: crashed, resetting: ImportError: no module named 'config' "
                                "(see docs/hardware.md, Troubleshooting)")


def test_a_board_spamming_log_lines_grows_nothing_and_is_passed_on_at_a_bounded_rate():
    wire = Wire()
    wire.board_cut = True
    wire.open()
    spam = b"".join(encode(Log("debug", f"line {n}", n % 256)) for n in range(5000))
    wire.host.received(spam, wire.now)
    wire.run(0.5)
    assert len(wire.of(BoardLog)) == LOG_RATE
    assert [line.text for line in wire.host.boot_log] == [f"line {n}" for n in range(5000 - BOOT_LOG, 5000)]

    wire.run(1)
    *_, summary = wire.of(BoardLog)
    assert summary.level == "warning" and f"skipped {5000 - LOG_RATE} of the board's log lines" in summary.text
    assert len(wire.host._events) == 0 and wire.host.boot_log.maxlen == BOOT_LOG


# ---- a property: whatever happens on the wire, the host ends up right --------------------------

UIDS = [MUSTARD, PLUM, ROPE, WRENCH]
QUIET = SETTLE + TIMEOUT + 2.0 + 2.0  # settle, silence, a HELLO and a snapshot retry, with room

BRIEFLY = [0.01, 0.1, 0.15, 0.2, 0.3, 0.4]  # around the board's debounce and the host's settle
garbage = st.lists(st.one_of(st.just(0xA5), st.sampled_from([0, 5, 240, 241]), st.integers(0, 255)),
                   min_size=1, max_size=12).map(bytes)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("place"), st.sampled_from(UIDS), st.integers(0, 5)),
        st.tuples(st.just("remove"), st.sampled_from(UIDS)),
        st.tuples(st.just("wait"), st.sampled_from([0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0])),
        st.tuples(st.just("slide"), st.sampled_from(UIDS), st.integers(0, 5), st.sampled_from(BRIEFLY)),
        st.tuples(st.just("lift"), st.sampled_from(UIDS), st.sampled_from(BRIEFLY)),
        st.tuples(st.just("drop"), st.sampled_from(["board", "host"])),
        st.tuples(st.just("corrupt"), st.integers(0, 63), st.integers(0, 7)),
        st.tuples(st.just("garbage"), garbage),
        st.tuples(st.just("outage"), st.sampled_from(["board", "host", "both"]), st.sampled_from([0.5, 2.0, 3.5, 5.0])),
    ),
    max_size=25,
)


class Chaos:
    """What the property does to the frames: drops and corruptions waiting for a frame to hit."""

    def __init__(self) -> None:
        self.drops = {"board": 0, "host": 0}
        self.corruptions: list[tuple[int, int]] = []

    def board(self, message: Message, frame: bytes) -> bytes:
        if self.drops["board"]:
            self.drops["board"] -= 1
            return b""
        if self.corruptions:
            at, bit = self.corruptions.pop(0)
            at %= len(frame)
            return frame[:at] + bytes([frame[at] ^ 1 << bit]) + frame[at + 1 :]
        return frame

    def host(self, message: Message, frame: bytes) -> bytes:
        if self.drops["host"]:
            self.drops["host"] -= 1
            return b""
        return frame


def play(wire: Wire, chaos: Chaos, operation: tuple) -> None:
    match operation:
        case ("place", uid, reader):
            wire.board.place(uid, reader)
        case ("remove", uid):
            wire.board.remove(uid)
        case ("wait", seconds):
            wire.run(seconds)
        case ("slide", uid, reader, seconds):
            wire.board.place(uid, reader)
            wire.run(seconds)
            wire.board.remove(uid)
        case ("lift", uid, seconds) if uid in wire.board.placed:
            reader = wire.board.placed[uid]
            wire.board.remove(uid)
            wire.run(seconds)
            wire.board.place(uid, reader)
        case ("lift", _, seconds):  # not on the board: nothing to lift
            wire.run(seconds)
        case ("drop", side):
            chaos.drops[side] += 1
        case ("corrupt", at, bit):
            chaos.corruptions.append((at, bit))
        case ("garbage", junk):
            wire.garbage += junk
        case ("outage", side, seconds):
            wire.board_cut, wire.host_cut = side in ("board", "both"), side in ("host", "both")
            wire.run(seconds)
            wire.board_cut = wire.host_cut = False


def replay(events: list) -> set[tuple[int, str]]:
    """The tags a listener holds after these events, checking each (reader, uid) alternates."""
    holding: set[tuple[int, str]] = set()
    for event in events:
        key = (event.reader, event.uid)
        if isinstance(event, TagPlaced):
            assert key not in holding, f"{event} twice in a row"
            holding.add(key)
        else:
            assert key in holding, f"{event} for a tag never placed"
            holding.discard(key)
    return holding


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations)
@example([("drop", "board")] * 8)  # found by CI: eight HELLOs lost outlast a quiet time counted from the script's end
def test_whatever_happens_on_the_wire_the_host_ends_up_reporting_what_is_on_the_board(script):
    chaos = Chaos()
    wire = Wire(BoardCore(readers=6))
    wire.board_tamper, wire.host_tamper = chaos.board, chaos.host
    wire.open()
    for operation in script:
        play(wire, chaos, operation)
    # Drops and corruptions still pending hit the next frames: the quiet time starts when the last has.
    for _ in range(600):
        if not any(chaos.drops.values()) and not chaos.corruptions:
            break
        wire.run(0.1)
    wire.run(QUIET)

    assert wire.host.is_up
    assert wire.host.reported == on_the_board(wire.board)
    assert replay(wire.tag_events()) == wire.host.reported
    ups_and_downs = [type(e) for e in wire.events_since() if isinstance(e, (LinkUp, LinkDown))]
    assert ups_and_downs[-1] is LinkUp
    assert (LinkUp, LinkUp) not in zip(ups_and_downs, ups_and_downs[1:])  # a LinkDown between any two
    first_up = ups_and_downs.index(LinkUp)
    # Before the first up, the only reasons are a silent port and a board that did not take the WELCOME.
    assert all("is not a CLUE board (no answer to HELLO)" in e.reason or "did not take the WELCOME" in e.reason
               for e in wire.of(LinkDown)[:first_up])


def test_a_protocol_1_0_board_without_an_id_is_accepted_with_none() -> None:
    board, host = BoardCore(readers=2, protocol=(1, 0)), LinkCore("sim")
    board.receive(host.opened(0.0), 0.0)
    board.receive(host.received(board.frames(0.0), 0.0), 0.0)
    host.received(board.frames(0.01), 0.01)
    (up,) = [e for e in host.events_due(0.01) if isinstance(e, LinkUp)]
    assert up.info.board_id is None and up.as_dict()["board_id"] is None


def test_stats_parts_make_one_board_stats_event() -> None:
    board, host = BoardCore(readers=2), LinkCore("sim")
    board.receive(host.opened(0.0), 0.0)
    board.receive(host.received(board.frames(0.0), 0.0), 0.0)
    board.place(bytes.fromhex("04a21b3c"), 1)
    host.received(board.frames(0.01), 0.01)
    board.receive(host.command(StatsRequest(restart=True)), 0.02)
    host.received(board.frames(0.02), 0.02)
    for step in range(3, 7):
        host.received(board.frames(step / 100), step / 100)
    board.receive(host.command(StatsRequest()), 0.07)
    host.received(board.frames(0.07), 0.07)
    stats = [e for e in host.events_due(0.08) if isinstance(e, BoardStats)]
    assert stats[0].counts == ((1, "04:A2:1B:3C", 2, 3),)  # three scans so far, the tag placed before the 2nd
    assert stats[-1].counts == ((1, "04:A2:1B:3C", 5, 5),)  # counting restarted: the five scans since
