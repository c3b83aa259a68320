"""Test-only: the MFRC522 driver alone on the fake SPI bus, one fake chip per reader."""

import binascii

import chipselect
import fake_mfrc522
import machine
import mfrc522

RST = 22


class Bench:
    """``readers`` chips, reader i selected by GPIO i, each driven by the real driver."""

    def __init__(self, readers=1, max_cards=8):
        machine.reset_world()
        machine.Pin(RST, machine.Pin.OUT, value=1)
        self.spi = machine.SPI(0)
        self.chips = [fake_mfrc522.FakeChip(cs=i, rst=RST) for i in range(readers)]
        self.drivers = [mfrc522.MFRC522(self.spi, chipselect.DirectSelect(i), settle_us=0, max_cards=max_cards)
                        for i in range(readers)]
        self.cards = {}

    def init(self, reader=0):
        return self.drivers[reader].init()

    def place(self, uid_hex, reader=0):
        card = fake_mfrc522.Card(binascii.unhexlify(uid_hex))
        self.chips[reader].add(card)
        self.cards[uid_hex] = card
        return card

    def remove(self, uid_hex, reader=0):
        self.chips[reader].remove(self.cards.pop(uid_hex))

    def scan(self, reader=0):
        """The UIDs the driver reports, as hex, in the order found."""
        found = []
        self.drivers[reader].scan(found)
        return [binascii.hexlify(uid).decode() for uid in found]

    def selected(self, uid_hex):
        return self.cards[uid_hex].selected
