"""One suite, two boards: the virtual board and the real firmware (under MicroPython).

Each test talks to the board only in protocol bytes and physical facts (a tag
placed, a reader broken), on simulated time, so both must behave as
docs/protocol.md says, byte for byte where it matters.
"""

from __future__ import annotations

from board_host import Host, kinds, snapshot_tags

from hardware.protocol import Buzzer, Heartbeat, Hello, HelloRequest, Led, Readers, SnapshotRequest, TagOff, TagOn, Welcome

MUSTARD = bytes.fromhex("04A21B3C")
PLUM = bytes.fromhex("04112233445566")


def test_after_a_reset_the_board_says_hello_every_second_and_nothing_else(board):
    host = Host(board)
    board.place(MUSTARD, 1)
    got = host.run(3500)
    hellos = [m for m in got if isinstance(m, Hello)]
    assert kinds(got) == ["Hello"] * 4
    assert hellos[0] == Hello((1, 1), hellos[0].firmware, 4, frozenset(range(4)), seq=0, board_id=hellos[0].board_id)
    assert hellos[0].board_id is not None and len(hellos[0].board_id) == 8  # machine.unique_id() on an RP2040
    assert [m.seq for m in got] == list(range(len(got)))


def test_a_hello_request_is_answered_at_once(board):
    host = Host(board)
    host.run(100)
    host.send(HelloRequest((1, 0)))
    assert kinds(host.run(50)) == ["Hello"]


def test_welcome_brings_a_snapshot_of_what_is_already_on_the_board(board):
    board.place(MUSTARD, 1)
    board.place(PLUM, 3)
    host = Host(board)
    host.run(200)
    got = host.welcome()
    assert kinds(got) == ["Snapshot", "Readers"]
    assert got[0].part == 0 and got[0].parts == 1
    assert set(got[0].tags) == {(1, MUSTARD), (3, PLUM)}


def test_tags_come_and_go_once_welcomed(board):
    host = Host(board)
    host.welcome()
    board.place(MUSTARD, 2)
    assert [m for m in host.run(100) if isinstance(m, TagOn)] == [TagOn(2, MUSTARD, seq=host.log[-1].seq)]
    board.remove(MUSTARD)
    offs = [m for m in host.run(500, heartbeat_every=100) if isinstance(m, TagOff)]
    assert [(m.reader, m.uid) for m in offs] == [(2, MUSTARD)]


def test_a_tag_moved_between_readers_goes_off_one_and_on_the_other(board):
    host = Host(board)
    board.place(MUSTARD, 1)
    host.welcome()
    board.place(MUSTARD, 2)
    got = host.run(600, heartbeat_every=100)
    assert {(type(m).__name__, m.reader) for m in got if isinstance(m, (TagOn, TagOff))} == {("TagOff", 1), ("TagOn", 2)}


def test_two_tags_on_one_reader_are_both_seen(board):
    host = Host(board)
    board.place(MUSTARD, 0)
    board.place(PLUM, 0)
    assert snapshot_tags(host.welcome()) == {(0, MUSTARD), (0, PLUM)}


def test_the_board_beats_every_second_while_the_host_does(board):
    host = Host(board)
    host.welcome()
    got = host.run(5000, heartbeat_every=250)
    assert 4 <= sum(isinstance(m, Heartbeat) for m in got) <= 6
    assert not any(isinstance(m, Hello) for m in got)


def test_three_seconds_of_host_silence_send_the_board_back_to_hello(board):
    host = Host(board)
    host.welcome()
    got = host.run(2800)
    assert not any(isinstance(m, Hello) for m in got)
    got = host.run(1400)
    assert any(isinstance(m, Hello) for m in got)


def test_a_snapshot_request_is_answered_with_every_tag(board):
    host = Host(board)
    host.welcome()
    board.place(MUSTARD, 0)
    board.place(PLUM, 3)
    host.run(100)
    host.send(SnapshotRequest())
    got = host.run(50)
    assert kinds(got) == ["Snapshot", "Readers"] and snapshot_tags(got) == {(0, MUSTARD), (3, PLUM)}
    assert got[1].working == frozenset(range(4))


def test_sequence_numbers_run_on_without_gaps(board):
    host = Host(board)
    host.welcome()
    for reader in range(4):
        board.place(MUSTARD, reader)
        host.run(300, heartbeat_every=100)
    seqs = [m.seq for m in host.log]
    assert seqs == [(seqs[0] + i) % 256 for i in range(len(seqs))]


def test_a_reader_that_stops_answering_is_reported_and_keeps_its_tags(board):
    host = Host(board)
    board.place(MUSTARD, 2)
    host.welcome()
    board.fail_reader(2)
    got = host.run(2500, heartbeat_every=100)
    assert [m.working for m in got if isinstance(m, Readers)] == [frozenset({0, 1, 3})]
    assert not any(isinstance(m, TagOff) for m in got)
    host.send(SnapshotRequest())
    assert snapshot_tags(host.run(50)) == {(2, MUSTARD)}
    board.heal_reader(2)
    got = host.run(2500, heartbeat_every=100)
    assert [m.working for m in got if isinstance(m, Readers)] == [frozenset(range(4))]


def test_garbage_from_the_host_is_skipped(board):
    host = Host(board)
    host.welcome()
    board.host_send(b"\xa5\xf0\x00junk\xa5\x05\x03")
    host.send(SnapshotRequest())
    assert kinds(host.run(50)) == ["Snapshot", "Readers"]


def test_leds_light_and_go_out(board):
    host = Host(board)
    host.welcome()
    host.send(Led("blink", (0, 255, 0), (1, 3)))
    host.run(50)
    assert board.leds() == {1: ("blink", (0, 255, 0)), 3: ("blink", (0, 255, 0))}
    host.send(Led("off"))
    host.send(Buzzer(880, 100))
    host.run(50)
    assert board.leds() == {}


def test_leds_go_out_when_the_host_goes_silent(board):
    host = Host(board)
    host.welcome()
    host.send(Led("on", (255, 0, 0), ()))
    host.run(50)
    assert len(board.leds()) >= 4
    host.run(3500)
    assert board.leds() == {}


def test_a_welcome_of_another_major_version_is_not_taken(board):
    host = Host(board)
    host.run(20)
    host.send(Welcome((2, 0)))
    got = host.run(2100)
    assert "Snapshot" not in kinds(got)
    assert kinds(got).count("Hello") == 2
