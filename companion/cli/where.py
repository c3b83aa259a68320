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

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.table.store import default_path
from hardware.hardware_config import HardwareConfig, load_hardware_config

CONFIG_VARIABLE = "CLUE_COMPANION_CONFIG"
STORE_VARIABLE = "CLUE_COMPANION_DB"
SYSTEM_CONFIG = Path("/etc/clue-companion.toml")  # what the installer writes and the service reads
PIN_FILE = "host-pin"  # beside the store: the host PIN of a companion started without a terminal


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

    ``system`` stands for :data:`SYSTEM_CONFIG` (tests put a temporary root in its place).

    >>> find_config(None, {"CLUE_COMPANION_CONFIG": "/tmp/a.toml"}).source
    'from $CLUE_COMPANION_CONFIG'
    """
    if given:
        return Chosen(Path(given), "from --config")
    if environ.get(CONFIG_VARIABLE):
        return Chosen(Path(environ[CONFIG_VARIABLE]), f"from ${CONFIG_VARIABLE}")
    # The mock table on a Pi must not pick up the real table's wiring and store.
    system = SYSTEM_CONFIG if system is None else system
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
