"""``clue-companion first-boot``: a family edits clue-companion.toml on the card's boot partition, the Pi applies it.

Every path is under tmp_path: the boot partition, /etc's config, /run's files and the Pi's ID.
"""

from __future__ import annotations

import json
import stat
import tomllib
from pathlib import Path

import pytest

from companion.cli.hotspot import ALPHABET, PASSWORD_LENGTH, hotspot_ssid
from companion.cli.main import main

REPO = Path(__file__).resolve().parents[3]
BOOT_TEMPLATE = REPO / "tools/pi/boot/clue-companion.toml"
CONFIG_TEMPLATE = REPO / "tools/pi/clue-companion.toml"
SERIAL = b"10000000b83c3c1b\0"  # as /proc/device-tree/serial-number holds it


class Pi:
    """A Pi's files under a temporary root, and its boot."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.boot = root / "boot/firmware/clue-companion.toml"
        self.config = root / "etc/clue-companion.toml"
        self.network = root / "run/clue-companion/network.json"
        self.problems = root / "run/clue-companion/first-boot-problems.json"
        self.serial = root / "proc/device-tree/serial-number"
        for path in (self.boot, self.config, self.network, self.serial):
            path.parent.mkdir(parents=True, exist_ok=True)
        self.serial.write_bytes(SERIAL)

    def family_writes(self, text: str, *, windows: bool = False) -> None:
        """The boot file as saved by an editor (on Windows: CRLF line ends and a byte-order mark)."""
        data = text.replace("\n", "\r\n").encode("utf-8") if windows else text.encode("utf-8")
        self.boot.write_bytes((b"\xef\xbb\xbf" if windows else b"") + data)

    def starts(self, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
        code = main(["first-boot", "--boot-file", str(self.boot), "--config", str(self.config),
                     "--network-json", str(self.network), "--problems", str(self.problems),
                     "--config-template", str(CONFIG_TEMPLATE), "--identity", str(self.serial)])
        return code, capsys.readouterr().err

    def network_settings(self) -> dict[str, object]:
        found: dict[str, object] = json.loads(self.network.read_text())
        return found

    def hotspot_password(self) -> str:
        hotspot = self.network_settings()["hotspot"]
        assert isinstance(hotspot, dict)
        return str(hotspot["password"])

    def problem_keys(self) -> list[str]:
        return [problem["key"] for problem in json.loads(self.problems.read_text())["problems"]]


@pytest.fixture
def pi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Pi:
    monkeypatch.setenv("CLUE_COMPANION_EDITIONS", str(tmp_path / "editions"))  # not the config's /var/lib
    return Pi(tmp_path)


def edited(**values: str) -> str:
    """The shipped boot file with some values filled in, as a family would: ``wifi_name="Home"``."""
    text = BOOT_TEMPLATE.read_text(encoding="utf-8")
    section = ""
    lines = []
    for line in text.splitlines():
        if line.startswith("["):
            section = line.strip("[]")
        key = line.partition(" = ")[0]
        wanted = values.get(f"{section}_{key}")
        lines.append(f'{key} = "{wanted}"' if wanted is not None and " = " in line else line)
    return "\n".join(lines) + "\n"


HOME = {"wifi_name": "Home 2.4", "wifi_password": "correct horse", "wifi_country": "gb",
        "companion_pin": "204868", "companion_language": "de", "companion_edition": "Classic CLUE"}


def test_a_family_on_windows_fills_in_the_file_and_the_pi_joins_their_wifi(pi: Pi,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    pi.family_writes(edited(**HOME), windows=True)
    code, err = pi.starts(capsys)
    assert (code, err) == (0, "")
    settings = pi.network_settings()
    assert settings["wifi"] == {"ssid": "Home 2.4", "password": "correct horse", "country": "GB"}
    assert settings["hotspot"] == {"ssid": hotspot_ssid(SERIAL.strip(b"\0")), "password": pi.hotspot_password()}
    assert stat.S_IMODE(pi.network.stat().st_mode) == 0o600  # it holds the Wi-Fi password
    config = pi.config.read_text()
    assert 'pin = "204868"' in config and '[table]\nlocale = "de-DE"\nedition = "classic"\n' in config
    assert stat.S_IMODE(pi.config.stat().st_mode) == 0o640
    assert not pi.problems.exists()


def test_the_pi_fills_in_a_hotspot_password_and_keeps_the_familys_file_as_they_wrote_it(
        pi: Pi, capsys: pytest.CaptureFixture[str]) -> None:
    pi.family_writes(edited(**HOME).replace("[wifi]", "[wifi]\n# Grandma's router, in the hall"), windows=True)
    before = pi.boot.read_bytes()
    pi.starts(capsys)
    password = pi.hotspot_password()
    assert len(password) >= 10 and set(password) <= set(ALPHABET) and len(password) == PASSWORD_LENGTH
    after = pi.boot.read_bytes()
    # Only the password's value changed: the BOM, the CRLF line ends and every comment are as the family left them.
    assert after == before.replace(b'[hotspot]\r\n', b'[hotspot]\r\n', 1).replace(
        b'password = ""\r\n\r\n[companion]', f'password = "{password}"\r\n\r\n[companion]'.encode())
    assert b"# Grandma's router, in the hall\r\n" in after


def test_a_second_boot_keeps_the_hotspot_password_and_writes_nothing(pi: Pi,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    pi.family_writes(edited(**HOME))
    pi.starts(capsys)
    files = (pi.boot, pi.config, pi.network)
    first = {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in files}
    assert pi.starts(capsys) == (0, "")
    assert {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in files} == first


def test_without_a_wifi_name_the_pi_opens_its_hotspot(pi: Pi, capsys: pytest.CaptureFixture[str]) -> None:
    pi.family_writes(BOOT_TEMPLATE.read_text())  # the file as shipped
    assert pi.starts(capsys) == (0, "")
    settings = pi.network_settings()
    assert settings["wifi"] is None
    assert settings["hotspot"] == {"ssid": hotspot_ssid(b"10000000b83c3c1b"), "password": pi.hotspot_password()}
    assert hotspot_ssid(b"10000000b83c3c1b").startswith("CLUE-") and len(hotspot_ssid(b"1")) == 9


def test_another_pi_gets_another_hotspot_name_and_the_same_pi_the_same() -> None:
    assert hotspot_ssid(b"10000000b83c3c1b") == hotspot_ssid(b"10000000b83c3c1b")
    assert hotspot_ssid(b"10000000b83c3c1b") != hotspot_ssid(b"10000000d00dfeed")


def test_a_pin_of_five_digits_keeps_the_last_good_pin_and_says_why(pi: Pi,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    pi.family_writes(edited(**HOME))
    pi.starts(capsys)
    pi.family_writes(edited(**{**HOME, "companion_pin": "20486", "companion_language": "fr-FR"}))
    code, err = pi.starts(capsys)
    assert code == 0
    assert err == f"clue-companion first-boot: {pi.boot}: companion.pin: The host PIN must be 6 to 12 digits.\n"
    assert "20486" not in err.replace(str(pi.boot), "")  # never the PIN itself: standard error is the journal
    config = pi.config.read_text()
    assert 'pin = "204868"' in config and 'locale = "fr-FR"' in config  # the good setting still applies
    assert pi.problem_keys() == ["companion.pin"]
    assert pi.network_settings()["wifi"] is not None


def test_once_the_file_is_right_again_the_problems_are_gone(pi: Pi, capsys: pytest.CaptureFixture[str]) -> None:
    pi.family_writes(edited(**{**HOME, "companion_edition": "Monopoly"}))
    pi.starts(capsys)
    assert pi.problem_keys() == ["companion.edition"]
    pi.family_writes(edited(**HOME))
    assert pi.starts(capsys) == (0, "")
    assert not pi.problems.exists()


@pytest.mark.parametrize(("changes", "key"), [
    ({"wifi_password": "short12"}, "wifi.password"),  # 7 characters: WPA2 refuses it
    ({"wifi_password": "x" * 64}, "wifi.password"),
    ({"wifi_password": "mot de passé"}, "wifi.password"),
    ({"wifi_country": "Germany"}, "wifi.country"),
    ({"companion_language": "Klingon"}, "companion.language"),
    ({"companion_edition": "Monopoly"}, "companion.edition"),
    ({"hotspot_password": "1234"}, "hotspot.password"),
])
def test_each_wrong_setting_is_named_and_the_pi_still_opens_its_hotspot(
        pi: Pi, capsys: pytest.CaptureFixture[str], changes: dict[str, str], key: str) -> None:
    pi.family_writes(edited(**{**HOME, **changes}))
    code, err = pi.starts(capsys)
    assert code == 0 and err.count("\n") == 1 and f": {key}" in err
    assert pi.problem_keys() == [key]
    assert pi.network_settings()["hotspot"]["password"]  # type: ignore[index]


def test_a_wrong_wifi_password_leaves_the_wifi_out_but_the_rest_applies(
        pi: Pi, capsys: pytest.CaptureFixture[str]) -> None:
    pi.family_writes(edited(**{**HOME, "wifi_password": "short12"}))
    pi.starts(capsys)
    assert pi.network_settings()["wifi"] is None
    assert 'pin = "204868"' in pi.config.read_text()


def test_a_number_without_quotes_is_a_clear_problem_not_a_crash(pi: Pi, capsys: pytest.CaptureFixture[str]) -> None:
    pi.family_writes(edited(**HOME).replace('pin = "204868"', "pin = 204868"))
    code, err = pi.starts(capsys)
    assert code == 0 and "companion.pin must be text in double quotes" in err


def test_a_file_that_is_not_toml_keeps_everything_as_it_was(pi: Pi, capsys: pytest.CaptureFixture[str]) -> None:
    pi.family_writes(edited(**HOME))
    pi.starts(capsys)
    config, password = pi.config.read_bytes(), pi.hotspot_password()
    pi.family_writes(edited(**HOME).replace('name = "Home 2.4"', "name = Home 2.4"))  # the quotes forgotten
    broken = pi.boot.read_bytes()
    code, err = pi.starts(capsys)
    assert code == 0 and "it is not valid TOML" in err and "every value needs quotes" in err
    assert pi.config.read_bytes() == config and pi.boot.read_bytes() == broken
    assert pi.network_settings() == {"wifi": None, "hotspot": {"ssid": hotspot_ssid(b"10000000b83c3c1b"),
                                                               "password": password}}  # phones still get in
    assert pi.problem_keys() == ["file"]


def test_a_file_saved_in_an_old_windows_encoding_is_a_problem_not_a_crash(
        pi: Pi, capsys: pytest.CaptureFixture[str]) -> None:
    pi.boot.write_bytes(edited(**{**HOME, "wifi_name": "Café"}).encode("cp1252"))
    code, err = pi.starts(capsys)
    assert code == 0 and "not UTF-8 text" in err and "save it as UTF-8" in err
    assert pi.network_settings()["wifi"] is None


def test_no_boot_file_still_opens_the_hotspot(pi: Pi, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = pi.starts(capsys)
    assert code == 0 and "there is no such file" in err
    assert len(pi.hotspot_password()) == PASSWORD_LENGTH
    assert not pi.boot.exists()


def test_a_missing_config_is_made_from_the_template_and_only_the_settings_are_added(
        pi: Pi, capsys: pytest.CaptureFixture[str]) -> None:
    pi.family_writes(edited(**HOME))
    pi.starts(capsys)
    shipped = CONFIG_TEMPLATE.read_text().splitlines(keepends=True)
    written = pi.config.read_text().splitlines(keepends=True)
    added = [line for line in written if line not in shipped]
    assert added == ['pin = "204868"\n', "[table]\n", 'locale = "de-DE"\n', 'edition = "classic"\n']
    assert [line for line in written if line in shipped] == shipped + ["\n"]  # nothing removed or moved


def test_an_existing_config_keeps_every_other_byte_and_its_mode(pi: Pi, capsys: pytest.CaptureFixture[str]) -> None:
    mine = ('# my board\r\n[board]\r\nport = "/dev/clue-board"\r\n\r\n[web]\r\nport = 8080  # moved\r\n'
            'pin = "999999"  # old\r\n')
    pi.config.write_bytes(mine.encode())
    pi.config.chmod(0o640)
    pi.family_writes(edited(**HOME))
    pi.starts(capsys)
    assert pi.config.read_bytes() == mine.replace('"999999"', '"204868"').encode() + \
        b'\r\n[table]\r\nlocale = "de-DE"\r\nedition = "classic"\r\n'
    assert stat.S_IMODE(pi.config.stat().st_mode) == 0o640


def test_emptying_a_setting_gives_it_back_to_the_companion(pi: Pi, capsys: pytest.CaptureFixture[str]) -> None:
    pi.family_writes(edited(**HOME))
    pi.starts(capsys)
    pi.family_writes(edited(**{**HOME, "companion_pin": "", "companion_edition": ""}))
    pi.starts(capsys)
    config = tomllib.loads(pi.config.read_text())
    assert "pin" not in config["web"] and config["table"] == {"locale": "de-DE"}


def test_a_config_written_in_a_way_the_edit_cannot_follow_is_left_alone(
        pi: Pi, capsys: pytest.CaptureFixture[str]) -> None:
    mine = 'web = { port = 8000 }\n'
    pi.config.write_text(mine)
    pi.family_writes(edited(**HOME))
    code, err = pi.starts(capsys)
    assert code == 0 and f"cannot update {pi.config}" in err
    assert pi.config.read_text() == mine
    assert pi.problem_keys() == ["config"]


def test_the_command_without_its_files_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as leaving:
        main(["first-boot", "--config", "c.toml"])
    assert leaving.value.code == 2
    assert "--boot-file" in capsys.readouterr().err
