"""The board's build: pins, readers and timing (docs/hardware.md has the wiring).

Edit this file, not the others, when your board differs from the default
Classic build: 16 readers, one chip-select GPIO each (one antenna a room), the
seat pads on SPI1. The crowded-room build (2-3 antennas a room, 29 readers)
is commented below. Pins are in pins.py.
"""

from micropython import const

import pins

# ---- versions (docs/protocol.md) ------------------------------------------
FIRMWARE = (1, 1, 0)  # the protocol version is frames.PROTOCOL

# ---- pins: firmware/pins.py is the one pin map (the circuit reads it too) -------
# 1 MHz over a star of ribbon cables: each line has a series resistor at the
# Pico end (docs/hardware.md; docs/sensing.md, The bus) to damp ringing.
SPI_BAUDRATE = const(1_000_000)
SPI_SCK = pins.SPI0_SCK
SPI_MOSI = pins.SPI0_MOSI
SPI_MISO = pins.SPI0_MISO
READER_RST = pins.READER_RST  # RST of every reader, shared

# ---- readers ---------------------------------------------------------------
# Chip-select GPIOs in reader order when every reader has its own wire: 17 at
# most. Reader i uses CS_PINS[i].
CS_PINS = pins.DIRECT_CS

# One name per reader, in reader order; the count of this tuple is the board's
# reader count. The names only appear in LOG text.
READERS = (
    "Kitchen",  # reader 0, GP0
    "Ballroom",  # reader 1, GP1
    "Conservatory",  # reader 2, GP2
    "Dining Room",  # reader 3, GP3
    "Billiard Room",  # reader 4, GP4
    "Library",  # reader 5, GP5
    "Lounge",  # reader 6, GP6
    "Hall",  # reader 7, GP7
    "Study",  # reader 8, GP8
    "centre",  # reader 9, GP9: the cellar, where accusations are laid
    "seat 1",  # reader 10, GP10: card pad of seat 1
    "seat 2",  # reader 11, GP11
    "seat 3",  # reader 12, GP12
    "seat 4",  # reader 13, GP13
    "seat 5",  # reader 14, GP14
    "seat 6",  # reader 15, GP15
    # A spare reader 16 (GP17), e.g. a door reader:
    # "Ballroom door i6",
    # The crowded-room build of docs/hardware.md ("Sensing: several antennas per room"):
    # each room's second and third antennas as readers 16-28, with DECODER set below.
    # "Kitchen 2", "Ballroom 2", "Ballroom 3", "Conservatory 2", "Dining Room 2",
    # "Dining Room 3", "Billiard Room 2", "Library 2", "Lounge 2", "Lounge 3", "Hall 2",
    # "Hall 3", "Study 2",
)

# The seat pads are on their own bus, SPI1 (their long runs at the table's
# edge): these readers, by number. () when the seat pads share SPI0 with the
# rooms (then wire them to SPI0's pins, and SPI1's pins stay free).
SPI1_READERS = (10, 11, 12, 13, 14, 15)

# More than 17 readers: chip selects come from 74HC154 4-to-16 decoders.
# None for direct wiring; otherwise ((A0, A1, A2, A3), (E1 of decoder 1,
# E1 of decoder 2, ...)): reader i is output i % 16 of decoder i // 16.
# With decoders the CS_PINS above are free; the circuit's plan:
# DECODER = (pins.DECODER_ADDRESS, pins.DECODER_ENABLES)
DECODER = None

# ---- outputs -----------------------------------------------------------------
LED_PIN = pins.LED_DATA  # WS2812 data, through the 74AHCT125; LED i sits by reader i
BUZZER_PIN = pins.BUZZER  # PWM
STATUS_LED = pins.STATUS_LED  # the Pico's own LED: blinks unwelcomed, steady welcomed
BLINK_MS = const(500)  # half period of a blinking LED, board and status

# ---- scanning ------------------------------------------------------------------
MISSES = const(3)  # scans in a row without a tag before it counts as gone
HEALTH_RETRY_MS = const(2000)  # how often a failed reader is tried again
# The antenna is on only while its reader is scanned, so neighbours never
# jam each other. A tag accepts a request within 5 ms of field, so the reader
# gives it 5.1 ms (ISO/IEC 14443-3 clause 5); a field off for 5 ms powers
# every tag down (NXP Reader Library's field reset), done only when needed.
ANTENNA_SETTLE_US = const(5100)
FIELD_RESET_US = const(5100)
MAX_CARDS = const(16)  # tags one antenna tracks: a room holds up to 12 pieces
# Transmitter and receiver (MFRC522 datasheet 9.3.3.6-9.3.3.8): the field is
# what powers tags through the board, so the transmitter's conductance is at
# its most (CWGsN 0xF in GsNReg, ModGsN left at its 8; CWGsP 0x3F), and the
# receiver at its power-on 33 dB (RxGain 100b, bits 6-4 of RFCfgReg). Raise
# RX_GAIN (0x50 38 dB ... 0x70 48 dB) only if the bench survey says so.
RX_GAIN = const(0x40)
TX_GS_N = const(0xF8)
TX_CW_GS_P = const(0x3F)

# ---- the link (docs/protocol.md, Timing) ------------------------------------
HELLO_RETRY_MS = const(1000)
HEARTBEAT_MS = const(1000)
HOST_TIMEOUT_MS = const(3000)
WDT_TIMEOUT_MS = const(8000)
