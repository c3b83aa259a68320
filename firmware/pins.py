"""The Pico's pins: the one map of the board's wiring.

firmware/config.py takes its pins from here, the circuit (hardware/circuits/
pinout.py) reads this file, and the pinout tables in docs/hardware.md are
generated from it (``python -m hardware.circuits.pinout --docs``). Change a
pin here and nowhere else. Plain integers, so CPython can read it too.

SPI pins are the RP2040's fixed function pins (RP2040 datasheet 2.19.2,
"Function Select"): SPI0 SCK/TX/RX on GP18/19/16, SPI1 SCK/TX/RX on
GP26/27/28. The WS2812 data (PIO) and the buzzer (PWM) work on any GPIO.
"""

# Rooms, centre and door readers (SPI0).
SPI0_SCK = 18
SPI0_MOSI = 19  # TX
SPI0_MISO = 16  # RX

# The seat pads at the table's edge, the long cable runs (SPI1).
SPI1_SCK = 26
SPI1_MOSI = 27  # TX
SPI1_MISO = 28  # RX

READER_RST = 22  # RST of every reader, shared
LED_DATA = 20  # WS2812 data, through the 74AHCT125 to 5 V
BUZZER = 21  # PWM
STATUS_LED = "LED"  # the Pico's own LED (GP25): needs no wiring

# One chip-select GPIO per reader while every reader has its own wire:
# reader i on DIRECT_CS[i].
DIRECT_CS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17)

# More readers than that: two 74HC154 4-to-16 decoders. The address lines
# A0-A3 are shared, each decoder has its own active-low enable (~E1); reader i
# is output i % 16 of decoder i // 16.
DECODER_ADDRESS = (0, 1, 2, 3)
DECODER_ENABLES = (4, 5)
OUTPUTS_PER_DECODER = 16
