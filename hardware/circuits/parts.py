"""The parts the circuits use, defined in Python: pins, pin functions, footprints.

No KiCad symbol library is needed: each kind lists its pins with the function
SKiDL's ERC checks (an output against an output is an error, a power input
needs a power output on its net). Pin numbers follow each part's datasheet,
named on the kind. Footprints are KiCad standard-library names, except the
Pico's (see PICO).
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.circuits.skidl_session import SkidlObject, skidl

# (number, name, function); functions are SKiDL pin_types names.
PinSpec = tuple[int, str, str]


@dataclass(frozen=True)
class PartKind:
    """A kind of part: what the BOM buys and what the netlist places."""

    name: str
    ref_prefix: str
    footprint: str
    pins: tuple[PinSpec, ...]
    description: str


def _two_pin(name: str, prefix: str, footprint: str, description: str) -> PartKind:
    return PartKind(name, prefix, footprint, ((1, "1", "PASSIVE"), (2, "2", "PASSIVE")), description)


RESISTOR_0603 = _two_pin("R", "R", "Resistor_SMD:R_0603_1608Metric", "resistor 0603 1%")
CAP_0603 = _two_pin("C", "C", "Capacitor_SMD:C_0603_1608Metric", "ceramic capacitor 0603 X7R")
CAP_0805 = _two_pin("C", "C", "Capacitor_SMD:C_0805_2012Metric", "ceramic capacitor 0805 X5R")
CAP_BULK = PartKind(
    "CP", "C", "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
    ((1, "+", "PASSIVE"), (2, "-", "PASSIVE")), "electrolytic capacitor, 10 V",
)
# The AMS1117's output capacitor: its datasheet asks for 22 uF tantalum (some
# ESR keeps the regulator loop stable), not a near-zero-ESR ceramic.
CAP_TANTALUM = PartKind(
    "CP_Tantalum", "C", "Capacitor_Tantalum_SMD:CP_EIA-3528-21_Kemet-B",
    ((1, "+", "PASSIVE"), (2, "-", "PASSIVE")), "tantalum capacitor, case B, 10 V",
)
BUTTON = _two_pin("SW_Push", "SW", "Button_Switch_THT:SW_PUSH_6mm", "tactile switch 6x6 mm")
# TDK PS1240P02BT (TDK "Piezoelectronic buzzers, PS series, without oscillator
# circuit", May 2011): a piezo sounder for external drive, 70 dB(A) min at 10 cm
# with a 3 Vo-p, 4 kHz rectangular wave, the swing a 3.3 V GPIO gives. A piezo is
# a capacitive, voltage-driven load: a GPIO can drive it directly (Murata, FAQ on
# piezoelectric sound components, "driven directly from a microcomputer").
BUZZER = _two_pin("Buzzer", "BZ", "Buzzer_Beeper:Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm",
                  "piezo sounder, external drive, 4 kHz (TDK PS1240P02BT)")

# Raspberry Pi Pico datasheet, "Pinout": GP0..GP22 on pins 1-29 around the GNDs,
# GP26-28 on 31, 32, 34. Power pins typed so ERC refuses the wiring mistakes
# docs/hardware.md warns about: VBUS (USB 5 V) and 3V3(OUT) are outputs, so an
# external supply on either is two power outputs on one net.
_PICO_GPIO_PINS = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14,
    11: 15, 12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25,
    20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34,
}
PICO_GND_PINS = (3, 8, 13, 18, 23, 28, 33, 38)
PICO = PartKind(
    "RPi_Pico", "U",
    # Not in KiCad's standard library: the community RP-Pico library's name.
    "RPi_Pico:RPi_Pico_SMD_TH",
    tuple((num, f"GP{gp}", "BIDIR") for gp, num in _PICO_GPIO_PINS.items())
    + tuple((num, "GND", "PWRIN") for num in PICO_GND_PINS)
    + ((30, "RUN", "INPUT"), (35, "ADC_VREF", "PWRIN"), (36, "3V3_OUT", "PWROUT"),
       (37, "3V3_EN", "INPUT"), (39, "VSYS", "PWROUT"), (40, "VBUS", "PWROUT")),
    "Raspberry Pi Pico (RP2040) module, powered by its own USB from the Pi",
)


def pico_gpio_pin(gpio: int) -> int:
    """The Pico's physical pin for GPIO ``gpio``.

    >>> pico_gpio_pin(18)
    24
    """
    return _PICO_GPIO_PINS[gpio]


# The reader module as the hub sees it: its 8-pin header at the end of a cable.
# MISO is an always-driving OUTPUT on purpose: clone modules drive MISO while
# deselected (miguelbalboa/rfid #290), so two MISO pins straight on one net
# are an ERC error and each one needs its own 3-state buffer.
RC522_MODULE = PartKind(
    "RC522_module", "M", "Connector_PinHeader_2.54mm:PinHeader_1x08_P2.54mm_Vertical",
    ((1, "SDA", "INPUT"), (2, "SCK", "INPUT"), (3, "MOSI", "INPUT"), (4, "MISO", "OUTPUT"),
     (5, "IRQ", "OUTPUT"), (6, "GND", "PWRIN"), (7, "RST", "INPUT"), (8, "3V3", "PWRIN")),
    "RC522 (MFRC522) 13.56 MHz reader module, 3.3 V, on a ribbon cable",
)

# SN74LVC1G125 datasheet (TI SCES223), pin functions, DBV (SOT-23-5):
# output disabled (high impedance) while OE is high.
LVC1G125 = PartKind(
    "74LVC1G125", "U", "Package_TO_SOT_SMD:SOT-23-5",
    ((1, "~OE", "INPUT"), (2, "A", "INPUT"), (3, "GND", "PWRIN"), (4, "Y", "TRISTATE"),
     (5, "VCC", "PWRIN")),
    "single bus buffer, 3-state output, OE active low",
)

# SN74LVC244A (TI SCAS414, DW package pinout): two 4-bit buffers, each group
# enabled by its own active-low OE; +/-24 mA outputs at VCC 3.0 V (HD74LVC244A
# data sheet, features). The SPI clock and data fan-out: one output per group of
# readers, so no Pico pad drives the whole star.
LVC244A = PartKind(
    "74LVC244A", "U", "Package_SO:SOIC-20W_7.5x12.8mm_P1.27mm",
    ((1, "~1OE", "INPUT"), (2, "1A1", "INPUT"), (3, "2Y4", "TRISTATE"), (4, "1A2", "INPUT"),
     (5, "2Y3", "TRISTATE"), (6, "1A3", "INPUT"), (7, "2Y2", "TRISTATE"), (8, "1A4", "INPUT"),
     (9, "2Y1", "TRISTATE"), (10, "GND", "PWRIN"), (11, "2A1", "INPUT"), (12, "1Y4", "TRISTATE"),
     (13, "2A2", "INPUT"), (14, "1Y3", "TRISTATE"), (15, "2A3", "INPUT"), (16, "1Y2", "TRISTATE"),
     (17, "2A4", "INPUT"), (18, "1Y1", "TRISTATE"), (19, "~2OE", "INPUT"), (20, "VCC", "PWRIN")),
    "octal buffer, 3-state, 5 V tolerant inputs: SPI clock and data fan-out",
)

# 74HC154 datasheet (TI SCLS161 / Nexperia 74HC154), SO-24 pinout:
# Y0-Y10 on pins 1-11, Y11-Y15 on 13-17, E1/E2 (active low) on 18/19,
# A3..A0 on 20-23.
HC154 = PartKind(
    "74HC154", "U", "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm",
    tuple((n + 1, f"Y{n}", "OUTPUT") for n in range(11))
    + ((12, "GND", "PWRIN"),)
    + tuple((n + 2, f"Y{n}", "OUTPUT") for n in range(11, 16))
    + ((18, "~E1", "INPUT"), (19, "~E2", "INPUT"), (20, "A3", "INPUT"), (21, "A2", "INPUT"),
       (22, "A1", "INPUT"), (23, "A0", "INPUT"), (24, "VCC", "PWRIN")),
    "4-to-16 line decoder, outputs active low",
)

# SN74AHCT125 datasheet (TI SCLS264), D/N package: four buffers, OE active low.
AHCT125 = PartKind(
    "74AHCT125", "U", "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm",
    ((1, "~1OE", "INPUT"), (2, "1A", "INPUT"), (3, "1Y", "TRISTATE"), (4, "~2OE", "INPUT"),
     (5, "2A", "INPUT"), (6, "2Y", "TRISTATE"), (7, "GND", "PWRIN"), (8, "3Y", "TRISTATE"),
     (9, "3A", "INPUT"), (10, "~3OE", "INPUT"), (11, "4Y", "TRISTATE"), (12, "4A", "INPUT"),
     (13, "~4OE", "INPUT"), (14, "VCC", "PWRIN")),
    "quad buffer, TTL inputs at 5 V: lifts the 3.3 V LED data to 5 V",
)

# AMS1117 datasheet, SOT-223: 1 GND/ADJ, 2 (and tab) VOUT, 3 VIN.
AMS1117_33 = PartKind(
    "AMS1117-3.3", "U", "Package_TO_SOT_SMD:SOT-223-3_TabPin2",
    ((1, "GND", "PWRIN"), (2, "VOUT", "PWROUT"), (3, "VIN", "PWRIN")),
    "3.3 V 1 A linear regulator, one per 16 readers",
)

# WS2812B datasheet (Worldsemi), 5050 package: 1 VDD, 2 DOUT, 3 VSS, 4 DIN.
WS2812B = PartKind(
    "WS2812B", "D", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
    ((1, "VDD", "PWRIN"), (2, "DOUT", "OUTPUT"), (3, "VSS", "PWRIN"), (4, "DIN", "INPUT")),
    "RGB LED with integrated driver, 5 V",
)

SUPPLY_5V = PartKind(
    "Conn_5V", "J", "TerminalBlock:TerminalBlock_bornier-2_P5.08mm",
    ((1, "+5V", "PWROUT"), (2, "GND", "PWROUT")),
    "5 V supply input (LEDs, level shifter, reader regulators)",
)

# MCP23008 datasheet (Microchip DS21919), SOIC-18: address 0100 A2 A1 A0 (0x20
# with all low); RESET must be held high to run.
MCP23008 = PartKind(
    "MCP23008", "U", "Package_SO:SOIC-18W_7.5x11.6mm_P1.27mm",
    ((1, "SCL", "INPUT"), (2, "SDA", "BIDIR"), (3, "A2", "INPUT"), (4, "A1", "INPUT"),
     (5, "A0", "INPUT"), (6, "~RESET", "INPUT"), (7, "NC", "NOCONNECT"), (8, "INT", "OUTPUT"),
     (9, "VSS", "PWRIN"))
    + tuple((10 + n, f"GP{n}", "BIDIR") for n in range(8))
    + ((18, "VDD", "PWRIN"),),
    "8-bit I2C I/O expander with 100 kOhm pull-ups (GPPU)",
)

# TCA9548A datasheet (TI SCPS207), PW (TSSOP-24): address 1110 A2 A1 A0.
TCA9548A = PartKind(
    "TCA9548A", "U", "Package_SO:TSSOP-24_4.4x7.8mm_P0.65mm",
    ((1, "A0", "INPUT"), (2, "A1", "INPUT"), (3, "~RESET", "INPUT"))
    + tuple(
        pin
        for ch in range(8)
        for pin in (
            (4 + 2 * ch + (1 if ch >= 4 else 0), f"SD{ch}", "BIDIR"),
            (5 + 2 * ch + (1 if ch >= 4 else 0), f"SC{ch}", "BIDIR"),
        )
    )
    + ((12, "GND", "PWRIN"), (21, "A2", "INPUT"), (22, "SCL", "BIDIR"), (23, "SDA", "BIDIR"),
       (24, "VCC", "PWRIN")),
    "8-channel I2C multiplexer",
)

# A 128x64 SSD1306 I2C module's usual 4-pin header: GND, VCC, SCL, SDA.
OLED_MODULE = PartKind(
    "SSD1306_OLED_module", "M", "Connector_PinSocket_2.54mm:PinSocket_1x04_P2.54mm_Vertical",
    ((1, "GND", "PWRIN"), (2, "VCC", "PWRIN"), (3, "SCL", "INPUT"), (4, "SDA", "BIDIR")),
    "0.96 in 128x64 OLED module, SSD1306, I2C (0x3C)",
)

# One mux channel's cable: power from the hub, the channel's SDn/SCn.
CHANNEL_PLUG = PartKind(
    "Conn_I2C_channel", "J", "Connector_JST:JST_XH_B4B-XH-A_1x04_P2.50mm_Vertical",
    ((1, "GND", "PWROUT"), (2, "3V3", "PWROUT"), (3, "SDA", "BIDIR"), (4, "SCL", "BIDIR")),
    "4-pin JST-XH: the cable from a TCA9548A channel",
)
CHANNEL_SOCKET = PartKind(
    "Conn_I2C_channel", "J", "Connector_JST:JST_XH_B4B-XH-A_1x04_P2.50mm_Vertical",
    ((1, "GND", "PASSIVE"), (2, "3V3", "PASSIVE"), (3, "SDA", "BIDIR"), (4, "SCL", "BIDIR")),
    "4-pin JST-XH: the cable to one handheld",
)

# Raspberry Pi 40-pin header, the pins the hub uses (pinout.xyz / Raspberry Pi
# documentation "GPIO and the 40-pin header").
PI_HEADER = PartKind(
    "Conn_RPi_I2C", "J", "Connector_PinSocket_2.54mm:PinSocket_1x04_P2.54mm_Vertical",
    ((1, "3V3", "PWROUT"), (3, "GPIO2_SDA", "BIDIR"), (5, "GPIO3_SCL", "BIDIR"),
     (6, "GND", "PWROUT")),
    "wires to the Pi's header: 3V3 (1), SDA (3), SCL (5), GND (6)",
)


def make(kind: PartKind, tag: str, value: str | None = None) -> SkidlObject:
    """A new part of ``kind`` in SKiDL's current circuit.

    ``tag`` names the part's role (``reader3.buffer``); it ties the part to its
    footprint across netlist updates in pcbnew.
    """
    module = skidl()
    types = module.pin.pin_types
    pins = [module.Pin(num=num, name=name, func=getattr(types, func)) for num, name, func in kind.pins]
    part = module.Part(
        tool=module.SKIDL, name=kind.name, ref_prefix=kind.ref_prefix,
        footprint=kind.footprint, pins=pins, tag=tag, value=value or kind.name,
    )
    part.description = kind.description
    part.kind = kind
    return part
