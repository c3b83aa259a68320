"""The real firmware on MicroPython, on simulated time, shaped like tests/contract/virtual_core_board.py.

Behind it is ``fw_rig.Rig`` (tests/firmware/micropython/fw_rig.py): firmware/main.py's
own ``build`` with fake MFRC522 chips on the configured chip selects, a
fake clock and a fake USB cable. Every call is one round trip to the node
process.
"""

from __future__ import annotations

from mpy_runner import MicroPython

LedState = tuple[str, tuple[int, int, int]]


class FirmwareBoard:
    """A freshly reset board at simulated time 0: its first :meth:`advance` says HELLO, seq 0."""

    def __init__(self, readers: int = 4, mp: MicroPython | None = None) -> None:
        """``mp``: an interpreter to reuse (left open by :meth:`close`); by default a new one."""
        self.readers = readers
        self._own = mp is None
        self.mp = MicroPython() if mp is None else mp
        try:
            self.mp.run(f"import fw_rig\nrig = fw_rig.Rig({int(readers)})")
        except BaseException:
            self.close()
            raise

    def host_send(self, data: bytes) -> None:
        """Bytes arriving from the host on USB (read by the next loop pass)."""
        self.mp.run(f"rig.host_send({bytes(data).hex()!r})")

    def advance(self, ms: int) -> bytes:
        """Run the main loop for ``ms`` of simulated time (10 ms a pass); every byte written."""
        return bytes.fromhex(self.mp.eval(f"rig.advance({int(ms)})"))

    def place(self, uid: bytes, reader: int) -> None:
        """Put a tag on a reader (taking it off any other)."""
        self.mp.run(f"rig.place({bytes(uid).hex()!r}, {int(reader)})")

    def remove(self, uid: bytes) -> None:
        self.mp.run(f"rig.remove({bytes(uid).hex()!r})")

    def fail_reader(self, reader: int) -> None:
        """The reader stops answering on SPI (MISO reads 0x00)."""
        self.mp.run(f"rig.fail_reader({int(reader)})")

    def heal_reader(self, reader: int) -> None:
        """The reader answers again, from power-on state."""
        self.mp.run(f"rig.heal_reader({int(reader)})")

    def leds(self) -> dict[int, LedState]:
        """LEDs not off: number -> (mode, (r, g, b))."""
        lit = self.mp.eval("rig.leds()")
        return {int(led): (mode, (rgb[0], rgb[1], rgb[2])) for led, (mode, rgb) in lit.items()}

    def close(self) -> None:
        if self._own:
            self.mp.close()
