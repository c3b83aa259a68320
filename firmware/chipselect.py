"""Chip selects for the readers: one GPIO each, or 74HC154 decoder outputs.

Every select object has ``select()`` (that reader's CS goes low, active) and
``deselect()``; the driver wraps each SPI transfer in the pair.
"""

from machine import Pin


class DirectSelect:
    """A reader's own CS wire (the RC522's SDA pin), active low."""

    def __init__(self, gpio):
        self._pin = Pin(gpio, Pin.OUT, value=1)

    def select(self):
        self._pin.value(0)

    def deselect(self):
        self._pin.value(1)


class DecoderSelect:
    """Output ``line`` (0-15) of a 74HC154: address on A0-A3, then E1 low.

    The address lines are shared by every decoder; each decoder has its own
    enable, so with every enable high no reader is selected.
    """

    def __init__(self, address, enable, line):
        self._address = address  # four Pin objects, A0 first
        self._enable = enable
        self._line = line

    def select(self):
        line = self._line
        for bit in range(4):
            self._address[bit].value(line >> bit & 1)
        self._enable.value(0)  # the address is settled before the output goes low

    def deselect(self):
        self._enable.value(1)


def make_selects(count, cs_pins, decoder):
    """The select of each of ``count`` readers, as ``config`` wires them."""
    if decoder is None:
        if count > len(cs_pins):
            raise ValueError("more readers than CS pins: set DECODER in config.py")
        return [DirectSelect(cs_pins[i]) for i in range(count)]
    address_gpios, enable_gpios = decoder
    if count > 16 * len(enable_gpios):
        raise ValueError("more readers than decoder outputs")
    address = [Pin(gpio, Pin.OUT, value=0) for gpio in address_gpios]
    enables = [Pin(gpio, Pin.OUT, value=1) for gpio in enable_gpios]
    return [DecoderSelect(address, enables[i >> 4], i & 15) for i in range(count)]
