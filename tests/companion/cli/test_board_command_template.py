"""`clue-companion board EDITION --template FILE`: the 1:1 antenna template a maker prints."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.cli.main import main

NS = {"svg": "http://www.w3.org/2000/svg"}


def outlines(path: Path, role: str) -> list[str]:
    root = ET.parse(path).getroot()
    return [rect.get("data-name", "") for rect in root.iterfind(".//svg:rect", NS) if rect.get("class") == role]


def test_the_template_of_the_default_layout_at_the_board_s_square_size(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "antennas.svg"
    assert main(["board", "classic", "--template", str(out), "--square-mm", "20"]) == 0
    assert capsys.readouterr().out == f"wrote {out}\n"
    root = ET.parse(out).getroot()
    assert root.get("width") == f"{2 * 15 + 24 * 20}mm"
    assert len(outlines(out, "antenna")) == 23  # 22 room antennas and the centre pad; seat pads are off the board
    assert outlines(out, "door-antenna") == []


def test_the_template_of_a_config_s_zones_and_of_every_door(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text('[zones]\n29 = "door:l19"\n30 = "room:Hall"\n', encoding="utf-8")
    mine, every = tmp_path / "mine.svg", tmp_path / "every.svg"
    assert main(["board", "classic", "--template", str(mine), "--config", str(config)]) == 0
    assert outlines(mine, "door-antenna") == ["29"]
    assert "30" in outlines(mine, "antenna")
    assert main(["board", "classic", "--template", str(every), "--all-doors"]) == 0
    assert len(outlines(every, "door-antenna")) == 17  # Classic has 17 door squares
    assert "e8" in outlines(every, "reach")  # in front of the Kitchen's door


@pytest.mark.parametrize(("args", "message"), [
    (["--template", "{out}", "--square-mm", "2"], "a square of 2 mm; expected 5 to 60 mm"),
    (["--all-doors"], "--config and --all-doors go with --template FILE"),
    (["--template", "{out}", "--config", "{missing}"], "no such hardware config file"),
    (["--template", "{dir}"], "cannot write"),
])
def test_bad_template_requests_are_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  args: list[str], message: str) -> None:
    places = {"out": str(tmp_path / "t.svg"), "missing": str(tmp_path / "none.toml"), "dir": str(tmp_path)}
    assert main(["board", "classic", *(arg.format(**places) for arg in args)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
