"""Board pictures (SVG and PNG) and the ``clue-companion board`` command.

The drawings are checked as data: the SVG parsed as XML and its elements
counted by class, the PNG opened with Pillow. The command is run in-process.
"""

from __future__ import annotations

import dataclasses
import sys
import xml.etree.ElementTree as ET
from importlib import resources
from io import BytesIO
from pathlib import Path

import pytest

from companion.cli import board as board_command
from companion.cli import main as cli
from companion.rules.board import Board, Legend, read_map
from companion.rules.drawing import (DrawingError, Layout, board_drawing, board_png, board_png_bytes, board_svg,
                                     initials, place_centre, position, room_colours, to_png_bytes, to_svg)
from companion.rules.edition import Edition, load_edition
from companion.rules.errors import ClueError, EditionError

SVG = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def classic() -> Edition:
    return load_edition("classic")


@pytest.fixture(scope="module")
def svg(classic: Edition) -> ET.Element:
    return ET.fromstring(board_svg(classic))


def by_class(root: ET.Element, role: str) -> list[ET.Element]:
    return [element for element in root.iter() if element.get("class") == role]


def texts(root: ET.Element, role: str | None = None) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}text") if role is None or element.get("class") == role]


# A small map with what Classic lacks: marks, spots, a start room, a join, awkward names.
SMALL_LEGEND = Legend(
    rooms={"A": "Tom & Jerry's <Den>", "B": "Bar", "C": "Cloakroom"},
    marks={"s": "snoop", "?": "bonus"},
    spots={"*": "Basement Stairs", "+": "Garden Walk"},
    start_room="Cloakroom",
    passages=(("Basement Stairs", "Garden Walk"), ("Tom & Jerry's <Den>", "Bar")),
    joins=(("Bar", "Cloakroom"),),
)
SMALL_MAP = """\
# edition: none (a test map)
AAa.s*
AAA.?.
#.+..#
BBbCcC
BBBCCC
"""


@pytest.fixture(scope="module")
def small() -> Board:
    return read_map("small.txt", SMALL_LEGEND, text=SMALL_MAP)


@pytest.fixture(scope="module")
def small_svg(small: Board) -> ET.Element:
    return ET.fromstring(to_svg(board_drawing("Small & <odd>", small)))


# The SVG of Classic


def test_the_svg_is_xml_sized_by_the_layout(svg: ET.Element, classic: Edition) -> None:
    assert svg.tag == f"{SVG}svg"
    width, height = Layout().size(classic.require_board())
    assert (svg.get("width"), svg.get("height")) == (str(width), str(height))


def test_the_svg_has_the_edition_name_as_title(svg: ET.Element) -> None:
    assert svg.findtext(f"{SVG}title") == "Classic CLUE"
    assert texts(svg, "title") == ["Classic CLUE"]


def test_every_room_is_named_once(svg: ET.Element, classic: Edition) -> None:
    assert sorted(texts(svg, "room-name")) == sorted(classic.require_board().rooms)


def test_every_hallway_square_is_labelled_with_its_name(svg: ET.Element, classic: Edition) -> None:
    board = classic.require_board()
    assert sorted(texts(svg, "square-name")) == sorted(board.squares)
    assert len(by_class(svg, "hallway")) == len(board.squares) == 188


def test_one_cell_per_grid_square(svg: ET.Element, classic: Edition) -> None:
    board = classic.require_board()
    cells = by_class(svg, "hallway") + by_class(svg, "room") + by_class(svg, "void")
    assert len(cells) == board.width * board.height


def test_one_door_marker_per_door_cell(svg: ET.Element, classic: Edition) -> None:
    board = classic.require_board()
    assert sorted(element.get("data-name", "") for element in by_class(svg, "door")) == sorted(board.door_cells)
    assert len(board.door_cells) == 17


def test_door_bars_face_the_hallway_squares_they_open_onto(svg: ET.Element, classic: Edition) -> None:
    board = classic.require_board()
    bars = [element.get("data-name") for element in by_class(svg, "door-edge")]
    # A door opening onto two squares (the Lounge's g20 onto g19 and h20) has two bars.
    assert bars.count("g20") == 2 and bars.count("e7") == 1
    assert len(bars) == sum(len(squares) for squares in board.exits.values())


def test_secret_passages_are_dashed_lines(svg: ET.Element, classic: Edition) -> None:
    lines = by_class(svg, "passage")
    assert len(lines) == len(classic.require_board().passage_pairs) == 2
    assert all(line.tag == f"{SVG}line" and line.get("stroke-dasharray") for line in lines)
    assert {line.get("data-name") for line in lines} == {"Kitchen - Study", "Conservatory - Lounge"}
    assert by_class(svg, "join") == []


def test_start_squares_show_the_suspects_initials(svg: ET.Element) -> None:
    assert sorted(texts(svg, "start-label")) == ["CM", "MG", "MP", "MS", "MW", "PP"]
    assert len(by_class(svg, "start")) == 6


def test_columns_along_the_top_and_rows_down_the_side(svg: ET.Element) -> None:
    assert texts(svg, "column") == list("abcdefghijklmnopqrstuvwx")
    assert texts(svg, "row") == [str(n) for n in range(1, 26)]


def test_each_room_has_its_own_pale_colour(classic: Edition) -> None:
    colours = room_colours(classic.require_board())
    assert len(set(colours.values())) == 9
    assert all(sum(int(c[i:i + 2], 16) for i in (1, 3, 5)) > 3 * 170 for c in colours.values())


def test_a_room_label_falls_inside_the_room(classic: Edition) -> None:
    board = classic.require_board()
    layout = Layout()
    for room in board.rooms:
        x, y = place_centre(board, room, layout)
        row, col = int((y - layout.top) // layout.cell), int((x - layout.left) // layout.cell)
        assert board.cells.get(f"{'abcdefghijklmnopqrstuvwxyz'[col]}{row + 1}") == room, room


def test_layout_maps_square_names_to_boxes() -> None:
    layout = Layout(cell=10, left=5, top=7)
    assert layout.box("a1") == (5, 7, 10, 10)
    assert layout.box("c2") == (25, 17, 10, 10)
    assert layout.centre("h25") == (80, 252)
    assert position("h25") == (24, 7)


def test_initials() -> None:
    assert initials("Miss Scarlet") == "MS"
    assert initials("Mrs. White") == "MW"
    assert initials("Monsieur Brunette") == "MB"


def test_an_edition_without_a_board_is_a_clear_error(classic: Edition) -> None:
    boardless = dataclasses.replace(classic, board=None)
    with pytest.raises(EditionError, match="no board map"):
        board_svg(boardless)


# Marks, spots, start room, joins and escaping, on a small map


def test_marks_are_drawn_by_kind(small_svg: ET.Element, small: Board) -> None:
    assert sorted(texts(small_svg, "mark-label")) == ["?", "S"]
    assert sorted(e.get("data-name", "") for e in by_class(small_svg, "mark")) == ["bonus", "snoop"]
    assert sorted(small.marks.values()) == ["bonus", "snoop"]


def test_spots_are_labelled_and_passages_reach_their_squares(small_svg: ET.Element, small: Board) -> None:
    assert sorted(texts(small_svg, "spot-label")) == ["Basement Stairs", "Garden Walk"]
    stairs = next(e for e in by_class(small_svg, "passage") if e.get("data-name") == "Basement Stairs - Garden Walk")
    ends = [(float(stairs.get(f"x{n}", "")), float(stairs.get(f"y{n}", ""))) for n in (1, 2)]
    assert ends == [Layout().centre("f1"), Layout().centre("c3")]
    assert len(by_class(small_svg, "passage")) == 2


def test_the_start_room_and_joins(small_svg: ET.Element) -> None:
    assert texts(small_svg, "start-room") == ["(start)"]
    joins = by_class(small_svg, "join")
    assert [e.get("data-name") for e in joins] == ["Bar - Cloakroom"]
    assert not joins[0].get("stroke-dasharray")


def test_text_is_escaped(small: Board) -> None:
    text = to_svg(board_drawing("Small & <odd>", small))
    assert "Tom &amp; Jerry's &lt;Den&gt;" in text and "<Den>" not in text
    root = ET.fromstring(text)
    assert root.findtext(f"{SVG}title") == "Small & <odd>"
    assert "Tom & Jerry's <Den>" in texts(root, "room-name")


# PNG


def test_the_png_matches_the_svg_size_and_is_not_blank(classic: Edition) -> None:
    from PIL import Image

    data = board_png_bytes(classic)
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(BytesIO(data))
    assert image.size == Layout().size(classic.require_board())
    assert len(image.getcolors(maxcolors=1 << 16) or []) > 2


def test_the_png_scales(small: Board) -> None:
    from PIL import Image

    drawing = board_drawing("Small", small)
    image = Image.open(BytesIO(to_png_bytes(drawing, scale=2)))
    assert image.size == (drawing.width * 2, drawing.height * 2)


def test_board_png_writes_a_file(classic: Edition, tmp_path: Path) -> None:
    path = tmp_path / "classic.png"
    board_png(classic, str(path))
    assert path.read_bytes().startswith(PNG_SIGNATURE)


def test_a_png_without_pillow_says_how_to_get_it(small: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)  # makes "from PIL import ..." raise ImportError
    with pytest.raises(DrawingError, match="pip install pillow") as caught:
        to_png_bytes(board_drawing("Small", small))
    assert isinstance(caught.value, ClueError)


# The command


def main(argv: list[str]) -> int:
    """``clue-companion`` itself."""
    return cli.main(argv)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    """Exit code, lines printed and standard error."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_board_summarises_an_edition(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(capsys, "board", "classic")
    assert code == 0
    assert lines[0] == "Classic CLUE (classic): 24x25 grid, 188 hallway squares, 9 rooms, 17 doors"
    assert "  Kitchen: 1 door (e7) onto e8" in lines
    assert "  Lounge: 1 door (g20) onto g19, h20" in lines
    assert "  passages: Kitchen - Study, Conservatory - Lounge" in lines
    assert "  joins: none" in lines and "  marks: none" in lines
    assert any(line.startswith("  start squares: ") and "Miss Scarlet h25" in line for line in lines)


def test_board_writes_svg_and_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg, png = tmp_path / "b.svg", tmp_path / "b.png"
    code, lines, _ = run(capsys, "board", "Classic", "--svg", str(svg), "--png", str(png))
    assert code == 0
    assert lines == [f"wrote {svg}", f"wrote {png}"]
    assert ET.parse(svg).getroot().tag == f"{SVG}svg"
    assert png.read_bytes().startswith(PNG_SIGNATURE)


def test_board_cannot_write_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "board", "classic", "--svg", str(tmp_path / "no" / "such" / "b.svg"))
    assert code == 2
    assert err.startswith("clue-companion: cannot write ")


def test_board_of_an_unknown_edition(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "board", "monopoly")
    assert code == 2 and "unknown edition 'monopoly'" in err


# board check

CLASSIC = resources.files("companion.rules.editions").joinpath("classic.txt").read_text(encoding="utf-8")
FIRST_ROW = 17  # classic.txt: 16 comment lines, then the 25 rows


def broken(tmp_path: Path, changes: dict[int, str], header: bool = True) -> Path:
    """classic.txt with lines replaced (numbered as in classic.txt), optionally behind an edition header."""
    lines = CLASSIC.splitlines()
    for number, line in changes.items():
        lines[number - 1] = line
    path = tmp_path / "edited.txt"
    path.write_text(("# edition: classic\n" if header else "") + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def line(number: int) -> str:
    return CLASSIC.splitlines()[number - 1]


def test_the_bundled_classic_map_is_sound(capsys: pytest.CaptureFixture[str]) -> None:
    assert line(FIRST_ROW) == "#########3####4#########"
    path = str(resources.files("companion.rules.editions").joinpath("classic.txt"))
    code, lines, _ = run(capsys, "board", "check", path, "--edition", "classic")
    assert (code, lines) == (0, [f"{path}: ok, 188 hallway squares, 9 rooms"])


def test_the_edition_may_come_from_a_header_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = broken(tmp_path, {})
    code, lines, _ = run(capsys, "board", "check", str(path))
    assert (code, lines) == (0, [f"{path}: ok, 188 hallway squares, 9 rooms"])


def test_without_header_or_edition_check_asks_for_edition(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = broken(tmp_path, {}, header=False)
    code, _, err = run(capsys, "board", "check", str(path))
    assert code == 2 and "--edition" in err


def test_a_missing_map_file_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, lines, err = run(capsys, "board", "check", str(tmp_path / "gone.txt"), "--edition", "classic")
    assert (code, lines) == (2, [])
    assert err.startswith(f"clue-companion: cannot read {tmp_path / 'gone.txt'}")


def test_a_ragged_row(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = broken(tmp_path, {18: line(18)[:-1]})  # 23 squares wide
    code, lines, _ = run(capsys, "board", "check", str(path))
    assert code == 1
    # Line 19 of the edited file (the header comes first), column 24: the missing square.
    assert lines == [f"{path}:19:24: row is 23 squares wide, expected 24 like the first row", f"{path}: 1 problem"]


def test_an_unknown_character(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    row = line(20)
    path = broken(tmp_path, {20: row[:12] + "?" + row[13:]}, header=False)
    code, lines, _ = run(capsys, "board", "check", str(path), "--edition", "classic")
    assert code == 1
    assert lines[0].startswith(f"{path}:20:13: unknown character '?' at m4")
    assert lines[-1] == f"{path}: 1 problem"


def test_a_door_onto_the_void(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # The Kitchen's door e7 (line 23) opens onto e8 (line 24); make e8 void.
    assert line(23)[4] == "k" and line(24)[4] == "."
    row = line(24)
    path = broken(tmp_path, {24: row[:4] + "#" + row[5:]})
    code, lines, _ = run(capsys, "board", "check", str(path))
    assert code == 1
    assert lines == [f"{path}:24:5: door e7 of the Kitchen opens onto no hallway square", f"{path}: 1 problem"]


def test_a_missing_start_square(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert line(41)[7] == "1"
    path = broken(tmp_path, {41: line(41).replace("1", "#")})
    code, lines, _ = run(capsys, "board", "check", str(path))
    assert code == 1
    assert lines == [f"{path}: no start square '1' for Miss Scarlet on the map", f"{path}: 1 problem"]


def test_a_second_start_square(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert line(24)[0] == "."
    path = broken(tmp_path, {24: "1" + line(24)[1:]})
    code, lines, _ = run(capsys, "board", "check", str(path))
    assert code == 1
    # a8 now comes first in reading order, so h25 (line 41 + header) is the second.
    assert lines[0] == f"{path}:42:8: a second start square for Miss Scarlet ('1')"


def test_every_problem_is_listed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    row = line(24)
    path = broken(tmp_path, {24: row[:4] + "#" + row[5:], 41: line(41).replace("1", "#")})
    code, lines, _ = run(capsys, "board", "check", str(path))
    assert code == 1
    assert lines[-1] == f"{path}: 2 problems"
    assert lines[0].startswith(f"{path}:24:5: ")


def test_check_takes_an_edition_toml_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    toml = (resources.files("companion.rules.editions").joinpath("classic.toml").read_text(encoding="utf-8"))
    (tmp_path / "mine.toml").write_text(toml, encoding="utf-8")
    path = broken(tmp_path, {}, header=False)
    code, lines, _ = run(capsys, "board", "check", str(path), "--edition", str(tmp_path / "mine.toml"))
    assert code == 0 and lines[0].endswith("ok, 188 hallway squares, 9 rooms")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["board", "check"], "needs a MAPFILE"),
        (["board", "check", "x.txt", "--svg", "x.svg"], "does not draw"),
        (["board", "classic", "extra.txt"], "go with board check"),
        (["board", "check", "x.txt", "--edition", "classic"], "cannot read x.txt"),
    ],
)
def test_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str], says: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and says in err


def test_check_with_an_unknown_edition(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = broken(tmp_path, {}, header=False)
    code, _, err = run(capsys, "board", "check", str(path), "--edition", "monopoly")
    assert code == 2 and "unknown edition 'monopoly'" in err


def test_check_with_an_edition_without_a_board(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    toml = resources.files("companion.rules.editions").joinpath("classic.toml").read_text(encoding="utf-8")
    (tmp_path / "bare.toml").write_text(toml[:toml.index("[board]")], encoding="utf-8")
    path = broken(tmp_path, {}, header=False)
    code, _, err = run(capsys, "board", "check", str(path), "--edition", str(tmp_path / "bare.toml"))
    assert code == 2 and "no [board] table" in err
