"""The firmware on a fake board: fake chips behind the real wiring, a fake clock and cable.

The board is built by firmware/main.py's own ``build`` (the real config.py
pins, chip selects, MFRC522 driver, scanner, outputs and protocol logic);
only ``machine``, ``neopixel``, the chips, the clock and the USB cable are
stand-ins. Each :meth:`Rig.advance` step is one pass of main.py's loop
(``main.step``), 10 ms of simulated time. The readers' own timing (antenna
settle, time-outs, SPI bytes) runs on a separate microsecond
:class:`fake_mfrc522.VirtualClock` that the driver uses as its ``time``.
"""

import binascii

import config
import fake_mfrc522
import machine
import main
import mfrc522
import neopixel

STEP_MS = 10


class Clock:
    """time.ticks_ms, moved by hand."""

    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


class Cable:
    """The USB serial port: bytes the host sent, bytes the board wrote."""

    def __init__(self):
        self.inbox = bytearray()
        self.outbox = bytearray()

    def read(self):
        if not self.inbox:
            return None
        data = bytes(self.inbox)
        self.inbox = bytearray()
        return data

    def write(self, data):
        self.outbox.extend(data)

    def take(self):
        data = bytes(self.outbox)
        self.outbox = bytearray()
        return data


def names_for(readers):
    if readers <= len(config.READERS):
        return config.READERS[:readers]
    return tuple("reader %d" % i for i in range(readers))


def hexlify(data):
    return binascii.hexlify(data).decode()


class Rig:
    """A freshly reset board with ``readers`` readers, all answering, at time 0."""

    def __init__(self, readers=4, decoder=None, failed=()):
        machine.reset_world()
        neopixel.instances.clear()
        config.DECODER = decoder
        self.air = fake_mfrc522.VirtualClock()
        mfrc522.time = self.air
        self.chips = self._wire(readers, decoder)
        self.clock = Clock()
        self.cable = Cable()
        self.wdt = machine.WDT(timeout=config.WDT_TIMEOUT_MS)
        self.board = main.build(self.cable, self.clock, names=names_for(readers))
        self.pixels = neopixel.instances[-1]
        self.buzzer = machine.pwms[-1]
        self.status = machine.line(config.STATUS_LED)
        self.cards = {}  # uid -> (Card, reader)
        self.stopped = False
        for reader in failed:  # dead from power-on
            self.chips[reader].fail()
        self.board.start()

    def _wire(self, readers, decoder):
        if decoder is None:
            return [fake_mfrc522.FakeChip(cs=config.CS_PINS[i], rst=config.READER_RST, clock=self.air,
                                          spi_hz=config.SPI_BAUDRATE) for i in range(readers)]
        address, enables = decoder
        decoders = [fake_mfrc522.FakeDecoder(address, enable) for enable in enables]
        chips = []
        for i in range(readers):
            chip = fake_mfrc522.FakeChip(rst=config.READER_RST, clock=self.air, spi_hz=config.SPI_BAUDRATE)
            decoders[i >> 4].attach(i & 15, chip)
            chips.append(chip)
        return chips

    # ---- the cable ------------------------------------------------------------

    def host_send(self, hex_data):
        self.cable.inbox.extend(binascii.unhexlify(hex_data))

    def advance(self, ms):
        """Run main.py's loop for ``ms`` of simulated time; the bytes written, in hex."""
        for _ in range(max(1, ms // STEP_MS)):
            if main.step(self.board, self.wdt):
                self.stopped = True
            self.clock.now += STEP_MS
        return hexlify(self.cable.take())

    def timeline(self, ms):
        """Like :meth:`advance`, step by step: [time, bytes written (hex), status LED] per pass."""
        steps = []
        for _ in range(max(1, ms // STEP_MS)):
            now = self.clock.now
            written = self.advance(STEP_MS)
            steps.append([now, written, self.status.value])
        return steps

    # ---- the physical world -------------------------------------------------------

    def place(self, uid_hex, reader):
        uid = binascii.unhexlify(uid_hex)
        self.remove(uid_hex)
        card = fake_mfrc522.Card(uid)
        self.chips[reader].add(card)
        self.cards[uid] = (card, reader)

    def remove(self, uid_hex):
        uid = binascii.unhexlify(uid_hex)
        if uid in self.cards:
            card, reader = self.cards.pop(uid)
            self.chips[reader].remove(card)

    def fail_reader(self, reader, value=0x00):
        self.chips[reader].fail(value)

    def heal_reader(self, reader):
        self.chips[reader].heal()

    # ---- what can be seen -------------------------------------------------------------

    def leds(self):
        """LEDs not off: {number: [mode name, [r, g, b]]}, as the firmware holds them."""
        names = ("off", "on", "blink")
        lit = {}
        for led in range(self.board.leds.count):
            mode, red, green, blue = self.board.leds.get(led)
            if mode:
                lit[led] = [names[mode], [red, green, blue]]
        return lit

    def shown(self):
        """What the WS2812 chain shows now: one [r, g, b] per LED."""
        return [list(colour) for colour in self.pixels.shown]

    def tone(self):
        """The buzzer now: [frequency, duty]."""
        return [self.buzzer.freq(), self.buzzer.duty_u16()]
