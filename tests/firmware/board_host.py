"""The test's end of the cable to a board under test (firmware or virtual), in protocol bytes.

Shared by tests/firmware/ and the contract suite in tests/contract/.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hardware.protocol import HostHeartbeat, Log, Message, Parser, Snapshot, Welcome, encode


class Host:
    """Numbers the frames it sends and decodes the board's."""

    def __init__(self, board: Any) -> None:
        self.board = board
        self.parser = Parser()
        self.seq = 0
        self.log: list[Message] = []

    def send(self, message: Message) -> None:
        self.board.host_send(encode(replace(message, seq=self.seq)))
        self.seq = (self.seq + 1) % 256

    def run(self, ms: int, heartbeat_every: int | None = None) -> list[Message]:
        """Let ``ms`` pass (sending heartbeats if asked); the frames the board sent meanwhile."""
        got: list[Message] = []
        step = heartbeat_every or ms
        for _ in range(max(1, ms // step)):
            if heartbeat_every:
                self.send(HostHeartbeat())
            got += self.parser.feed(self.board.advance(step))
        self.log += got
        return got

    def welcome(self) -> list[Message]:
        self.run(20)
        self.send(Welcome((1, 0)))
        return self.run(50)


def kinds(messages: list[Message]) -> list[str]:
    return [type(m).__name__ for m in messages if not isinstance(m, Log)]


def snapshot_tags(messages: list[Message]) -> set[tuple[int, bytes]]:
    return {tag for m in messages if isinstance(m, Snapshot) for tag in m.tags}
