"""Which config and store every command uses: --db > $CLUE_COMPANION_DB > config [store] path > default."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli.where import Chosen, find_config, find_store, resolve
from companion.table.store import Store
from hardware.hardware_config import HardwareConfigError, load_hardware_config

ENV = {"XDG_DATA_HOME": "/data", "CLUE_COMPANION_DB": "/env/companion.db"}


@pytest.mark.parametrize("given, environ, config_store, mock, expected", [
    ("/cli.db", ENV, "/config.db", False, Chosen(Path("/cli.db"), "from --db")),
    (None, ENV, "/config.db", False, Chosen(Path("/env/companion.db"), "from $CLUE_COMPANION_DB")),
    (None, ENV, "/config.db", True, Chosen(Path("/env/companion.db"), "from $CLUE_COMPANION_DB")),
    (None, {"XDG_DATA_HOME": "/data"}, "/config.db", False, Chosen(Path("/config.db"), "from /c.toml [store] path")),
    (None, {"XDG_DATA_HOME": "/data"}, "/config.db", True, Chosen(Path("/config.db"), "from /c.toml [store] path")),
    (None, {"XDG_DATA_HOME": "/data"}, None, False, Chosen(Path("/data/clue-companion/companion.db"), "the default")),
    (None, {"XDG_DATA_HOME": "/data"}, None, True,
     Chosen(Path("/data/clue-companion/mock.db"), "the default for run --mock")),
])
def test_the_store_is_the_command_line_then_environment_then_config_then_default(given, environ, config_store, mock,
                                                                                  expected):
    assert find_store(given, "/c.toml", config_store, environ=environ, mock=mock) == expected


def test_a_config_store_path_may_start_with_a_tilde(monkeypatch):
    monkeypatch.setenv("HOME", "/home/clue")
    assert find_store(None, "/c.toml", "~/games.db", environ={}).path == Path("/home/clue/games.db")


def test_the_config_is_the_command_line_then_environment_then_the_system_file(tmp_path):
    system = tmp_path / "clue-companion.toml"
    env = {"CLUE_COMPANION_CONFIG": "/env.toml"}
    assert find_config("/cli.toml", env, system=system) == Chosen(Path("/cli.toml"), "from --config")
    assert find_config(None, env, system=system) == Chosen(Path("/env.toml"), "from $CLUE_COMPANION_CONFIG")
    assert find_config(None, {}, system=system) is None  # no system file
    system.write_text("")
    assert find_config(None, {}, system=system) == Chosen(system, "the system config")
    assert find_config(None, {}, system=system, mock=True) is None  # the mock table leaves the real one alone


def test_resolve_reads_the_store_from_the_config_and_says_so(tmp_path):
    config = tmp_path / "clue.toml"
    config.write_text(f'[store]\npath = "{tmp_path / "games.db"}"\n')
    config_at, settings, store = resolve(str(config), None, {"XDG_DATA_HOME": str(tmp_path / "data")})
    assert config_at == Chosen(config, "from --config") and settings.store == str(tmp_path / "games.db")
    assert store.line() == f"clue-companion: store {tmp_path / 'games.db'} (from {config} [store] path)"


def test_a_config_pin_is_text_and_a_bad_type_is_refused_without_repeating_it(tmp_path):
    config = tmp_path / "clue.toml"
    config.write_text('[web]\npin = "246813"\n')
    assert load_hardware_config(config).web_pin == "246813"
    config.write_text("[web]\npin = 719305\n")
    with pytest.raises(HardwareConfigError) as refused:
        load_hardware_config(config)
    assert "web.pin must be a quoted string of digits" in str(refused.value) and "719305" not in str(refused.value)


# ---- the host PIN's precedence in run: --pin > config > stored > new -----------------------------


def _pin_used(tmp_path: Path, *extra: str) -> str:
    """The PIN ``run --mock`` used, as it wrote it beside the store (no terminal here)."""
    (tmp_path / "script.txt").write_text("")
    env = {**os.environ, "CLUE_COMPANION_DB": str(tmp_path / "games.db")}
    env.pop("CLUE_COMPANION_CONFIG", None)
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--new", "--port", "0", "--host", "127.0.0.1",
         "--script", str(tmp_path / "script.txt"), "--exit-after-script", *extra],
        capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    pin = (tmp_path / "host-pin").read_text().strip()
    assert pin not in done.stdout + done.stderr  # never in the output or the log
    return pin


def test_the_host_pin_is_the_command_line_then_the_config_then_the_stored_one(tmp_path):
    with Store(tmp_path / "games.db") as store:
        store.set_setting("host_pin", "975310")
    assert _pin_used(tmp_path) == "975310"
    config = tmp_path / "clue.toml"
    config.write_text('[web]\npin = "864201"\n')
    assert _pin_used(tmp_path, "--config", str(config)) == "864201"
    assert _pin_used(tmp_path, "--config", str(config), "--pin", "531975") == "531975"
