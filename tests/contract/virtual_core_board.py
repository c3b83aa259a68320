"""The virtual board's core on simulated time, shaped like tests/firmware/firmware_board.py."""

from __future__ import annotations

from hardware.board_core import BoardCore

STEP_MS = 10  # one pass of the board's main loop


class VirtualCoreBoard:
    def __init__(self, readers: int = 4) -> None:
        self.readers = readers
        self.core = BoardCore(readers)
        self.now_ms = 0

    def host_send(self, data: bytes) -> None:
        self.core.receive(data, self.now_ms / 1000)

    def advance(self, ms: int) -> bytes:
        out = b""
        for _ in range(max(1, ms // STEP_MS)):
            out += self.core.frames(self.now_ms / 1000)
            self.now_ms += STEP_MS
        return out

    def place(self, uid: bytes, reader: int) -> None:
        self.core.place(uid, reader)

    def remove(self, uid: bytes) -> None:
        self.core.remove(uid)

    def fail_reader(self, reader: int) -> None:
        self.core.fail_reader(reader)

    def heal_reader(self, reader: int) -> None:
        self.core.heal_reader(reader)

    def leds(self) -> dict[int, tuple[str, tuple[int, int, int]]]:
        return dict(self.core.leds)

    def close(self) -> None:
        pass
