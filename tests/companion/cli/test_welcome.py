"""``clue-companion welcome``: the TV at the table shows where the page is, and the hotspot to join first."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
import segno

from companion.cli.big_digits import big_text
from companion.cli.main import main
from companion.cli.welcome import Settings, Where, follow, screen, where
from web.reach_file import Reach, read_reach, wifi_qr_text

HOTSPOT = {"mode": "hotspot", "ssid": "CLUE-3F2A", "password": "k7mpq9xz2wvb", "addresses": ["10.42.0.1"]}


def modules(lines: list[str]) -> list[list[bool]]:
    """A QR code drawn with half blocks, back to its modules (True: dark), quiet zone included."""
    halves = {" ": (True, True), "\u2580": (False, True), "\u2584": (True, False), "\u2588": (False, False)}
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [halves[char] for char in line]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    return rows


def qr_codes(text: str) -> list[list[list[bool]]]:
    """Each QR code on the screen (side by side, four spaces apart; their first rows are all quiet zone)."""
    blocks = set(" \u2580\u2584\u2588")
    drawn = [line for line in text.splitlines() if line.startswith(("\u2588", "\u2580")) and set(line) <= blocks]
    widths = [len(part) for part in drawn[0].split("    ")]
    codes = []
    start = 0
    for width in widths:
        codes.append(modules([line[start:start + width] for line in drawn]))
        start += width + 4
    return codes


def encodes(code: list[list[bool]], text: str) -> bool:
    expected = [[bool(module) for module in row] for row in segno.make(text, error="m").matrix]
    size = len(expected)
    inner = [row[4:4 + size] for row in code[4:4 + size]]  # past the quiet zone of 4 modules
    return inner == expected


def write_reach(tmp_path: Path, content: object) -> Path:
    path = tmp_path / "reach.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def test_on_the_hotspot_the_tv_shows_its_name_password_and_a_wifi_code(tmp_path: Path) -> None:
    shown = where(Settings(), write_reach(tmp_path, HOTSPOT), lambda: ["192.168.9.9"])
    text = screen(shown, "en-US")
    assert "Name: CLUE-3F2A" in text and "Password: k7mpq9xz2wvb" in text
    assert "http://10.42.0.1:8000/" in text and "http://clue.local:8000/" in text  # the script's address first
    assert "\n".join(big_text("10.42.0.1:8000", 1) or ["missing"]) in "\n".join(line[3:] for line in text.splitlines())
    page, wifi = qr_codes(text)
    assert encodes(page, "http://10.42.0.1:8000/")
    assert encodes(wifi, "WIFI:T:WPA;S:CLUE-3F2A;P:k7mpq9xz2wvb;;")


def test_on_the_home_wifi_the_tv_shows_the_page_and_no_password(tmp_path: Path) -> None:
    reach = write_reach(tmp_path, {"mode": "wifi", "ssid": "Home", "password": "our secret", "addresses": ["192.168.1.7"]})
    text = screen(where(Settings(port=8080, name="kitchen"), reach, lambda: []), "en-US")
    assert "our secret" not in text and "Password" not in text
    assert "http://192.168.1.7:8080/" in text and "http://kitchen.local:8080/" in text
    (page,) = qr_codes(text)
    assert encodes(page, "http://192.168.1.7:8080/")


@pytest.mark.parametrize("content", ["", "{not json", "[]", json.dumps({"mode": "carrier pigeon"}), "x" * 20_000,
                                     json.dumps({**HOTSPOT, "addresses": "10.42.0.1"}), None])
def test_a_missing_or_bad_reach_file_falls_back_to_the_pis_addresses(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "reach.json" if content is None else write_reach(tmp_path, content)
    shown = where(Settings(), path, lambda: ["192.168.1.7"])
    if shown.reach is None:
        assert shown.addresses == ("192.168.1.7",)
    text = screen(shown, "en-US")
    assert "http://192.168.1.7:8000/" in text or "http://10.42.0.1:8000/" in text


def test_without_any_network_the_tv_says_it_is_waiting(tmp_path: Path) -> None:
    text = screen(where(Settings(), tmp_path / "none.json", lambda: []), "en-US")
    assert "No network yet" in text and "http://clue.local:8000/" in text


def test_the_tv_speaks_the_tables_language(tmp_path: Path) -> None:
    text = screen(where(Settings(), write_reach(tmp_path, HOTSPOT), lambda: []), "de-DE")
    assert text.startswith("Cluedo-Begleiter\n")


def test_the_screen_is_drawn_again_when_the_pi_moves_to_its_hotspot() -> None:
    seen = [Where(8000, "clue.local", (), None), Where(8000, "clue.local", (), None),
            Where(8000, "clue.local", ("10.42.0.1",), Reach("hotspot", "CLUE-3F2A", "k7mpq9xz2wvb", ("10.42.0.1",)))]
    drawn: list[Where] = []
    stop = threading.Event()

    def look() -> Where:
        if len(seen) == 1:
            stop.set()
        return seen.pop(0) if len(seen) > 1 else seen[0]

    follow(look, drawn.append, stop, every=0.001)
    assert [shown.addresses for shown in drawn] == [(), ("10.42.0.1",)]  # the unchanged look drew nothing


def test_welcome_once_reads_the_port_and_name_from_the_config(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "clue-companion.toml"
    config.write_text('[web]\nport = 8123\nname = "parlour"\n')
    code = main(["welcome", "--once", "--problems", str(tmp_path / "no-problems.json"), "--config", str(config), "--reach", str(write_reach(tmp_path, HOTSPOT))])
    out = capsys.readouterr().out
    assert code == 0
    assert "http://10.42.0.1:8123/" in out and "http://parlour.local:8123/" in out
    assert "CLUE-3F2A" in out and "\x1b" not in out  # plain text without --tty


def test_welcome_speaks_the_language_first_boot_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "clue-companion.toml"
    config.write_text('[table]\nlocale = "fr-FR"\n')
    assert main(["welcome", "--once", "--problems", str(tmp_path / "no-problems.json"), "--config", str(config), "--reach", str(tmp_path / "none.json")]) == 0
    assert capsys.readouterr().out.startswith("Compagnon Cluedo\n")


def test_welcome_tty_clears_the_screen_and_hides_the_cursor(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["welcome", "--once", "--problems", str(tmp_path / "no-problems.json"), "--tty", "--config", str(tmp_path / "none.toml"), "--reach", str(tmp_path / "no.json")])
    assert capsys.readouterr().out.startswith("\x1b[H\x1b[2J\x1b[3J\x1b[?25l")


@pytest.mark.parametrize(("ssid", "password", "text"), [
    ("CLUE-3F2A", "k7mpq9xz2wvb", "WIFI:T:WPA;S:CLUE-3F2A;P:k7mpq9xz2wvb;;"),
    ('Bob;s "net"', "a:b,c\\d;e", 'WIFI:T:WPA;S:Bob\\;s \\"net\\";P:a\\:b\\,c\\\\d\\;e;;'),
])
def test_the_wifi_code_escapes_what_the_format_reserves(ssid: str, password: str, text: str) -> None:
    assert wifi_qr_text(ssid, password) == text


def test_the_reach_file_never_gives_a_password_on_the_home_wifi(tmp_path: Path) -> None:
    found = read_reach(write_reach(tmp_path, {"mode": "wifi", "ssid": "Home", "password": "our secret"}))
    assert found is not None and found.password is None and found.wifi_qr() is None


def test_on_a_cable_the_tv_shows_the_scripts_address_and_no_wifi(tmp_path: Path) -> None:
    reach = write_reach(tmp_path, {"mode": "wired", "ssid": "", "addresses": ["192.168.1.40"]})
    text = screen(where(Settings(), reach, lambda: ["10.9.9.9"]), "en-US")
    assert "http://192.168.1.40:8000/" in text and "10.9.9.9" not in text and "Password" not in text


def test_the_tv_says_what_was_wrong_with_the_cards_settings_file(tmp_path: Path) -> None:
    problems = tmp_path / "first-boot-problems.json"
    problems.write_text(json.dumps({"boot_file": "/boot/firmware/clue-companion.toml", "problems": [
        {"key": "companion.pin", "message": "companion.pin: The host PIN must be 6 to 12 digits."}]}))
    text = screen(where(Settings(), write_reach(tmp_path, HOTSPOT), lambda: [], problems), "en-US")
    assert "The settings file on the card has a problem" in text
    assert "   - companion.pin: The host PIN must be 6 to 12 digits." in text
    assert "problem" not in screen(where(Settings(), write_reach(tmp_path, HOTSPOT), lambda: [], tmp_path / "none"),
                                   "en-US")


def test_the_large_address_is_left_out_where_the_screen_is_too_short(tmp_path: Path) -> None:
    shown = where(Settings(), write_reach(tmp_path, HOTSPOT), lambda: [])
    tall, short = screen(shown, "en-US", size=(120, 60)), screen(shown, "en-US", size=(120, 33))
    assert len(short.splitlines()) <= 33 < len(tall.splitlines()) <= 60
    assert "Password: k7mpq9xz2wvb" in short and len(qr_codes(short)) == 2
