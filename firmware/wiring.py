"""Which bus and which chip select each reader has, as config.py and pins.py say.

Readers in config.SPI1_READERS (the seat pads) are on SPI1, the rest on SPI0.
``plan`` is the same wiring as data, GPIO by net name, so a test can hold it
against the circuit's netlist.
"""

from machine import SPI, Pin

import pins
from chipselect import make_selects


def plan(count, cs_pins, decoder, spi1_readers):
    """{net name: GPIO} of every Pico pin the firmware drives for this build.

    The names are the netlist's (hardware/circuits/board.py).
    """
    nets = {"SPI0_SCK": pins.SPI0_SCK, "SPI0_MOSI": pins.SPI0_MOSI, "SPI0_MISO": pins.SPI0_MISO,
            "READER_RST": pins.READER_RST, "LED_DATA_3V3": pins.LED_DATA, "BUZZER": pins.BUZZER}
    if [r for r in spi1_readers if r < count]:
        nets.update({"SPI1_SCK": pins.SPI1_SCK, "SPI1_MOSI": pins.SPI1_MOSI, "SPI1_MISO": pins.SPI1_MISO})
    if decoder is None:
        if count > len(cs_pins):
            raise ValueError("more readers than CS pins: set DECODER in config.py")
        for reader in range(count):
            nets["CS%d" % reader] = cs_pins[reader]
        return nets
    address, enables = decoder
    for bit, gpio in enumerate(address):
        nets["CS_A%d" % bit] = gpio
    for index in range(-(-count // pins.OUTPUTS_PER_DECODER)):
        nets["CS_E%d" % index] = enables[index]
    return nets


def bus(number, baudrate):
    """SPI0 (rooms) or SPI1 (seat pads) on the pins of pins.py, mode 0."""
    if number == 0:
        sck, mosi, miso = pins.SPI0_SCK, pins.SPI0_MOSI, pins.SPI0_MISO
    else:
        sck, mosi, miso = pins.SPI1_SCK, pins.SPI1_MOSI, pins.SPI1_MISO
    return SPI(number, baudrate=baudrate, polarity=0, phase=0, sck=Pin(sck), mosi=Pin(mosi), miso=Pin(miso))


def reader_links(count, config):
    """(spi, select) of each of ``count`` readers: SPI1 for config.SPI1_READERS, else SPI0.

    SPI1 is set up only when one of its readers is fitted, so its pins stay
    free on a board without seat pads.
    """
    rooms = bus(0, config.SPI_BAUDRATE)
    seats = bus(1, config.SPI_BAUDRATE) if [r for r in config.SPI1_READERS if r < count] else None
    selects = make_selects(count, config.CS_PINS, config.DECODER)
    return [(seats if reader in config.SPI1_READERS else rooms, selects[reader]) for reader in range(count)]
