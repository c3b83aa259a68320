"""The Pi's own hotspot: its name, stable per Pi, and a password a family can type.

The name is "CLUE-" and four hex digits derived from the Pi's serial number (its
OTP fuses, the ``Serial`` of /proc/cpuinfo, which the Pi's device tree also gives
as /proc/device-tree/serial-number), else from /etc/machine-id. machine-id(5)
calls that ID confidential and asks that it be hashed with a keyed hash and an
application key, as sd_id128_get_machine_app_specific(3) does (HMAC-SHA256): so
neither ID can be read back from the name a neighbour sees. Not checked on a real
Pi: that its device tree has serial-number (the machine-id fallback covers it).

>>> hotspot_ssid(b"00000000b83c3c1b")
'CLUE-ABAB'
>>> len(new_password()), set(new_password()) <= set(ALPHABET)
(12, True)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path

IDENTITY_FILES = (Path("/proc/device-tree/serial-number"), Path("/etc/machine-id"))
APP_KEY = b"clue-companion hotspot"
# Lower-case letters and digits without the ones read as each other (i l 1, o 0): typed on a phone.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
PASSWORD_LENGTH = 12  # 31^12: some 59 bits, past guessing at WPA2's speed for a home game
FALLBACK_SSID = "CLUE-0000"  # neither ID readable (not a Pi, or /etc/machine-id empty at first boot)


def hotspot_ssid(identity: bytes | None) -> str:
    """ "CLUE-" and 4 upper-case hex digits of the keyed hash of ``identity`` (None: FALLBACK_SSID)."""
    if not identity:
        return FALLBACK_SSID
    return "CLUE-" + hmac.new(identity, APP_KEY, hashlib.sha256).hexdigest()[:4].upper()


def machine_identity(files: Sequence[Path] = IDENTITY_FILES) -> bytes | None:
    """The first of ``files`` that holds an ID (read bounded; NULs and spaces trimmed), or None."""
    for path in files:
        try:
            with path.open("rb") as handle:
                found = handle.read(256).strip(b"\0 \t\r\n")
        except OSError:
            continue
        if found:
            return found
    return None


def new_password(choose: Callable[[str], str] = secrets.choice) -> str:
    """A fresh hotspot password: PASSWORD_LENGTH characters from ALPHABET, never all hex digits.

    (ZXing's Wi-Fi QR format reads a password of hex digits as a raw key unless quoted.)
    """
    while True:
        password = "".join(choose(ALPHABET) for _ in range(PASSWORD_LENGTH))
        if not all(char in "0123456789abcdef" for char in password):
            return password
