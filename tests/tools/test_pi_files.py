"""The files the Pi installer ships (tools/pi/) agree with the code and with each other.

tools/check-pi-files.sh verifies the unit with systemd and the scripts with shellcheck;
these checks need neither.
"""

from __future__ import annotations

import configparser
import re
import subprocess
from pathlib import Path

from hardware.board_link import PICO_VID
from hardware.hardware_config import EXAMPLE_CONFIG, load_hardware_config

ROOT = Path(__file__).resolve().parents[2]
PI = ROOT / "tools" / "pi"
STORE = "/var/lib/clue-companion/companion.db"


def _service() -> configparser.SectionProxy:
    # strict=False: systemd allows a key to repeat (Environment=, DeviceAllow=); the last one wins here.
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(PI / "clue-companion.service", encoding="utf-8")
    return parser["Service"]


def _service_lines(key: str) -> list[str]:
    text = (PI / "clue-companion.service").read_text(encoding="utf-8")
    return re.findall(rf"^{key}=(.*)$", text, flags=re.MULTILINE)


def test_the_shipped_config_loads_and_names_the_service_store() -> None:
    config = load_hardware_config(PI / "clue-companion.toml")
    assert str(config.store) == STORE
    assert config.board_port is None  # the board is found by its USB ID
    assert config.web_port == 8000


def test_the_shipped_config_wires_the_handhelds_as_the_example_does() -> None:
    shipped = load_hardware_config(PI / "clue-companion.toml")
    example = load_hardware_config(EXAMPLE_CONFIG)
    assert shipped.handhelds == example.handhelds
    assert shipped.zones == example.zones


def test_the_example_config_leaves_the_board_port_out() -> None:
    assert load_hardware_config(EXAMPLE_CONFIG).board_port is None


def test_the_unit_runs_the_installed_command_from_the_config() -> None:
    service = _service()
    assert service["ExecStart"] == "/opt/clue-companion/venv/bin/clue-companion run --no-console --log-json"
    environment = _service_lines("Environment")
    assert "CLUE_COMPANION_CONFIG=/etc/clue-companion.toml" in environment
    assert not any("CLUE_COMPANION_DB" in line for line in environment)
    assert service["User"] == "clue"
    assert service["SupplementaryGroups"].split() == ["dialout", "gpio", "i2c", "spi"]
    assert service["StateDirectory"] == "clue-companion"
    assert service["StateDirectoryMode"] == "0700"


def test_the_unit_writes_only_its_state_directory_and_opens_only_its_devices() -> None:
    service = _service()
    assert service["ProtectSystem"] == "strict"
    assert "ReadWritePaths" not in service  # StateDirectory= is the one writable place
    assert service["NoNewPrivileges"] == "yes"
    assert service["DevicePolicy"] == "closed"
    assert sorted(_service_lines("DeviceAllow")) == ["char-gpiochip rw", "char-i2c rw", "char-spi rw",
                                                     "char-ttyACM rw"]
    assert set(service["RestrictAddressFamilies"].split()) == {"AF_UNIX", "AF_INET", "AF_INET6", "AF_NETLINK"}
    # lgpio makes its notification pipes in the working directory: it must be writable.
    assert service["WorkingDirectory"] == "/var/lib/clue-companion"


def test_the_installer_loads_the_drivers_the_unit_allows() -> None:
    # DeviceAllow=char-NAME is looked up in /proc/devices when the service starts.
    installer = (PI.parent / "install-pi.sh").read_text(encoding="utf-8")
    modules = re.search(r"^readonly BOOT_MODULES=\(([^)]*)\)$", installer, flags=re.MULTILINE)
    assert modules and set(modules.group(1).split()) == {"cdc_acm", "i2c-dev", "spidev"}


def test_the_udev_rule_names_the_board_by_the_vendor_id_the_link_looks_for() -> None:
    rules = [line for line in (PI / "99-clue-board.rules").read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#")]
    assert len(rules) == 1
    vendor = re.search(r'ATTRS\{idVendor\}=="([0-9a-f]{4})"', rules[0])
    assert vendor and int(vendor.group(1), 16) == PICO_VID
    assert 'SYMLINK+="clue-board"' in rules[0]
    assert 'GROUP="dialout"' in rules[0] and 'MODE="0660"' in rules[0]


def test_the_kiosk_starts_the_installed_launcher() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(PI / "clue-companion-kiosk.desktop", encoding="utf-8")
    assert entry["Desktop Entry"]["Exec"] == "/usr/local/bin/clue-companion-kiosk"
    assert "/usr/local/bin/clue-companion-kiosk" in (PI.parent / "install-pi.sh").read_text(encoding="utf-8")


def test_the_installer_explains_itself_without_root() -> None:
    done = subprocess.run(["bash", str(PI.parent / "install-pi.sh"), "--help"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert "--uninstall" in done.stdout and "--kiosk" in done.stdout
    bad = subprocess.run(["bash", str(PI.parent / "install-pi.sh"), "--frobnicate"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode != 0
    assert "unknown option: --frobnicate" in bad.stderr
