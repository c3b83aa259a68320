"""The board's pin plan: which Pico GPIO does what (the circuit's side of firmware/config.py).

SPI0 and the chip selects of readers 0-15 and the reset line match
firmware/config.py today. The seat pads move to their own bus, SPI1 (RP2040
datasheet, "Function select": SPI1 SCK on GP26, TX on GP27, RX on GP28), so the
LED data and the buzzer move to GP20 and GP21 (PIO and PWM work on any GPIO);
firmware/config.py must follow (docs/circuit.md, "Pin plan").
"""

from __future__ import annotations

from dataclasses import dataclass

SPI0_SCK, SPI0_MOSI, SPI0_MISO = 18, 19, 16
SPI1_SCK, SPI1_MOSI, SPI1_MISO = 26, 27, 28
READER_RST = 22
LED_DATA = 20
BUZZER = 21
# One GPIO per reader while every reader has its own wire.
DIRECT_CS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17)
# Beyond that, 74HC154 decoders: address lines and one enable per decoder, as
# the plan in firmware/config.py (DECODER = ((0, 1, 2, 3), (4, 5))).
DECODER_ADDRESS = (0, 1, 2, 3)
DECODER_ENABLES = (4, 5)
OUTPUTS_PER_DECODER = 16


@dataclass(frozen=True)
class BoardSpec:
    """How many readers, and which of them are seat pads (on SPI1).

    >>> BoardSpec(readers=16).decoders
    0
    >>> BoardSpec(readers=22).decoders
    2
    """

    readers: int = 16
    seats: tuple[int, ...] = (10, 11, 12, 13, 14, 15)

    def __post_init__(self) -> None:
        most = OUTPUTS_PER_DECODER * len(DECODER_ENABLES)
        if not 1 <= self.readers <= most:
            raise ValueError(f"readers must be 1 to {most}, got {self.readers}")
        outside = [seat for seat in self.seats if not 0 <= seat < self.readers]
        if outside:
            raise ValueError(f"seat readers {outside} are not among readers 0-{self.readers - 1}")

    @property
    def decoders(self) -> int:
        """74HC154s needed: none while every reader has a GPIO of its own."""
        if self.readers <= len(DIRECT_CS):
            return 0
        return -(-self.readers // OUTPUTS_PER_DECODER)

    def on_spi1(self, reader: int) -> bool:
        """True for a seat pad: the long runs at the table edge get their own bus."""
        return reader in self.seats
