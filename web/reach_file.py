"""How the card image's network script says phones reach the Pi: ``/run/clue-companion/reach.json``.

The script writes ``{"mode": "wifi" | "hotspot" | "wired", "ssid", "password" (hotspot only),
"addresses": [...]}`` once the Pi is on a network. The table screens read it: on the
hotspot they show its name, its password and a Wi-Fi QR code, so phones join the Pi's
network before they open the page. The file is read bounded and checked; a missing
or bad one is simply no information (never an error on a page).

>>> wifi_qr_text("CLUE-3F2A", "k7mp;9:x,2\\\\q")
'WIFI:T:WPA;S:CLUE-3F2A;P:k7mp\\\\;9\\\\:x\\\\,2\\\\\\\\q;;'
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REACH_FILE = Path("/run/clue-companion/reach.json")
MAX_BYTES = 16 * 1024  # a few addresses and a name: a larger file is not the script's
MAX_ADDRESSES = 8
MODES = ("wifi", "hotspot", "wired")  # wired: an Ethernet cable, no Wi-Fi to show
# The Wi-Fi QR code's text, as ZXing specified it ("Barcode Contents", Wi-Fi network config, which
# Android's and iOS's cameras read): WIFI:T:WPA;S:<ssid>;P:<password>;; where "\", ";", ",", ":" (and
# '"', which some readers take as quoting) are escaped with a backslash. segno.helpers leaves "," unescaped.
_ESCAPED = str.maketrans({char: "\\" + char for char in '\\;,:"'})


@dataclass(frozen=True)
class Reach:
    """The network phones use: the home Wi-Fi, or the Pi's hotspot (with its name and password)."""

    mode: str
    ssid: str | None = None
    password: str | None = None
    addresses: tuple[str, ...] = ()

    @property
    def hotspot(self) -> bool:
        return self.mode == "hotspot"

    def wifi_qr(self) -> str | None:
        """The hotspot's Wi-Fi QR text, or None (not a hotspot, or its name or password unknown)."""
        if not self.hotspot or not self.ssid or not self.password:
            return None
        return wifi_qr_text(self.ssid, self.password)


def wifi_qr_text(ssid: str, password: str) -> str:
    """The text of a Wi-Fi QR code for a WPA network (see _ESCAPED)."""
    return f"WIFI:T:WPA;S:{ssid.translate(_ESCAPED)};P:{password.translate(_ESCAPED)};;"


def read_reach(path: Path | None = REACH_FILE) -> Reach | None:
    """What ``path`` says, or None when it is missing, too large or not what the script writes."""
    if path is None:
        return None
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
        found = json.loads(data) if len(data) <= MAX_BYTES else None
    except (OSError, ValueError):
        return None
    return _checked(found) if isinstance(found, dict) else None


def _checked(found: dict[str, Any]) -> Reach | None:
    mode = found.get("mode")
    if mode not in MODES:
        return None
    ssid, password = _text(found.get("ssid"), 32), _text(found.get("password"), 63)
    addresses = found.get("addresses", [])
    usable = tuple(address for address in addresses[:MAX_ADDRESSES] if _is_address(address)) \
        if isinstance(addresses, list) else ()
    return Reach(str(mode), ssid, password if mode == "hotspot" else None, usable)


def _text(value: object, most: int) -> str | None:
    if not isinstance(value, str) or not value or len(value.encode("utf-8")) > most or not value.isprintable():
        return None
    return value


def _is_address(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True


def hotspot_panel(path: Path | None) -> dict[str, Any] | None:
    """What the table page shows of the hotspot (its name, password and Wi-Fi QR code as SVG), or None.

    Only the shared table page shows it: a phone that opened the page is on the network already.
    """
    reach = read_reach(path)
    text = reach.wifi_qr() if reach is not None else None
    if reach is None or text is None:
        return None
    import segno
    from markupsafe import Markup

    svg = segno.make(text, error="m").svg_inline(scale=1, omitsize=True, light="#ffffff", border=4)
    return {"ssid": reach.ssid, "password": reach.password, "qr_svg": Markup(svg)}  # segno's SVG holds no text
