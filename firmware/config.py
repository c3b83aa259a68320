"""The board's build: pins, readers and timing (docs/hardware.md has the wiring).

Edit this file, not the others, when your board differs from the default
Classic build: 16 readers, one chip-select GPIO each.
"""

from micropython import const

# ---- versions (docs/protocol.md) ------------------------------------------
PROTOCOL = (1, 0)  # major, minor: the host refuses a board of another major
FIRMWARE = (1, 0, 0)

# ---- SPI bus shared by every reader (SPI0) --------------------------------
SPI_ID = const(0)
SPI_SCK = const(18)
SPI_MOSI = const(19)
SPI_MISO = const(16)
# 1-2 MHz keeps long ribbon runs reliable; drop to 1_000_000 if the seat pads
# at the table edge fail or miss tags.
SPI_BAUDRATE = const(2_000_000)
READER_RST = const(22)  # RST of every reader, shared

# ---- readers ---------------------------------------------------------------
# Chip-select GPIOs in reader order when every reader has its own wire: 20 at
# most. Reader i uses CS_PINS[i].
CS_PINS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 20, 21, 26)

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
    # Spare readers 16-19 (GP17, GP20, GP21, GP26), e.g. door readers:
    # "Ballroom door i6",
)

# More than 20 readers: chip selects come from 74HC154 4-to-16 decoders.
# None for direct wiring; otherwise ((A0, A1, A2, A3), (E1 of decoder 1,
# E1 of decoder 2, ...)): reader i is output i % 16 of decoder i // 16.
# With decoders the CS_PINS above are free, so the default plan reuses them:
# DECODER = ((0, 1, 2, 3), (4, 5))
DECODER = None

# ---- outputs -----------------------------------------------------------------
LED_PIN = const(28)  # WS2812 data, through the 74AHCT125; LED i sits by reader i
BUZZER_PIN = const(27)  # passive piezo, PWM
STATUS_LED = "LED"  # the Pico's own LED: blinks unwelcomed, steady welcomed
BLINK_MS = const(500)  # half period of a blinking LED, board and status

# ---- scanning ------------------------------------------------------------------
MISSES = const(3)  # scans in a row without a tag before it counts as gone
HEALTH_RETRY_MS = const(2000)  # how often a failed reader is tried again
# The antenna is on only while its reader is scanned, so neighbours never
# jam each other; a tag needs a moment of field before it answers.
ANTENNA_SETTLE_US = const(1500)
MAX_CARDS = const(8)  # tags one reader reports per scan (movers in one room)
RX_GAIN = const(0x70)  # RFCfgReg: 48 dB, the most, to read through the board

# ---- the link (docs/protocol.md, Timing) ------------------------------------
HELLO_RETRY_MS = const(1000)
HEARTBEAT_MS = const(1000)
HOST_TIMEOUT_MS = const(3000)
WDT_TIMEOUT_MS = const(8000)
