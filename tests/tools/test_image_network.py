"""The image's network script (tools/pi/image/clue-network) against a stand-in nmcli, ip and iw:
which network it chooses and the reach.json it writes. The real NetworkManager is exercised by
tools/test-image-qemu.sh (wired only: qemu has no Wi-Fi); real radios are not tested here."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "pi" / "image" / "clue-network"

# nmcli: a Wi-Fi device when FAKE_WIFI=yes; `connection up clue-wifi` succeeds when FAKE_JOIN=ok;
# every call logged. ip: one address on eth0 or wlan0.
NMCLI = """#!/bin/bash
echo "nmcli $*" >>"$FAKE_LOG"
case "$*" in
    *"device status"*) echo "lo:loopback"; echo "eth0:ethernet"; [[ $FAKE_WIFI == yes ]] && echo "wlan0:wifi" ;;
    *"connection up clue-wifi"*) [[ $FAKE_JOIN == ok ]]; exit ;;
    *"connection show"*) exit 10 ;;
esac
exit 0
"""
IP = """#!/bin/bash
echo "2: eth0    inet 192.168.1.50/24 brd 192.168.1.255 scope global dynamic eth0"
"""
IW = """#!/bin/bash
echo "iw $*" >>"$FAKE_LOG"
"""


def run(tmp_path: Path, network: dict[str, Any] | None, *, wifi: bool, join: bool = False) -> tuple[dict[str, Any], str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, text in (("nmcli", NMCLI), ("ip", IP), ("iw", IW)):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    network_json = tmp_path / "network.json"
    if network is not None:
        network_json.write_text(json.dumps(network))
    log = tmp_path / "calls.log"
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "FAKE_LOG": str(log),
           "FAKE_WIFI": "yes" if wifi else "no", "FAKE_JOIN": "ok" if join else "fail",
           "CLUE_NETWORK_JSON": str(network_json), "CLUE_REACH_JSON": str(tmp_path / "run" / "reach.json"),
           "CLUE_WIFI_SECONDS": "1", "CLUE_WIFI_RETRY_SECONDS": "0.2", "CLUE_HOTSPOT_SECONDS": "1", "CLUE_WIRED_SECONDS": "1"}
    done = subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    reach = json.loads((tmp_path / "run" / "reach.json").read_text())
    return reach, log.read_text() if log.exists() else ""


HOTSPOT = {"ssid": "CLUE-7F3A", "password": "kettle-lamp-42"}


def test_without_a_wifi_device_the_wired_address_is_the_reach(tmp_path: Path) -> None:
    reach, calls = run(tmp_path, {"wifi": None, "hotspot": HOTSPOT}, wifi=False)
    assert reach == {"mode": "wired", "ssid": "", "addresses": ["192.168.1.50"]}
    assert "connection up" not in calls


def test_with_no_wifi_named_the_hotspot_opens_with_the_boot_files_name_and_password(tmp_path: Path) -> None:
    reach, calls = run(tmp_path, {"wifi": None, "hotspot": HOTSPOT}, wifi=True)
    assert reach == {"mode": "hotspot", "ssid": "CLUE-7F3A", "password": "kettle-lamp-42",
                     "addresses": ["192.168.1.50"]}
    assert "802-11-wireless.mode ap" in calls and "wifi-sec.proto rsn" in calls
    assert "connection up clue-hotspot" in calls


def test_the_named_wifi_is_joined_in_its_country(tmp_path: Path) -> None:
    wifi = {"ssid": "Home net", "password": "secret words", "country": "DE"}
    reach, calls = run(tmp_path, {"wifi": wifi, "hotspot": HOTSPOT}, wifi=True, join=True)
    assert reach == {"mode": "wifi", "ssid": "Home net", "addresses": ["192.168.1.50"]}
    assert "iw reg set DE" in calls
    assert "ssid Home net wifi-sec.key-mgmt wpa-psk wifi-sec.psk secret words" in calls
    assert "clue-hotspot" not in calls


def test_a_wifi_out_of_reach_falls_back_to_the_hotspot_in_bounded_time(tmp_path: Path) -> None:
    wifi = {"ssid": "Home net", "password": "secret words", "country": ""}
    reach, calls = run(tmp_path, {"wifi": wifi, "hotspot": HOTSPOT}, wifi=True, join=False)
    assert reach["mode"] == "hotspot" and reach["ssid"] == "CLUE-7F3A"
    assert "connection up clue-wifi" in calls and "iw reg" not in calls


@pytest.mark.parametrize("network", [None, {"wifi": None, "hotspot": {"ssid": "", "password": "short"}}])
def test_without_a_usable_network_json_the_hotspot_still_opens(tmp_path: Path, network: dict[str, Any] | None) -> None:
    reach, calls = run(tmp_path, network, wifi=True)
    assert reach["mode"] == "hotspot" and reach["ssid"].startswith("CLUE-")
    assert len(reach["password"]) >= 8
    assert "connection up clue-hotspot" in calls
