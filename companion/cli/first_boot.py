"""``clue-companion first-boot``: apply the boot partition's clue-companion.toml, at every boot, as root.

The family edits one file on the card's FAT partition (docs/first-boot.md). This
command reads it and writes:

- the companion's settings into its config (``[web] pin``, ``[table] locale`` and
  ``[table] edition``; every other byte of that file kept), made from the Pi's
  config template when missing;
- the network's settings as JSON for the image's network script:
  ``{"wifi": {"ssid", "password", "country"} or null, "hotspot": {"ssid", "password"}}``;
- a generated hotspot password back into the boot file when it has none (the
  family's comments and other lines kept);
- the problems found, as JSON, where ``doctor`` looks (removed when there are none).

A bad boot file never stops the Pi: the hotspot is still written, each setting that is
wrong keeps its last good value, every problem is said on standard error, and the exit
status is 0. Only bad usage exits 2, and a network file that cannot be written 1.
Running it again with the same file changes nothing.
"""

from __future__ import annotations

import argparse
import grp
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.language import parse_locale
from companion.rules.errors import ClueError

from .boot_file import BOM, MAX_BYTES, PASSPHRASE, BootSettings, Checks, Problem, parse_boot_file, read_text
from .hotspot import IDENTITY_FILES, hotspot_ssid, machine_identity, new_password
from .safe_files import read_bounded, sync_directory, write_atomically
from .toml_lines import EditError, set_string

PROBLEMS_FILE = Path("/run/clue-companion/first-boot-problems.json")
# The installed copy's template (install-pi.sh keeps the source in /opt/clue-companion/src), else the checkout's.
TEMPLATES = (Path("/opt/clue-companion/src/tools/pi/clue-companion.toml"),
             Path(__file__).resolve().parents[2] / "tools" / "pi" / "clue-companion.toml")
CONFIG_GROUP = "clue"  # install-pi.sh: 0640 root:clue, so the service reads it and the PIN stays private
# Which config key each companion setting of the boot file sets.
CONFIG_KEYS = {"pin": ("web", "pin"), "locale": ("table", "locale"), "edition": ("table", "edition")}


def add_parser(commands: Any) -> None:
    command = commands.add_parser(
        "first-boot", help="apply the boot partition's clue-companion.toml (the image runs it at every boot, as root)")
    command.add_argument("--boot-file", required=True, metavar="FILE",
                         help="the family's file on the boot partition, e.g. /boot/firmware/clue-companion.toml")
    command.add_argument("--config", required=True, metavar="FILE",
                         help="the companion's config to update, e.g. /etc/clue-companion.toml")
    command.add_argument("--network-json", required=True, metavar="FILE",
                         help="where to write the Wi-Fi and hotspot settings for the network script (mode 0600)")
    command.add_argument("--problems", default=str(PROBLEMS_FILE), metavar="FILE",
                         help=f"where to write the problems found, as JSON (default {PROBLEMS_FILE})")
    command.add_argument("--config-template", metavar="FILE",
                         help="the config to start from when --config is missing (default: the installed "
                              "tools/pi/clue-companion.toml)")
    command.add_argument("--identity", action="append", metavar="FILE",
                         help="files holding this Pi's ID, first readable wins; the hotspot's name comes from it "
                              f"(default {' then '.join(map(str, IDENTITY_FILES))})")
    command.set_defaults(command=_first_boot)


@dataclass(frozen=True)
class Paths:
    boot_file: Path
    config: Path
    network: Path
    problems: Path
    templates: tuple[Path, ...] = TEMPLATES
    identity: tuple[Path, ...] = IDENTITY_FILES


def _first_boot(args: argparse.Namespace) -> int:
    paths = Paths(Path(args.boot_file), Path(args.config), Path(args.network_json), Path(args.problems),
                  (Path(args.config_template),) if args.config_template else TEMPLATES,
                  tuple(map(Path, args.identity)) if args.identity else IDENTITY_FILES)
    return first_boot(paths)


def first_boot(paths: Paths) -> int:
    """Apply the boot file; say what was done on standard output and each problem on standard error."""
    settings, text, bom = _read_boot_file(paths.boot_file)
    problems = list(settings.problems)
    previous = _previous_hotspot(paths.network)
    ssid = hotspot_ssid(machine_identity(paths.identity))
    password = settings.hotspot_password or _hotspot_password(paths.boot_file, (text, bom), settings, previous,
                                                              problems)
    problems += _apply_to_config(paths, settings.companion)
    network = {"wifi": None if settings.wifi is None else
               {"ssid": settings.wifi.ssid, "password": settings.wifi.password, "country": settings.wifi.country},
               "hotspot": {"ssid": ssid, "password": password}}
    try:
        _write_if_changed(paths.network, (json.dumps(network, indent=2, ensure_ascii=False) + "\n").encode(), 0o600)
    except OSError as err:
        print(f"clue-companion first-boot: cannot write {paths.network}: {err.strerror or err}", file=sys.stderr)
        return 1
    _report(paths, problems)
    wifi = f"Wi-Fi {settings.wifi.ssid!r}, else " if settings.wifi else ""
    print(f"clue-companion first-boot: {wifi}hotspot {ssid}; settings from {paths.boot_file}"
          + (f" ({len(problems)} problem{'s' if len(problems) != 1 else ''})" if problems else ""))
    return 0


def _checks() -> Checks:
    from web.guard import pin_problem  # the web page's rule for the host PIN, which run applies to [web] pin

    def locale(text: str) -> str | None:
        try:
            return parse_locale(text).tag
        except ClueError:
            return None

    return Checks(pin_problem=pin_problem, edition_id=_edition_id, locale_tag=locale)


def _edition_id(text: str) -> str | None:
    """The id of the edition ``text`` names (its id or name, any case), among those a game may use; None if none."""
    from companion.rules.user_editions import list_editions

    wanted = text.strip().casefold()
    return next((entry.id for entry in list_editions() if entry.problem is None
                 and wanted in (entry.id.casefold(), entry.name.casefold())), None)


def _read_boot_file(path: Path) -> tuple[BootSettings, str | None, bool]:
    """The boot file's settings, its text (None when it could not be read) and whether it began with a BOM."""
    try:
        data = read_bounded(path, MAX_BYTES)
        text = read_text(data)
    except FileNotFoundError:
        return BootSettings(problems=(Problem("file", "there is no such file: the hotspot opens; put "
                                                      "clue-companion.toml on the card's boot partition"),)), None, False
    except OSError as err:
        return BootSettings(problems=(Problem("file", f"cannot read it: {err.strerror or err}"),)), None, False
    except ValueError as err:
        return BootSettings(problems=(Problem("file", str(err)),)), None, False
    return parse_boot_file(text, _checks()), text, data.startswith(BOM.encode())


def _previous_hotspot(network: Path) -> str | None:
    """The hotspot password the last boot used (so phones that joined it still can), if usable."""
    try:
        found = json.loads(read_bounded(network, 16 * 1024))["hotspot"]["password"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    fewest, most = PASSPHRASE
    return found if isinstance(found, str) and fewest <= len(found) <= most else None


def _hotspot_password(boot_file: Path, read: tuple[str | None, bool], settings: BootSettings,
                      previous: str | None, problems: list[Problem]) -> str:
    """A file without a usable password: a new one written into it; where it cannot be, the last boot's."""
    text, bom = read
    if text is None or settings.hotspot_problem or any(problem.key == "file" for problem in settings.problems):
        return previous or new_password()
    password = new_password()
    try:
        edited = set_string(text, "hotspot", "password", password)
        write_atomically(boot_file, ((BOM if bom else "") + edited).encode("utf-8"), 0o644)
    except (OSError, ValueError) as err:
        problems.append(Problem("hotspot.password", f"could not write the new hotspot password into the file: "
                                                    f"{getattr(err, 'strerror', None) or err}; the table screen "
                                                    "shows it"))
        return previous or password
    return password


def _apply_to_config(paths: Paths, companion: dict[str, str]) -> list[Problem]:
    """Write the companion's settings into the config (only when one changes); the problems met."""
    try:
        existed = paths.config.exists()
        text = read_bounded(paths.config).decode("utf-8") if existed else _template(paths.templates)
    except (OSError, ValueError) as err:
        return [Problem("config", f"cannot read {paths.config}: {getattr(err, 'strerror', None) or err}; the "
                                  "companion's settings were not changed")]
    edited = text
    try:
        for setting, value in companion.items():
            table, key = CONFIG_KEYS[setting]
            edited = set_string(edited, table, key, value or None)
    except EditError as err:
        return [Problem("config", f"cannot update {paths.config}: {err}; the companion's settings were not "
                                  "changed")]
    if existed and edited == text:
        return []
    try:
        owner = _owner(paths.config) if existed else _new_owner()
        write_atomically(paths.config, edited.encode("utf-8"), 0o640, owner)
    except OSError as err:
        return [Problem("config", f"cannot write {paths.config}: {err.strerror or err}; the companion's "
                                  "settings were not changed")]
    return []


def _template(templates: tuple[Path, ...]) -> str:
    for path in templates:
        try:
            return read_bounded(path).decode("utf-8")
        except (OSError, ValueError):
            continue
    return "# clue-companion on this Pi (docs/first-boot.md); made by first-boot, which found no template\n"


def _owner(path: Path) -> tuple[int, int]:
    found = path.stat()
    return found.st_uid, found.st_gid


def _new_owner() -> tuple[int, int] | None:
    """root:clue for a new config when running as root and the group exists; else the writer's own."""
    if os.geteuid() != 0:
        return None
    try:
        return 0, grp.getgrnam(CONFIG_GROUP).gr_gid
    except KeyError:
        return None


def _write_if_changed(path: Path, data: bytes, mode: int) -> None:
    """Write ``path`` unless it holds ``data`` already with ``mode`` (no needless writes to the card)."""
    try:
        if read_bounded(path) == data and path.stat().st_mode & 0o777 == mode:
            return
    except (OSError, ValueError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, data, mode)


def _report(paths: Paths, problems: list[Problem]) -> None:
    """Each problem on standard error, and all of them in the problems file (removed when there are none)."""
    for problem in problems:
        where = "" if problem.key == "config" else f"{paths.boot_file}: "
        print(f"clue-companion first-boot: {where}{problem.message}", file=sys.stderr)
    try:
        if not problems:
            if paths.problems.exists():
                paths.problems.unlink()
                sync_directory(paths.problems.parent)
            return
        document = {"boot_file": str(paths.boot_file), "problems": [problem.as_dict() for problem in problems]}
        _write_if_changed(paths.problems, (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode(), 0o644)
    except OSError as err:
        print(f"clue-companion first-boot: cannot write {paths.problems}: {err.strerror or err}", file=sys.stderr)
