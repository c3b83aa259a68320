"""Which config file and which game store a command uses, and why: one rule for every command.

``run``, ``enroll``, ``doctor`` and the systemd service must agree, or tags are
enrolled into one store while the service plays from another. The store is
``--db`` > ``$CLUE_COMPANION_DB`` > the config's ``[store] path`` > the default
(``$XDG_DATA_HOME/clue-companion/companion.db``; ``run --mock`` keeps ``mock.db``
beside it). The config is ``--config`` > ``$CLUE_COMPANION_CONFIG`` >
``/etc/clue-companion.toml`` if it exists (not for ``run --mock``) > none.

>>> where = find_store(None, "/etc/clue-companion.toml", "/var/lib/clue-companion/companion.db", environ={})
>>> where.line()
'clue-companion: store /var/lib/clue-companion/companion.db (from /etc/clue-companion.toml [store] path)'
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.rules.errors import BadInput
from companion.table.store import default_path
from hardware.hardware_config import HardwareConfig, load_hardware_config

CONFIG_VARIABLE = "CLUE_COMPANION_CONFIG"
STORE_VARIABLE = "CLUE_COMPANION_DB"
SYSTEM_CONFIG = Path("/etc/clue-companion.toml")  # what the installer writes and the service reads
# Another place for it: the tests point it into their temporary home, so a Pi's own config never steers them.
SYSTEM_CONFIG_VARIABLE = "CLUE_COMPANION_SYSTEM_CONFIG"
PIN_FILE = "host-pin"  # beside the store: the host PIN of a companion started without a terminal
# One name for one thing across the commands: --port is always the web page's port, --serial the board's device.
SERIAL_HELP = ("the board's serial device or pyserial URL (default: the config's [board] port, then "
               "$CLUE_BOARD_PORT, then the first USB device with the Pico's vendor ID 0x2E8A)")
NOT_A_PORT = "--port is the web page's port (a number); the board's serial device is --serial {given}"


def web_port(text: str) -> int:
    """``--port``'s value: a number; a device path (the old meaning on some commands) names ``--serial``.

    >>> web_port("8080")
    8080
    >>> web_port("/dev/ttyACM0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: --port is the web page's port (a number); the board's serial device is --serial /dev/ttyACM0
    """
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(NOT_A_PORT.format(given=text)) from None


def checked_port(port: int | None) -> int | None:
    """``--port`` within 0 to 65535 (0: any free port), else a one-line usage error."""
    if port is not None and not 0 <= port <= 65535:
        raise BadInput(f"--port must be from 0 to 65535, not {port}")
    return port


def _no_web_port(text: str) -> str:
    raise argparse.ArgumentTypeError(NOT_A_PORT.format(given=text) if not text.isdigit() else
                                     "this command serves no web page: --port is for run and doctor")


def add_serial_option(parser: Any, help_text: str = SERIAL_HELP, *, refuse_port: bool = True) -> None:
    """``--serial DEVICE`` for the board; with ``refuse_port`` (a command without a web page) an old
    ``--port DEVICE`` is refused with a message naming ``--serial``, rather than accepted as before."""
    parser.add_argument("--serial", metavar="DEVICE", help=help_text)
    if refuse_port:
        parser.add_argument("--port", type=_no_web_port, help=argparse.SUPPRESS)


@dataclass(frozen=True)
class Chosen:
    """A path and the reason it was chosen, in words ("from $CLUE_COMPANION_DB")."""

    path: Path
    source: str

    def line(self, what: str = "store") -> str:
        """The line a command prints to say which one it uses."""
        return f"clue-companion: {what} {self.path} ({self.source})"


def find_config(given: str | None, environ: Mapping[str, str], *, mock: bool = False,
                system: Path | None = None) -> Chosen | None:
    """The hardware config file to read, or None for the defaults.

    ``system`` stands for :data:`SYSTEM_CONFIG`, or ``$CLUE_COMPANION_SYSTEM_CONFIG`` where set (tests put
    a temporary root in its place).

    >>> find_config(None, {"CLUE_COMPANION_CONFIG": "/tmp/a.toml"}).source
    'from $CLUE_COMPANION_CONFIG'
    >>> find_config(None, {"CLUE_COMPANION_SYSTEM_CONFIG": "/nowhere/clue-companion.toml"}) is None
    True
    """
    if given:
        return Chosen(Path(given), "from --config")
    if environ.get(CONFIG_VARIABLE):
        return Chosen(Path(environ[CONFIG_VARIABLE]), f"from ${CONFIG_VARIABLE}")
    # The mock table on a Pi must not pick up the real table's wiring and store.
    if system is None:
        system = Path(environ[SYSTEM_CONFIG_VARIABLE]) if environ.get(SYSTEM_CONFIG_VARIABLE) else SYSTEM_CONFIG
    if not mock and system.exists():
        return Chosen(system, "the system config")
    return None


def find_store(given: str | None, config: str | Path | None, config_store: str | None, *,
               environ: Mapping[str, str], mock: bool = False) -> Chosen:
    """The game store: ``given`` (--db), else the environment, else ``config_store`` (read from ``config``).

    >>> find_store(None, None, None, environ={"XDG_DATA_HOME": "/d"}, mock=True)
    Chosen(path=PosixPath('/d/clue-companion/mock.db'), source='the default for run --mock')
    """
    if given:
        return Chosen(Path(given), "from --db")
    if environ.get(STORE_VARIABLE):
        return Chosen(Path(environ[STORE_VARIABLE]), f"from ${STORE_VARIABLE}")
    if config_store:
        return Chosen(Path(config_store).expanduser(), f"from {config} [store] path")
    default = default_path(environ)
    if mock:  # the mock table keeps its games apart from a real table's on the same machine
        return Chosen(default.with_name("mock.db"), "the default for run --mock")
    return Chosen(default, "the default")


def resolve(given_config: str | None, given_db: str | None, environ: Mapping[str, str], *,
            mock: bool = False) -> tuple[Chosen | None, HardwareConfig, Chosen]:
    """The config file (if any), its settings, and the store: what every command starts from."""
    config = find_config(given_config, environ, mock=mock)
    settings = load_hardware_config(config.path if config else None)
    store = find_store(given_db, config.path if config else None, settings.store, environ=environ, mock=mock)
    return config, settings, store
