"""The test's end of the board twin's USB cable, and the reader models' tags (test_twin_readers.py, test_twin_wiring.py).

:class:`Host` reads the board's frames off the twin's serial port, stamps each
with the emulated time it was read, answers HELLO with WELCOME and sends
heartbeats; :func:`place` and :func:`lift` lay and take tags on the reader models.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from twin import Twin

from hardware.protocol import (
    Hello,
    HostHeartbeat,
    Log,
    Message,
    Parser,
    Readers,
    TagOff,
    TagOn,
    Welcome,
    encode,
)


def uid_for(n: int) -> str:
    """A 7-byte NTAG-like UID, different for each ``n``."""
    return "04" + f"{(n * 2654435761) & 0xFFFFFFFFFFFF:012x}"


@dataclass
class Host:
    """The test's end of the USB cable: frames decoded and stamped with the emulated time they were read."""

    twin: Twin
    fd: int = -1
    parser: Parser = field(default_factory=Parser)
    seq: int = 0
    got: list[tuple[int, Message]] = field(default_factory=list)
    beat_at: int = -(10**9)

    def __post_init__(self) -> None:
        self.fd = os.open(self.twin.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)

    def close(self) -> None:
        os.close(self.fd)

    def send(self, message: Message) -> None:
        os.write(self.fd, encode(replace(message, seq=self.seq)))
        self.seq = (self.seq + 1) % 256

    def pump(self) -> int:
        """Read what the board sent; WELCOME its HELLO, a heartbeat every 0.5 s. The emulated time now."""
        data = b""
        while True:
            try:
                chunk = os.read(self.fd, 4096)
            except BlockingIOError:
                break
            if not chunk:
                break
            data += chunk
        now: int = self.twin.now_us()
        for message in self.parser.feed(data):
            self.got.append((now, message))
            if isinstance(message, Hello):
                self.send(Welcome((1, 1)))
        if now - self.beat_at > 500_000:
            self.send(HostHeartbeat())
            self.beat_at = now
        return now

    def until(self, condition: Callable[[], bool], seconds: float, what: str, real: float = 60.0) -> int:
        """Pump until ``condition()``, at most ``seconds`` of emulated time (and ``real`` of real time)."""
        start = self.pump()
        deadline = time.monotonic() + real
        while True:
            now = self.pump()
            if condition():
                return now
            if now - start > seconds * 1e6 or time.monotonic() > deadline:
                raise AssertionError(f"{what}: not within {seconds} s of emulated time ({(now - start) / 1e6:.2f} s)")
            time.sleep(0.02)

    def run(self, seconds: float) -> int:
        """Let ``seconds`` of emulated time pass, reading and answering meanwhile."""
        end = self.pump() + seconds * 1e6
        return self.until(lambda: self.twin.now_us() >= end, seconds + 1, "time")

    def messages(self, kind: type, since: int = 0) -> list[tuple[int, Any]]:
        return [(t, m) for t, m in self.got if isinstance(m, kind) and t >= since]

    def logs(self, pattern: str, since: int = 0) -> list[str]:
        return [m.text for _, m in self.messages(Log, since) if re.search(pattern, m.text)]

    def present(self) -> dict[int, set[str]]:
        """What the board has reported on each reader (TAG_ON minus TAG_OFF), by UID hex."""
        held: dict[int, set[str]] = {}
        for _, message in self.got:
            if isinstance(message, TagOn):
                held.setdefault(message.reader, set()).add(message.uid.hex())
            elif isinstance(message, TagOff):
                held.setdefault(message.reader, set()).discard(message.uid.hex())
        return held


def place(twin: Twin, uid: str, readers: list[int], how: str = "place") -> int:
    """Lay tag ``uid`` over ``readers`` (``how``: place, straddle, slide); the emulated time it happened."""
    return int(twin.command({"readers": {"cmd": how, "uid": uid, "readers": readers}})["us"])


def lift(twin: Twin, uid: str) -> int:
    return int(twin.command({"readers": {"cmd": "remove", "uid": uid}})["us"])


def booted_host(twin: Twin) -> Host:
    host = Host(twin)
    host.until(lambda: bool(host.messages(Readers)), 20, "HELLO, WELCOME and READERS")
    return host



def reported(host: Host, uid: str) -> bool:
    return any(m.uid.hex() == uid for _, m in host.messages(TagOn))


def wiring_problems(twin: Twin, host: Host, probes: tuple[int, ...], readers: int) -> list[str]:
    """What a board wired from a wrong netlist shows: readers that do not answer, tags reported elsewhere.

    A tag is laid on each reader of ``probes`` at once; each must be reported there, and only there.
    """
    problems = []
    working = host.messages(Hello)[-1][1].working
    if working != frozenset(range(readers)):
        problems.append(f"readers not answering: {sorted(set(range(readers)) - working)}")
    laid = {uid_for(400 + reader): reader for reader in probes}
    for uid, reader in laid.items():
        place(twin, uid, [reader])
    try:
        host.until(lambda: all(reported(host, uid) for uid in laid), 1.2, "")
    except AssertionError:
        pass  # what did not come is named below
    for uid, reader in laid.items():
        seen = [m.reader for _, m in host.messages(TagOn) if m.uid.hex() == uid]
        if seen != [reader]:
            problems.append(f"the tag laid on reader {reader} was reported on {seen}")
    return problems
