"""The boot partition's ``clue-companion.toml``: what a family writes on any laptop, read and checked.

Pure: bytes in, settings and problems out. The checks that need the rest of the
companion (the host PIN's rule, which editions exist) are passed in, so this
module reads no file and imports no web code. Every problem names the key and
what was expected, and never repeats a PIN or a password (standard error is a log).

>>> found = parse_boot_file(read_text(b'\\xef\\xbb\\xbf[wifi]\\r\\nname = "Home"\\r\\npassword = "12345678"\\r\\n'
...                                    b'country = "gb"\\r\\n'), Checks())
>>> found.wifi
Wifi(ssid='Home', password='12345678', country='GB')
>>> found.problems
()
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

MAX_BYTES = 64 * 1024  # a boot file is a few hundred bytes; anything larger is not one
BOM = "\ufeff"  # Windows Notepad may start a UTF-8 file with it; TOML does not allow it
# WPA2-Personal takes a passphrase of 8 to 63 printable ASCII characters (IEEE 802.11i, and
# wpa_supplicant.conf(5): "ASCII passphrase ... 8..63 characters"); an SSID is 1 to 32 bytes.
PASSPHRASE = (8, 63)
SSID_BYTES = 32
COUNTRY = re.compile(r"[A-Z]{2}")  # ISO 3166-1 alpha-2, as the kernel's regulatory database names them
KEYS: dict[str, tuple[str, ...]] = {"wifi": ("name", "password", "country"), "hotspot": ("password",),
                                     "companion": ("pin", "language", "edition")}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the boot file: the key ("wifi.password", or "file") and a sentence."""

    key: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"key": self.key, "message": self.message}


@dataclass(frozen=True)
class Wifi:
    """The home network to join (``country`` None when the file does not say)."""

    ssid: str
    password: str
    country: str | None


@dataclass(frozen=True)
class Checks:
    """The rules that live elsewhere: the host PIN's (None: good) and the editions' (the id, None: unknown)."""

    pin_problem: Callable[[str], str | None] = lambda pin: None
    edition_id: Callable[[str], str | None] = lambda text: text
    locale_tag: Callable[[str], str | None] = lambda text: text


@dataclass(frozen=True)
class BootSettings:
    """What the boot file says. A setting left empty is "" (the companion's default); None: not usable.

    ``companion`` maps the companion's settings ("pin", "locale", "edition") to their value or
    "" for the default; a setting that was wrong is left out, so the last good one stays.
    """

    wifi: Wifi | None = None
    hotspot_password: str | None = None  # None: empty in the file (first boot makes one) or not usable
    hotspot_problem: bool = False  # the file sets a password that cannot be used
    companion: dict[str, str] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()


def read_text(data: bytes) -> str:
    """The file's text without a byte-order mark; ValueError if it is too large or not UTF-8."""
    if len(data) > MAX_BYTES:
        raise ValueError(f"it is larger than {MAX_BYTES // 1024} KiB: not the boot file")
    try:
        return data.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError as err:
        raise ValueError(f"it is not UTF-8 text (byte {err.start + 1}); save it as UTF-8") from None


def parse_boot_file(text: str, checks: Checks) -> BootSettings:
    """The settings in ``text`` (the file, BOM removed), each checked; problems say what to fix."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        return BootSettings(problems=(Problem("file", f"it is not valid TOML: {err}; every value needs quotes, "
                                                      "like name = \"My Wi-Fi\""),))
    return _Reading(checks).settings(data)


class _Reading:
    def __init__(self, checks: Checks) -> None:
        self.checks = checks
        self.problems: list[Problem] = []

    def settings(self, data: Mapping[str, Any]) -> BootSettings:
        tables = {name: self.table(data, name) for name in KEYS}
        for unknown in sorted(set(data) - set(KEYS)):
            self.problems.append(Problem(unknown, f"unknown section [{unknown}]; expected [wifi], [hotspot], "
                                                  "[companion]"))
        hotspot = self.text(tables["hotspot"], "hotspot.password")
        hotspot_problem = hotspot is not None and hotspot != "" and not self.passphrase("hotspot.password", hotspot)
        return BootSettings(wifi=self.wifi(tables["wifi"]),
                            hotspot_password=hotspot if hotspot and not hotspot_problem else None,
                            hotspot_problem=hotspot_problem, companion=self.companion(tables["companion"]),
                            problems=tuple(self.problems))

    def table(self, data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
        value = data.get(name, {})
        if not isinstance(value, dict):
            self.problems.append(Problem(name, f"{name} must be a section, [{name}]"))
            return {}
        for unknown in sorted(set(value) - set(KEYS[name])):
            self.problems.append(Problem(f"{name}.{unknown}", f"unknown setting {name}.{unknown}; [{name}] has "
                                                              f"{', '.join(KEYS[name])}"))
        return value

    def text(self, table: Mapping[str, Any], key: str) -> str | None:
        """The key's text, "" when left out; None (a problem) when it is not text."""
        value = table.get(key.rpartition(".")[2], "")
        if isinstance(value, str):
            # Names and passwords are taken as written (a Wi-Fi name may end in a space).
            return value if key.endswith(("password", "name")) else value.strip()
        self.problems.append(Problem(key, f"{key} must be text in double quotes, like \"...\""))
        return None

    def passphrase(self, key: str, value: str) -> bool:
        fewest, most = PASSPHRASE
        if fewest <= len(value) <= most and all(" " <= char <= "~" for char in value):
            return True
        self.problems.append(Problem(key, f"{key} must be {fewest} to {most} characters (letters, digits, "
                                          "punctuation or spaces, no accents): WPA2 refuses any other "
                                          f"(it has {len(value)})"))
        return False

    def wifi(self, table: Mapping[str, Any]) -> Wifi | None:
        name, password, country = (self.text(table, f"wifi.{key}") for key in KEYS["wifi"])
        if not name:
            if name is not None and password:
                self.problems.append(Problem("wifi.name", "wifi.password is set but wifi.name is empty: write "
                                                          "the Wi-Fi network's name"))
            return None
        good = True
        if len(name.encode("utf-8")) > SSID_BYTES:
            self.problems.append(Problem("wifi.name", f"wifi.name is longer than a Wi-Fi name can be "
                                                      f"({SSID_BYTES} bytes)"))
            good = False
        if password is None or not self.passphrase("wifi.password", password):
            good = False
        if country and not COUNTRY.fullmatch(country.upper()):
            self.problems.append(Problem("wifi.country", f"wifi.country must be two letters, like GB, US or DE, "
                                                         f"not {country[:8]!r}"))
            country = None
        elif country == "":
            self.problems.append(Problem("wifi.country", "wifi.country is empty: write your country's two "
                                                         "letters (GB, US, DE...), as Wi-Fi channels differ by "
                                                         "country"))
        return Wifi(name, password or "", country.upper() if country else None) if good else None

    def companion(self, table: Mapping[str, Any]) -> dict[str, str]:
        found: dict[str, str] = {}
        pin = self.text(table, "companion.pin")
        if pin is not None:
            problem = self.checks.pin_problem(pin) if pin else None
            if problem:
                self.problems.append(Problem("companion.pin", f"companion.pin: {problem}"))
            else:
                found["pin"] = pin
        for key, setting, check, expected in (
                ("language", "locale", self.checks.locale_tag, "a language such as en-GB, de-DE or fr-FR"),
                ("edition", "edition", self.checks.edition_id, "an edition such as classic")):
            value = self.text(table, f"companion.{key}")
            if value is None:
                continue
            chosen = check(value) if value else ""
            if chosen is None:
                self.problems.append(Problem(f"companion.{key}", f"companion.{key}: unknown {key} {value[:40]!r}; "
                                                                 f"expected {expected}"))
            else:
                found[setting] = chosen
        return found
