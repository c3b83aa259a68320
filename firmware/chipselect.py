"""Chip selects for the readers: one GPIO each, or 74HC154 decoder outputs.

Every select object has ``claim()``, to call before a run of transfers to its
reader, then ``select()`` (that reader's CS goes low, active) and
``deselect()`` around each transfer. The driver wraps each SPI transfer in the
pair, some thirty times per tag and pass, so both are the pins' own methods,
with no Python call in between: a decoder select sets its address lines in
``claim()`` (only those that change), and ``select()`` only pulls its
decoder's enable low. Readers are scanned one at a time, so the address holds
while the driver talks to one reader; the driver claims at each of its entry
points (``mfrc522.MFRC522``: health, begin, finish, confirm, find, version).
"""

from machine import Pin


class DirectSelect:
    """A reader's own CS wire (the RC522's SDA pin), active low."""

    def __init__(self, gpio):
        self._pin = Pin(gpio, Pin.OUT, value=1)
        # Bound methods of the pin itself: no Python call in between.
        self.select = self._pin.off
        self.deselect = self._pin.on

    def claim(self):
        pass  # its own wire: nothing is shared


class Address:
    """The address lines A0-A3, shared by every decoder, and the line they now carry."""

    def __init__(self, pins):
        self.pins = pins  # four Pin objects, A0 first
        for pin in pins:
            pin.value(0)
        self.line = 0

    def show(self, line):
        changed = self.line ^ line
        if changed:
            for bit in range(4):
                if changed >> bit & 1:
                    self.pins[bit].value(line >> bit & 1)
            self.line = line


class DecoderSelect:
    """Output ``line`` (0-15) of a 74HC154: address on A0-A3, then E1 low.

    The address lines are shared by every decoder; each decoder has its own
    enable, so with every enable high no reader is selected. ``address``: an
    :class:`Address` (or, as before, a list of four pins, then owned alone).
    """

    def __init__(self, address, enable, line):
        self._address = address if isinstance(address, Address) else Address(address)
        self._line = line
        # The address is settled (claim()) before the output goes low.
        self.select = enable.off
        self.deselect = enable.on

    def claim(self):
        self._address.show(self._line)


def make_selects(count, cs_pins, decoder):
    """The select of each of ``count`` readers, as ``config`` wires them."""
    if decoder is None:
        if count > len(cs_pins):
            raise ValueError("more readers than CS pins: set DECODER in config.py")
        return [DirectSelect(cs_pins[i]) for i in range(count)]
    address_gpios, enable_gpios = decoder
    if count > 16 * len(enable_gpios):
        raise ValueError("more readers than decoder outputs")
    address = Address([Pin(gpio, Pin.OUT, value=0) for gpio in address_gpios])
    enables = [Pin(gpio, Pin.OUT, value=1) for gpio in enable_gpios]
    return [DecoderSelect(address, enables[i >> 4], i & 15) for i in range(count)]
