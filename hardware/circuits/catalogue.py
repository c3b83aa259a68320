"""What each part costs and where to buy it: the BOM's prices.

The prices are approximate unit prices in US dollars at 10-100 pieces, written
down by hand on PRICE_DATE without a live look-up (the build has no network);
each says where it comes from. LCSC numbers are given only where common and
must be checked before ordering; the manufacturer part number is the key.
"""

from __future__ import annotations

from dataclasses import dataclass

PRICE_DATE = "2026-11-25"
_DISTRIBUTOR = "estimate, distributor list prices (LCSC/Digi-Key) at 10-100 pcs; not checked live"
_PASSIVE = "estimate, LCSC basic-part price at 100 pcs; not checked live"
_MARKET = "estimate, marketplace price of a generic module; not checked live"


@dataclass(frozen=True)
class Price:
    """One orderable part and its approximate unit price."""

    manufacturer: str
    mpn: str
    supplier: str
    supplier_pn: str
    unit_usd: float
    source: str


def _resistor(mpn: str, lcsc: str) -> Price:
    return Price("UNI-ROYAL", mpn, "LCSC", lcsc, 0.002, _PASSIVE)


# Keyed by (part kind name, value); a kind's value is its own name unless it is
# a passive with a value.
CATALOGUE: dict[tuple[str, str], Price] = {
    ("RPi_Pico", "RPi_Pico"): Price(
        "Raspberry Pi", "SC0915", "Raspberry Pi approved reseller", "SC0915", 4.00,
        "Raspberry Pi's list price for the Pico"),
    ("RC522_module", "RC522_module"): Price(
        "generic (NXP MFRC522)", "RFID-RC522 module", "marketplace", "-", 1.50, _MARKET),
    ("74LVC1G125", "74LVC1G125"): Price(
        "Texas Instruments", "SN74LVC1G125DBVR", "Digi-Key", "search MPN", 0.12, _DISTRIBUTOR),
    ("74HC154", "74HC154"): Price(
        "Nexperia", "74HC154D,653", "Digi-Key", "search MPN", 0.45, _DISTRIBUTOR),
    ("74AHCT125", "74AHCT125"): Price(
        "Texas Instruments", "SN74AHCT125DR", "Digi-Key", "search MPN", 0.20, _DISTRIBUTOR),
    ("AMS1117-3.3", "AMS1117-3.3"): Price(
        "Advanced Monolithic Systems", "AMS1117-3.3", "LCSC", "C6186", 0.10, _DISTRIBUTOR),
    ("WS2812B", "WS2812B"): Price(
        "Worldsemi", "WS2812B-B", "LCSC", "search MPN", 0.08, _DISTRIBUTOR),
    ("Conn_5V", "Conn_5V"): Price(
        "Phoenix Contact", "1729128", "Digi-Key", "search MPN", 0.50, _DISTRIBUTOR),
    ("Buzzer", "Buzzer"): Price(
        "CUI Devices", "CEM-1203(42)", "Digi-Key", "search MPN", 0.60, _DISTRIBUTOR),
    ("CP", "1000u"): Price(
        "any", "1000 uF 10 V radial, <= 10 mm", "any", "-", 0.15, _DISTRIBUTOR),
    ("R", "33"): _resistor("0603WAF330JT5E", "C23140"),
    ("R", "100"): _resistor("0603WAF1000T5E", "C22775"),
    ("R", "330"): _resistor("0603WAF3300T5E", "C23138"),
    ("R", "4.7k"): _resistor("0603WAF4701T5E", "C23162"),
    ("R", "10k"): _resistor("0603WAF1002T5E", "C25804"),
    ("C", "100n"): Price("Samsung", "CL10B104KB8NNNC", "LCSC", "C14663", 0.003, _PASSIVE),
    ("C", "10u"): Price("Samsung", "CL21A106KAYNNNE", "LCSC", "C15850", 0.01, _PASSIVE),
    ("CP_Tantalum", "22u"): Price(
        "KEMET", "T491B226K010AT", "Digi-Key", "search MPN", 0.15, _DISTRIBUTOR),
    ("MCP23008", "MCP23008"): Price(
        "Microchip", "MCP23008-E/SO", "Digi-Key", "search MPN", 1.10, _DISTRIBUTOR),
    ("TCA9548A", "TCA9548A"): Price(
        "Texas Instruments", "TCA9548APWR", "Digi-Key", "search MPN", 0.90, _DISTRIBUTOR),
    ("SSD1306_OLED_module", "SSD1306_OLED_module"): Price(
        "generic (Solomon Systech SSD1306)", "0.96in 128x64 I2C OLED module", "marketplace", "-",
        2.50, _MARKET),
    ("SW_Push", "SW_Push"): Price("Omron", "B3F-1000", "Digi-Key", "search MPN", 0.15, _DISTRIBUTOR),
    ("Conn_I2C_channel", "Conn_I2C_channel"): Price(
        "JST", "B4B-XH-A (plus XHP-4 housing, crimps)", "LCSC", "search MPN", 0.10, _DISTRIBUTOR),
    ("Conn_RPi_I2C", "Conn_RPi_I2C"): Price(
        "generic", "1x04 2.54 mm socket", "any", "-", 0.10, _DISTRIBUTOR),
}


def price_of(kind_name: str, value: str) -> Price:
    """The catalogue entry for a part, or a one-line error naming what is missing.

    >>> price_of("R", "33").mpn
    '0603WAF330JT5E'
    """
    try:
        return CATALOGUE[(kind_name, value)]
    except KeyError:
        raise KeyError(f"no price for part {kind_name} value {value}: add it to the catalogue") from None
