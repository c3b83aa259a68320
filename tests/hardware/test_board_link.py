"""The real BoardLink, on pyserial, against the virtual board over a pty."""

from __future__ import annotations

import errno
import logging
import os
import random
import select
import time
import tty
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import serial
from pty_board import FAST_BOARD, FAST_LINK, Events, tag_history

from hardware.board_link import BoardLink, PortError, find_board_port, permission_fix
from hardware.link_events import BoardLog, LinkDown, LinkUp, ReadersChanged, TagPlaced, TagRemoved
from hardware.protocol import HelloRequest, Log, Parser, encode, format_uid
from hardware.table_link import to_commands
from hardware.virtual_board import VirtualBoard

MUSTARD = "04:A2:1B:3C"
ROPE = "04:11:22:33:44:55:66"


@pytest.fixture
def board(tmp_path: Path):
    with VirtualBoard(readers=6, link=str(tmp_path / "clue-board"), timing=FAST_BOARD, firmware=(1, 2, 3)) as vb:
        yield vb


@pytest.fixture
def events() -> Events:
    return Events()


def test_the_handshake_brings_the_link_up_with_the_firmware_info(board, events):
    with BoardLink(board.port, events.queue, timing=FAST_LINK):
        up = events.wait(LinkUp)
    assert up.info.firmware == (1, 2, 3)
    assert up.info.readers == 6 and up.info.failed == frozenset()
    assert up.as_dict()["firmware"] == "1.2.3"


def test_a_tag_placed_and_lifted_is_reported_once_each(board, events):
    with BoardLink(board.port, events.queue, timing=FAST_LINK) as link:
        events.wait(LinkUp)
        board.place(MUSTARD, 3)
        assert events.wait(TagPlaced) == TagPlaced(3, MUSTARD)
        assert link.tags == {(3, MUSTARD)}
        board.remove(MUSTARD)
        assert events.wait(TagRemoved) == TagRemoved(3, MUSTARD)
        assert link.tags == frozenset()


def test_tags_on_the_board_before_connecting_arrive_with_the_snapshot(board, events):
    board.place(MUSTARD, 1)
    board.place(ROPE, 5)
    with BoardLink(board.port, events.queue, timing=FAST_LINK):
        events.wait(LinkUp)
        placed = {events.wait(TagPlaced), events.wait(TagPlaced)}
    assert placed == {TagPlaced(1, MUSTARD), TagPlaced(5, ROPE)}


@pytest.mark.parametrize("version, advice", [((2, 0), "update the companion"), ((0, 9), "update the firmware")])
def test_a_board_of_another_major_version_is_refused(tmp_path, events, version, advice):
    with VirtualBoard(readers=2, protocol=version, timing=FAST_BOARD) as board:
        with BoardLink(board.port, events.queue, timing=FAST_LINK) as link:
            down = events.wait(LinkDown)
            later = events.drain(quiet=0.5)
            assert not link.is_up
    assert advice in down.reason and f"{version[0]}.{version[1]}" in down.reason
    assert not any(isinstance(e, LinkUp) for e in later)


def test_a_frozen_board_is_declared_down_and_picked_up_again(board, events):
    board.place(MUSTARD, 2)
    with BoardLink(board.port, events.queue, timing=FAST_LINK) as link:
        events.wait(LinkUp)
        events.wait(TagPlaced)
        board.freeze()
        started = time.monotonic()
        down = events.wait(LinkDown)
        # The silence is counted from the board's last word, which may have come up to a heartbeat before it froze.
        assert time.monotonic() - started >= FAST_LINK.timeout - FAST_LINK.heartbeat
        assert "no word from the board" in down.reason
        board.remove(MUSTARD)  # lifted while the board was hung
        board.place(ROPE, 4)
        board.thaw()
        events.wait(LinkUp)
        changes = {events.wait_for(lambda e: isinstance(e, (TagPlaced, TagRemoved))) for _ in range(2)}
        assert changes == {TagRemoved(2, MUSTARD), TagPlaced(4, ROPE)}
        assert link.tags == {(4, ROPE)}


def test_garbage_corrupt_and_dropped_frames_are_repaired_by_a_snapshot(board, events):
    with BoardLink(board.port, events.queue, timing=FAST_LINK) as link:
        events.wait(LinkUp)
        board.send_garbage(300)
        board.corrupt_frames(2)
        board.place(MUSTARD, 0)
        time.sleep(0.05)
        board.drop_frames(1)
        board.place(ROPE, 1)
        got = events.drain(quiet=0.5)
        assert link.tags == {(0, MUSTARD), (1, ROPE)}
        assert link._core.gaps >= 1
    assert tag_history(got) == {(0, MUSTARD): ["TagPlaced"], (1, ROPE): ["TagPlaced"]}


def test_a_slow_link_still_delivers(board, events):
    board.slow(1500)  # bytes per second: an eighth of 115200 baud
    with BoardLink(board.port, events.queue, timing=FAST_LINK):
        events.wait(LinkUp)
        board.place(MUSTARD, 2)
        assert events.wait(TagPlaced) == TagPlaced(2, MUSTARD)


def test_a_failed_reader_is_reported_and_keeps_its_tags(board, events):
    board.place(MUSTARD, 4)
    with BoardLink(board.port, events.queue, timing=FAST_LINK) as link:
        events.wait(LinkUp)
        events.wait(TagPlaced)
        board.fail_reader(4)
        changed = events.wait(ReadersChanged)
        assert changed.failed == {4}
        assert link.info is not None and link.info.failed == {4}
        assert link.tags == {(4, MUSTARD)}


def test_leds_and_buzzer_reach_the_board(board, events):
    with BoardLink(board.port, events.queue, timing=FAST_LINK) as link:
        events.wait(LinkUp)
        link.set_leds("blink", (0, 255, 0), (1, 3))
        link.buzz(880, 200)
        deadline = time.monotonic() + 2
        while (board.leds() != {1: ("blink", (0, 255, 0)), 3: ("blink", (0, 255, 0))}
               or board.core.buzzer != (880, 200)) and time.monotonic() < deadline:  # the buzz is sent after the LEDs
            time.sleep(0.01)
        assert board.leds() == {1: ("blink", (0, 255, 0)), 3: ("blink", (0, 255, 0))}
        assert board.core.buzzer == (880, 200)


def test_a_hundred_unplug_replug_cycles_lose_and_double_nothing(board, events):
    rng = random.Random(4)
    tags = [format_uid(bytes([4, i, 0x10 + i, 0x20 + i])) for i in range(8)]
    placed: dict[str, int] = {}
    with BoardLink(board.port, events.queue, timing=FAST_LINK) as link:
        events.wait(LinkUp)
        for _ in range(100):
            board.unplug()
            events.wait(LinkDown)
            for _ in range(rng.randrange(3)):  # moved while unplugged
                _shuffle(board, placed, tags, rng)
            board.replug()
            events.wait(LinkUp)
            _shuffle(board, placed, tags, rng)  # and while connected
        got = events.drain(quiet=0.3)
        assert link.tags == {(reader, uid) for uid, reader in placed.items()}
        assert link.connects == 101
    replayed: set[tuple[int, str]] = set()
    for key, history in tag_history(events.seen).items():
        assert all(a != b for a, b in zip(history, history[1:])), f"{key} reported twice in a row: {history}"
        assert history[0] == "TagPlaced"
        if history[-1] == "TagPlaced":
            replayed.add(key)
    assert replayed == {(reader, uid) for uid, reader in placed.items()}
    assert got is not None


def _shuffle(board: VirtualBoard, placed: dict[str, int], tags: list[str], rng: random.Random) -> None:
    uid = rng.choice(tags)
    if uid in placed and rng.random() < 0.4:
        board.remove(uid)
        del placed[uid]
    else:
        placed[uid] = rng.randrange(6)
        board.place(uid, placed[uid])


def test_the_board_logs_arrive_as_log_events(board, events):
    with BoardLink(board.port, events.queue, timing=FAST_LINK) as link:
        events.wait(LinkUp)
        link.send(__import__("hardware.protocol", fromlist=["TagOn"]).TagOn(0, b"\x01\x02\x03\x04"))
        log = events.wait(BoardLog)
    assert log.level == "warning" and "TAG_ON" in log.text


# ---- opening the port ---------------------------------------------------------------------------


def _denied(port: str):
    raise serial.SerialException(errno.EACCES, f"could not open port {port}: [Errno 13] Permission denied: {port!r}")


def test_permission_denied_names_the_dialout_group():
    with pytest.raises(PortError, match="dialout") as caught:
        BoardLink("/dev/ttyACM0", opener=_denied).open()
    assert "/dev/ttyACM0" in str(caught.value)
    assert caught.value.code == "port_error"


def test_no_board_plugged_in_says_so_and_keeps_looking(events):
    calls = []

    def nothing_there() -> None:
        calls.append(1)
        return None

    with BoardLink(None, events.queue, timing=FAST_LINK, find_port=nothing_there):
        down = events.wait(LinkDown)
        time.sleep(0.3)
    assert "no board found" in down.reason and "0x2E8A" in down.reason
    assert len(calls) > 2  # retried with backoff
    assert [e for e in events.drain(0.05) if isinstance(e, LinkDown)] == []  # said once, not at every retry


def test_the_board_is_found_by_its_usb_vendor_id(monkeypatch):
    from serial.tools import list_ports_common

    def port(device: str, vid: int | None) -> list_ports_common.ListPortInfo:
        info = list_ports_common.ListPortInfo(device, skip_link_detection=True)
        info.vid = vid
        return info

    ports = [port("/dev/ttyUSB0", 0x0403), port("/dev/ttyACM1", 0x2E8A), port("/dev/ttyS0", None)]
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: ports)
    assert find_board_port() == "/dev/ttyACM1"
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: ports[:1])
    assert find_board_port() is None


def test_the_port_comes_from_the_environment_unless_named(monkeypatch, board, events):
    monkeypatch.setenv("CLUE_BOARD_PORT", board.port)
    with BoardLink(None, events.queue, timing=FAST_LINK) as link:
        events.wait(LinkUp)
        assert link.info is not None and link.info.port == board.port


# ---- why the board is missing: every reason said once, in the events, the log and the status ------------

QUICK_HANDSHAKE = replace(FAST_LINK, handshake=0.5)


class MuteDevice:
    """A pty that a link can open but that never says HELLO: a Pico without the firmware, another
    USB serial gadget. It may send bytes of its own; it keeps what the host sent."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self._heard = Parser()
        self.requests = 0

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def listen(self, seconds: float) -> int:
        """Read what the host sends for ``seconds``; returns the HELLO_REQUESTs among it."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if select.select([self.master], [], [], left)[0]:
                messages = self._heard.feed(os.read(self.master, 4096))
                self.requests += sum(isinstance(m, HelloRequest) for m in messages)
        return self.requests

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def mute() -> Iterator[MuteDevice]:
    device = MuteDevice()
    yield device
    device.close()


def test_a_device_that_never_answers_the_handshake_is_one_reason_and_one_log_line(mute, events, caplog):
    commands: list[object] = []
    log = logging.getLogger("test.board")
    sink = to_commands(commands.append, lambda: frozenset(), log=log)
    with caplog.at_level(logging.INFO, logger="test.board"):
        with BoardLink(mute.port, lambda e: (sink(e), events.queue.put(e)), timing=QUICK_HANDSHAKE) as link:
            started = time.monotonic()
            down = events.wait(LinkDown, timeout=3)
            waited = time.monotonic() - started
            before = mute.listen(0.1)
            after = mute.listen(1.0)
            status = link.status()
    assert QUICK_HANDSHAKE.handshake * 0.9 <= waited <= QUICK_HANDSHAKE.handshake + 1.0
    assert down.reason == (f"the device on {mute.port} is not a CLUE board (no answer to HELLO): "
                           f"is the firmware on its Pico?")
    assert after - before >= 5  # still asking every 0.1 s
    lines = [r for r in caplog.records if r.name == "test.board"]
    assert [(r.getMessage(), r.levelname, r.fields) for r in lines] == [  # type: ignore[attr-defined]
        ("link_down", "WARNING", {"reason": down.reason})]
    assert [type(c).__name__ for c in commands] == ["BoardDown"]
    assert status.state == "down" and status.reason == down.reason and status.port == mute.port
    assert status.since is not None and abs(status.since - time.time()) < 10


def test_log_frames_before_the_handshake_reach_the_events_the_status_and_the_reason(mute, events):
    with BoardLink(mute.port, events.queue, timing=QUICK_HANDSHAKE) as link:
        mute.listen(0.1)  # the port is open: what the device writes now reaches the link
        mute.send(encode(Log("info", "clue-board firmware 1.0.0 starting", 0)))
        mute.send(encode(Log("error", "crashed, resetting: OSError: [Errno 5] EIO (main.py line 88)", 1)))
        first = events.wait(BoardLog)
        second = events.wait(BoardLog)
        down = events.wait(LinkDown, timeout=3)
        status = link.status()
    assert (first.level, second.level) == ("info", "error")
    assert "crashed, resetting" in down.reason and "no HELLO" in down.reason
    assert [line.text for _, line in status.log] == [first.text, second.text]
    shown = status.as_dict()
    assert shown["log"][-1]["level"] == "error" and shown["log"][-1]["text"] == second.text
    assert shown["reason"] == down.reason


def test_a_reason_said_once_is_not_said_again_at_every_reconnect(events, tmp_path):
    denied = tmp_path / "ttyACM9"

    def opener(port: str) -> serial.Serial:
        raise serial.SerialException(errno.EACCES, f"could not open port {port}: [Errno 13] Permission denied")

    with BoardLink(None, events.queue, timing=FAST_LINK, opener=opener, find_port=lambda: str(denied)) as link:
        down = events.wait(LinkDown)
        time.sleep(0.3)  # several more attempts, each denied again
        assert [e for e in events.drain(0.05) if isinstance(e, LinkDown)] == []
        status = link.status()
    assert down.reason.startswith(f"permission denied opening {denied}: ")
    assert "usermod -aG" in down.reason or "give the user" in down.reason
    assert status.state == "down" and status.reason == down.reason


@pytest.mark.parametrize("joined", [False, True], ids=["not in the group", "joined after starting"])
def test_permission_fix_names_the_group_that_owns_the_device_and_the_user(tmp_path, monkeypatch, joined):
    import grp
    import pwd

    device = tmp_path / "ttyACM0"
    device.touch()
    group = grp.getgrgid(device.stat().st_gid).gr_name
    user = pwd.getpwuid(os.geteuid()).pw_name
    monkeypatch.setattr("hardware.board_link._listed_in", lambda who, name: joined and (who, name) == (user, group))
    fix = permission_fix(str(device))
    if joined:
        assert fix.startswith(f"the user {user} is in the {group} group, but this process started before joining it")
    else:
        assert fix.startswith(f"add the user {user} to the {group} group (sudo usermod -aG {group} {user})")


def test_the_status_follows_the_link_up_after_a_reboot_with_the_board_log(board, events):
    with BoardLink(board.port, events.queue, timing=FAST_LINK) as link:
        events.wait(LinkUp)
        assert link.status().state == "up" and link.status().reason is None
        board.unplug()
        down = events.wait(LinkDown)
        assert link.status().state == "down" and link.status().reason is not None
        went_down = link.status().since
        board.replug()
        events.wait(LinkUp)
        status = link.status()
    assert "went away" in down.reason
    assert status.state == "up" and status.info is not None and status.info.readers == 6
    assert status.since is not None and went_down is not None and status.since >= went_down
