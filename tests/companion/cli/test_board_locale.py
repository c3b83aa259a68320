"""`clue-companion board EDITION --svg/--png FILE --locale TAG`: the board drawn in a locale's names."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from io import BytesIO
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.rules.drawing import initials
from companion.rules.spelling import spelled

NS = {"svg": "http://www.w3.org/2000/svg"}


def texts(path: Path, role: str) -> dict[str, str]:
    """The drawing's texts of one kind: the place each stands for -> what it says."""
    root = ET.parse(path).getroot()
    return {node.get("data-name", ""): node.text or "" for node in root.iterfind(".//svg:text", NS)
            if node.get("class") == role}


def test_a_german_board_names_its_rooms_in_german(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg, png = tmp_path / "brett.svg", tmp_path / "brett.png"
    assert main(["board", "classic", "--svg", str(svg), "--png", str(png), "--locale", "de-DE"]) == 0
    assert capsys.readouterr().out == f"wrote {svg}\nwrote {png}\n"
    rooms = texts(svg, "room-name")
    assert {rooms["Kitchen"], rooms["Lounge"], rooms["Study"]} == {"Küche", "Salon", "Arbeitszimmer"}
    assert rooms == {room: name for room, name in spelled("classic", "de-DE").items() if room in rooms}
    assert not {"Kitchen", "Lounge", "Study", "Dining Room"} & set(rooms.values())
    german = spelled("classic", "de-DE")
    starts = texts(svg, "start-label")  # each start square's letters, from the German names ("FW": Frau Weiß)
    assert starts == {suspect: initials(german[suspect]) for suspect in starts}
    assert starts["Mrs. White"] == "FW"

    from PIL import Image

    picture = Image.open(BytesIO(png.read_bytes()))
    assert picture.format == "PNG" and picture.size[0] > 500


def test_a_box_variant_names_the_start_squares_its_way(tmp_path: Path) -> None:
    svg = tmp_path / "1990s.svg"
    assert main(["board", "classic", "--svg", str(svg), "--locale", "de-DE", "--names", "1990s"]) == 0
    nineties = spelled("classic", "de-DE", variant="1990s")
    assert texts(svg, "start-label")["Mr. Green"] == initials(nineties["Mr. Green"])  # Reverend Grün: "RG"
    assert nineties["Mr. Green"] != spelled("classic", "de-DE")["Mr. Green"]


def test_without_a_locale_the_board_keeps_its_printed_names(tmp_path: Path) -> None:
    svg = tmp_path / "board.svg"
    assert main(["board", "classic", "--svg", str(svg)]) == 0
    assert texts(svg, "room-name")["Kitchen"] == "Kitchen"
    swiss = tmp_path / "swiss.svg"
    assert main(["board", "classic", "--svg", str(swiss), "--locale", "fr-CH"]) == 0
    assert texts(swiss, "room-name")["Kitchen"] == spelled("classic", "fr-CH")["Kitchen"] != "Kitchen"


@pytest.mark.parametrize("args, said", [
    (["--locale", "xx-YY", "--svg", "{out}"], "unknown locale 'xx-YY'; known: en-US"),
    (["--locale", "de-DE"], "--locale and --names go with --svg FILE or --png FILE"),
    (["--locale", "es-ES", "--names", "1990s", "--svg", "{out}"], "unknown box of names '1990s' for es-ES"),
])
def test_a_bad_locale_is_a_clear_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                         said: str) -> None:
    out = tmp_path / "board.svg"
    assert main(["board", "classic", *(arg.format(out=out) for arg in args)]) == 2
    error = capsys.readouterr().err
    assert said in error and "Traceback" not in error
    assert not out.exists()
