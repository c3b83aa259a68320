"""What each part is and where to buy it; a price only where a dated source gives one.

The build has no network, so no price was looked up live. A line carries a
price only when a public source found for this work states it, with the date
the source gives (a launch date, a dated post); every other line says "no
price" and the BOM's totals count only the priced lines (bom.py says so in its
output). Supplier numbers were checked against public parts lists where one
names them (cited on each group below); "search MPN" means none was checked.
"""

from __future__ import annotations

from dataclasses import dataclass

NO_PRICE = "no price: no dated source found; look it up by part number before ordering"


@dataclass(frozen=True)
class Price:
    """One orderable part and, if a dated source gives it, its unit price in US dollars."""

    manufacturer: str
    mpn: str
    supplier: str
    supplier_pn: str
    unit_usd: float | None = None
    source: str = NO_PRICE
    date: str = ""


def _unpriced(manufacturer: str, mpn: str, supplier: str = "Digi-Key",
              supplier_pn: str = "search MPN") -> Price:
    return Price(manufacturer, mpn, supplier, supplier_pn)


# Uniroyal 0603WAF thick-film resistors and their LCSC numbers, as public JLCPCB
# parts lists name them (C25804 and C21190 also in tscircuit/jlcsearch,
# docs/generated/resistors.md).
def _resistor(mpn: str, lcsc: str) -> Price:
    return Price("UNI-ROYAL", mpn, "LCSC", lcsc)


# Keyed by (part kind name, value); a kind's value is its own name unless it is
# a passive with a value.
CATALOGUE: dict[tuple[str, str], Price] = {
    ("RPi_Pico", "RPi_Pico"): Price(
        "Raspberry Pi", "SC0915", "Raspberry Pi approved reseller", "SC0915", 4.00,
        "Raspberry Pi's launch price for the Pico, US$4, released 21 January 2021 (as reported in "
        "thisisanitsupportgroup.com/blog/pi-pico-4-dollar-microcontroller-revolution)", "2021-01-21"),
    ("RC522_module", "RC522_module"): Price(
        "generic (NXP MFRC522)", "RFID-RC522 module", "marketplace", "-", 2.63,
        "one maker's marketplace price for an MFRC522 kit, tags included "
        "(kb7kmo.blogspot.com/2019/01/a-quick-look-at-rfid.html)", "2019-01"),
    ("74LVC1G125", "74LVC1G125"): _unpriced("Texas Instruments", "SN74LVC1G125DBVR"),
    ("74LVC244A", "74LVC244A"): _unpriced("Texas Instruments", "SN74LVC244ADWR"),
    ("74HC154", "74HC154"): _unpriced("Nexperia", "74HC154D,653"),
    ("74AHCT125", "74AHCT125"): _unpriced("Texas Instruments", "SN74AHCT125DR"),
    ("AMS1117-3.3", "AMS1117-3.3"): _unpriced(
        "Advanced Monolithic Systems", "AMS1117-3.3", "LCSC", "C6186 (check)"),
    ("WS2812B", "WS2812B"): _unpriced("Worldsemi", "WS2812B-B", "LCSC"),
    ("Conn_5V", "Conn_5V"): _unpriced("Phoenix Contact", "1729128"),
    ("Buzzer", "Buzzer"): _unpriced("TDK", "PS1240P02BT"),
    ("CP", "1000u"): _unpriced("any", "1000 uF 10 V radial, <= 10 mm", "any", "-"),
    ("R", "33"): _resistor("0603WAF330JT5E", "C23140"),
    ("R", "330"): _resistor("0603WAF3300T5E", "C23138"),
    ("R", "1k"): _resistor("0603WAF1001T5E", "C21190"),
    ("R", "4.7k"): _resistor("0603WAF4701T5E", "C23162"),
    ("R", "10k"): _resistor("0603WAF1002T5E", "C25804"),
    # C14663 is Yageo's CC0603KRX7R9BB104, 50 V X7R (JLC parts library entry in
    # oomlout/oomlout_OOMP_parts_V2, CAPC/0603/X/NF100/V50/README.md).
    ("C", "100n"): Price("YAGEO", "CC0603KRX7R9BB104", "LCSC", "C14663"),
    ("C", "10u"): Price("Samsung", "CL21A106KAYNNNE", "LCSC", "C15850"),
    ("CP_Tantalum", "22u"): _unpriced("KEMET", "T491B226K010AT"),
    ("MCP23008", "MCP23008"): _unpriced("Microchip", "MCP23008-E/SO"),
    ("TCA9548A", "TCA9548A"): _unpriced("Texas Instruments", "TCA9548APWR"),
    ("SSD1306_OLED_module", "SSD1306_OLED_module"): _unpriced(
        "generic (Solomon Systech SSD1306)", "0.96in 128x64 I2C OLED module", "marketplace", "-"),
    ("SW_Push", "SW_Push"): _unpriced("Omron", "B3F-1000"),
    ("Conn_I2C_channel", "Conn_I2C_channel"): _unpriced(
        "JST", "B4B-XH-A (plus XHP-4 housing, crimps)", "LCSC"),
    ("Conn_RPi_I2C", "Conn_RPi_I2C"): _unpriced("generic", "1x04 2.54 mm socket", "any", "-"),
}


def price_of(kind_name: str, value: str) -> Price:
    """The catalogue entry for a part, or a one-line error naming what is missing.

    >>> price_of("R", "33").mpn
    '0603WAF330JT5E'
    >>> price_of("C", "100n").manufacturer, price_of("C", "100n").unit_usd
    ('YAGEO', None)
    """
    try:
        return CATALOGUE[(kind_name, value)]
    except KeyError:
        raise KeyError(f"no price for part {kind_name} value {value}: add it to the catalogue") from None
