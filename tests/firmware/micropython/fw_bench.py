"""Test-only: the MFRC522 driver alone on the fake SPI bus, one fake chip per reader, on virtual time."""

import binascii

import chipselect
import fake_mfrc522
import machine
import mfrc522

RST = 99  # the readers' shared RST: a pin no select uses (reader i is selected by GPIO i, 29 readers too)


class Bench:
    """``readers`` chips, reader i selected by GPIO i, each driven by the real driver.

    The driver's ``time`` is the chips' :class:`fake_mfrc522.VirtualClock`, so
    its sleeps and time-outs run on simulated time (``self.clock.now``, in us).
    """

    def __init__(self, readers=1, max_cards=16, settle_us=5100, spi_hz=1_000_000, call_us=0):
        machine.reset_world()
        machine.Pin(RST, machine.Pin.OUT, value=1)
        self.clock = fake_mfrc522.VirtualClock()
        mfrc522.time = self.clock
        self.spi = machine.SPI(0, baudrate=spi_hz)
        self.chips = [fake_mfrc522.FakeChip(cs=i, rst=RST, clock=self.clock, spi_hz=spi_hz, call_us=call_us)
                      for i in range(readers)]
        self.drivers = [mfrc522.MFRC522(self.spi, chipselect.DirectSelect(i), settle_us, max_cards=max_cards)
                        for i in range(readers)]
        self.cards = {}

    def init(self, reader=0):
        return self.drivers[reader].init()

    def place(self, uid_hex, reader=0, boot_us=fake_mfrc522.BOOT_US):
        card = fake_mfrc522.Card(binascii.unhexlify(uid_hex), boot_us)
        self.chips[reader].add(card)
        self.cards[uid_hex] = card
        return card

    def place_over(self, uid_hex, readers, boot_us=fake_mfrc522.BOOT_US):
        """A tag lying across several antennas (straddling them): powered by any of their fields."""
        card = fake_mfrc522.Card(binascii.unhexlify(uid_hex), boot_us)
        for reader in readers:
            self.chips[reader].add(card)
        self.cards[uid_hex] = card
        return card

    def remove(self, uid_hex, reader=0):
        self.chips[reader].remove(self.cards.pop(uid_hex))

    def scan(self, reader=0, known=(), reset=False, off_at=None):
        """The UIDs the driver reports, as hex, in the order found; ``known`` as hex too."""
        found = []
        self.drivers[reader].scan(found, [binascii.unhexlify(uid) for uid in known], reset, off_at)
        return [binascii.hexlify(uid).decode() for uid in found]

    def selected(self, uid_hex):
        return self.cards[uid_hex].selected

    def states(self, reader=0):
        return self.chips[reader].states()
