"""``clue-companion welcome``: the table screen on the Pi's HDMI console (tty1), for the card image.

Before anyone has a browser at the table, the TV shows where the page is: its
address(es) in large, plain lines, a QR code of the first, and, when the Pi runs its
own hotspot (``/run/clue-companion/reach.json`` says so), the hotspot's name and
password with a Wi-Fi QR code, so phones join the Pi's network first. The screen is
drawn again whenever the reach file or the Pi's addresses change; ``--once`` draws
it once. The words are in the table's language (the config's ``[table] locale``).

The QR codes use Unicode half blocks (segno's compact terminal output, light
modules drawn in the console's white): the Linux console's default font has them
(code page 437's block characters). Not checked on a real TV: that every font the
image may choose has them.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import segno

from companion.language import DEFAULT, parse_locale, translations
from companion.rules.errors import ClueError
from web.reach import mdns_name, phone_addresses
from web.reach_file import REACH_FILE, Reach, read_reach

from .big_digits import largest
from .first_boot import PROBLEMS_FILE
from .table_settings import TableSettings
from .where import CONFIG_VARIABLE, SYSTEM_CONFIG, find_config

REFRESH_SECONDS = 2.0  # how often the reach file and the addresses are looked at again
CLEAR = "\x1b[H\x1b[2J\x1b[3J"  # cursor home, clear the screen and its scroll-back (console_codes(4))
HIDE_CURSOR, SHOW_CURSOR = "\x1b[?25l", "\x1b[?25h"
BOLD, PLAIN = "\x1b[1m", "\x1b[0m"
GAP = "    "  # between the two QR codes
INDENT = "   "
MAX_PROBLEMS = 6  # lines of the boot file's problems on the screen: the rest are in `doctor`


def add_parser(commands: Any) -> None:
    welcome = commands.add_parser("welcome", help="the table screen for the Pi's HDMI console: the page's address, "
                                                  "QR codes, and the hotspot's name and password")
    welcome.add_argument("--tty", action="store_true",
                         help="full screen on a console (tty1): clear it and draw again on each change")
    welcome.add_argument("--reach", default=str(REACH_FILE), metavar="FILE",
                         help=f"how phones reach the Pi, written by the image's network script (default {REACH_FILE})")
    welcome.add_argument("--config", help=f"the companion's config, as for run: default ${CONFIG_VARIABLE}, then "
                                          f"{SYSTEM_CONFIG} if it exists (the web port, the .local name, "
                                          "[table] locale)")
    welcome.add_argument("--problems", default=str(PROBLEMS_FILE), metavar="FILE",
                         help=f"what first-boot found wrong in the boot file, shown on the screen (default "
                              f"{PROBLEMS_FILE})")
    welcome.add_argument("--once", action="store_true", help="draw the screen once and exit")
    welcome.set_defaults(command=_welcome)


@dataclass(frozen=True)
class Where:
    """What the screen shows: the page's port and .local name, the addresses, and the reach file's news."""

    port: int
    name: str
    addresses: tuple[str, ...]
    reach: Reach | None
    problems: tuple[str, ...] = ()  # the boot file's, as first-boot wrote them (English)


@dataclass(frozen=True)
class Settings:
    port: int = 8000
    name: str | None = None
    locale: str = DEFAULT


def _welcome(args: argparse.Namespace) -> int:
    settings = load_settings(args.config)
    reach_path, problems_path = Path(args.reach), Path(args.problems)

    def look() -> Where:
        return where(settings, reach_path, phone_addresses, problems_path)

    if args.once:
        sys.stdout.write(screen(look(), settings.locale, tty=args.tty, size=_terminal_size()))
        sys.stdout.flush()
        return 0
    stop = threading.Event()
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: stop.set())
    follow(look, lambda shown: _draw(shown, settings.locale, args.tty), stop)
    if args.tty:
        sys.stdout.write(SHOW_CURSOR)
    return 0


def load_settings(given: str | None) -> Settings:
    """The port, .local name and table locale from the config; its defaults when it cannot be read.

    The screen must come up even with a broken config: ``doctor`` says what is wrong with it.
    """
    from hardware.hardware_config import HardwareConfig, load_hardware_config

    chosen = find_config(given, os.environ)
    path = chosen.path if chosen else None
    try:
        config = load_hardware_config(path)
    except ClueError:
        config = HardwareConfig()
    try:
        locale = TableSettings.load(path).locale or DEFAULT
    except ClueError:
        locale = DEFAULT
    try:
        mdns_name(config.web_name)
        name = config.web_name
    except ValueError:
        name = None
    return Settings(config.web_port, name, locale)


def where(settings: Settings, reach_path: Path, addresses: Callable[[], list[str]],
          problems_path: Path | None = None) -> Where:
    """The screen's facts now: the reach file's addresses first (the script knows its network), else the Pi's."""
    reach = read_reach(reach_path)
    try:
        found = list(reach.addresses) if reach and reach.addresses else addresses()
    except OSError:
        found = []
    return Where(settings.port, mdns_name(settings.name), tuple(found[:3]), reach, boot_problems(problems_path))


def boot_problems(path: Path | None) -> tuple[str, ...]:
    """The messages of first-boot's problems file (at most 6, each cut to a line); () when none or unreadable."""
    if path is None:
        return ()
    try:
        with path.open("rb") as handle:
            listed = json.loads(handle.read(64 * 1024))["problems"]
        return tuple(str(problem["message"])[:160] for problem in listed[:MAX_PROBLEMS])
    except (OSError, ValueError, KeyError, TypeError):
        return ()


def follow(look: Callable[[], Where], draw: Callable[[Where], None], stop: threading.Event,
           every: float = REFRESH_SECONDS) -> None:
    """Draw what ``look`` finds, and again each time it changes, until ``stop`` is set."""
    shown: Where | None = None
    while True:
        now = look()
        if now != shown:
            draw(now)
            shown = now
        if stop.wait(every):
            return


def _draw(shown: Where, locale: str, tty: bool) -> None:
    sys.stdout.write(screen(shown, locale, tty=tty, size=_terminal_size()))
    sys.stdout.flush()


def screen(shown: Where, locale: str, *, tty: bool = False, size: tuple[int, int] = (80, 60)) -> str:
    """The whole screen as text for a terminal of ``size`` (columns, lines); with ``tty``: cleared first, the
    cursor hidden, the addresses in bold. The large address is left out where it does not fit."""
    width, height = size
    _ = translations(parse_locale(locale).language).gettext
    bold, plain = (BOLD, PLAIN) if tty else ("", "")
    urls = [f"http://{address}:{shown.port}/" for address in shown.addresses] + [f"http://{shown.name}:{shown.port}/"]
    lines = [f"{bold}{_('CLUE companion')}{plain}", ""]
    reach = shown.reach
    hotspot = reach is not None and reach.hotspot
    if hotspot and reach is not None:
        lines += [_("1. Join the table's Wi-Fi (scan the code on the right, or type):"),
                  f"   {_('Name:')} {bold}{reach.ssid or '?'}{plain}",
                  f"   {_('Password:')} {bold}{reach.password or '?'}{plain}", "",
                  _("2. Then open the table's page (the code on the left):")]
    else:
        lines.append(_("Open the table's page on a phone or tablet (scan the code):"))
    lines += [f"   {bold}{url}{plain}" for url in urls]
    big_at = len(lines)
    lines += ["", _("The host sets up the game at {address}").format(address=f"{urls[0]}host"), ""]
    if not shown.addresses:
        lines += [_("No network yet: waiting for the Wi-Fi or the hotspot…"), ""]
    if shown.problems:
        lines += [f"{bold}{_('The settings file on the card has a problem (the last good settings are used):')}"
                  f"{plain}", *(f"   - {problem}" for problem in shown.problems), ""]
    codes = [_qr(urls[0])]
    wifi = reach.wifi_qr() if reach is not None else None
    if wifi is not None:
        codes.append(_qr(wifi))
    lines += side_by_side(codes)
    if shown.addresses:  # the first address again, large enough to read across the table, if the screen has room
        big = largest(f"{shown.addresses[0]}:{shown.port}", width - len(INDENT))
        if big and len(lines) + len(big) + 1 < height:
            lines[big_at:big_at] = ["", *(INDENT + row for row in big)]
    text = "\n".join(lines) + "\n"
    return f"{CLEAR}{HIDE_CURSOR}{text}" if tty else text


def _qr(text: str) -> list[str]:
    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue().rstrip("\n").split("\n")


def side_by_side(codes: Sequence[list[str]]) -> list[str]:
    """QR codes drawn next to each other, row by row (the shorter padded with its own light rows)."""
    height = max(len(code) for code in codes)
    padded = [code + [code[0]] * (height - len(code)) for code in codes]
    return [GAP.join(row) for row in zip(*padded)]


def _terminal_size() -> tuple[int, int]:
    """The console's columns and lines (tty1's own; 80x24 when standard output is not a terminal)."""
    columns, lines = shutil.get_terminal_size()
    return columns, lines
