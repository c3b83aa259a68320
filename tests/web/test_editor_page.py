"""The editor page (/host/editor) in Chromium, on a mock table, against the real editor API.

The host starts a blank 10 x 8 grid on the Classic rules, draws two rooms with a
door each and hallway between, a secret passage between them and three start
squares, names the edition's own cards (suspects Ada, Bo and Cy), sees the
problem list go empty and saves the edition ``test_board``. A new game opens on
it from the host page, and Ada's phone makes an illegal move (refused) and a
legal one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pages import wait_until
from PIL import Image, ImageDraw

from companion.cli.mock_table import MockTable
from companion.rules.edition import EDITIONS_VARIABLE, load_edition
from companion.table.store import Store
from web import create_app, editor_page
from web.serve import WebServer

PIN = "246813"
WIDTH, HEIGHT = 10, 8
# What the test draws, in the map's characters (A Attic, B Boiler Room; a and b their doors).
DRAWN = ["AAA....BBB",
         "AAA....BBB",
         "AAa....bBB",
         "..........",
         "..........",
         "...1.2.3..",
         "..........",
         ".........."]
SUSPECTS = ("Ada", "Bo", "Cy")
WEAPONS = ("Oar", "Pin")  # Classic rules put one weapon in each room: no more weapons than rooms
ROOMS = ("Attic", "Boiler Room")


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[MockTable, str, Path]]:
    """A mock table with the editor, saving into (and loading editions from) a fresh folder."""
    folder = tmp_path / "editions"
    monkeypatch.setenv(EDITIONS_VARIABLE, str(folder))
    with Store(tmp_path / "games.db").open() as store, MockTable(store) as rig:
        app = create_app(rig.session, {"HOST_PIN": PIN, "RIG": rig, "SIM": True, "KEEPALIVE": 0.5,
                                       "EDITIONS_DIR": str(folder)})
        if editor_page.blueprint.name not in app.blueprints:  # until web/__init__.py registers it
            app.register_blueprint(editor_page.blueprint)
        with WebServer(app, "127.0.0.1", 0) as server:
            yield rig, f"http://127.0.0.1:{server.port}", folder



def open_editor(browser: Any, url: str, **page_options: Any) -> tuple[Any, list[str]]:
    page = browser.new_page(**({"viewport": {"width": 1280, "height": 900}} | page_options))
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.goto(url + "/host/editor")
    page.fill("#pin", PIN)
    page.click("#login-button")
    page.wait_for_selector("#editor")
    wait_until(page, "document.querySelectorAll('#blank-base option').length > 0")
    return page, problems


def start_blank(page: Any, width: int, height: int, base: str = "classic") -> None:
    page.fill("#blank-width", str(width))
    page.fill("#blank-height", str(height))
    page.select_option("#blank-base", base)
    page.click("#blank-button")
    wait_until(page, f"document.getElementById('grid').dataset.width === '{width}' && "
                     f"document.getElementById('grid').dataset.height === '{height}'")


def no_problems(page: Any) -> None:
    """Wait for the live check to find nothing; if it does not, fail with the problems it lists."""
    try:
        wait_until(page, "document.getElementById('problem-count').textContent === '0'")
    except AssertionError:
        pytest.fail("the editor lists problems: " + " | ".join(page.locator("#problems li").all_text_contents()))
    assert page.locator("#no-problems").is_visible()


def square(page: Any, row: int, column: int) -> tuple[float, float]:
    """The centre of a grid square on screen (scrolled into view first)."""
    page.locator("#grid").scroll_into_view_if_needed()
    box = page.locator("#grid").bounding_box()
    return box["x"] + (column + 0.5) * box["width"] / WIDTH, box["y"] + (row + 0.5) * box["height"] / HEIGHT


def tap(page: Any, row: int, column: int) -> None:
    page.mouse.click(*square(page, row, column))


def drag(page: Any, start: tuple[int, int], end: tuple[int, int]) -> None:
    page.mouse.move(*square(page, *start))
    page.mouse.down()
    page.mouse.move(*square(page, *end), steps=4)
    page.mouse.up()


def tool(page: Any, name: str, mode: str | None = None) -> None:
    page.click(f"#tools [data-tool={name}]")
    if mode:
        page.click(f"#modes [data-mode={mode}]")


def drawn_rows(page: Any) -> list[str]:
    """The map as the grid shows it, one letter per square kind (h hallway, v void, r room, d door, s start)."""
    kinds: list[str] = page.evaluate("""Array.from(document.querySelectorAll('#grid rect.sq'))
        .map((rect) => rect.getAttribute('class').split(' ')[1])""")
    letters = "".join({"hallway": "h", "void": "v", "room": "r", "door": "d", "start": "s"}.get(k, "?") for k in kinds)
    return [letters[row * WIDTH:(row + 1) * WIDTH] for row in range(HEIGHT)]


def name_cards(page: Any, category: str, names: tuple[str, ...]) -> None:
    """Keep as many cards of ``category`` as ``names`` and rename them so."""
    rows = f"#cards-{category} li"
    while page.locator(rows).count() > len(names):
        page.click(f"{rows} >> nth=-1 >> button")
    for index, name in enumerate(names):
        field = page.locator(f"{rows} >> nth={index} >> input.card-name")
        field.fill(name)
        field.press("Enter")
        wait_until(page, f"document.querySelectorAll({rows!r})[{index}].querySelector('input.card-name').value === {name!r}")


def draw_test_board(page: Any) -> None:
    start_blank(page, WIDTH, HEIGHT)
    tool(page, "hallway", "fill")
    tap(page, 4, 4)
    # The base's rooms come as a palette: this board has its own two.
    while page.locator("#rooms li").count():
        page.click("#rooms li >> nth=0 >> button.icon")
    for letter, name, corner, far in (("A", "Attic", (0, 0), (2, 2)), ("B", "Boiler Room", (0, 7), (2, 9))):
        page.fill("#room-letter", letter)
        page.fill("#room-name", name)
        page.click("#room-add")
        tool(page, "room", "box")
        drag(page, corner, far)
    tool(page, "door", "brush")
    tap(page, 2, 2)
    tap(page, 2, 7)
    tool(page, "passage")
    tap(page, 0, 0)
    tap(page, 1, 8)
    name_cards(page, "suspects", SUSPECTS)
    name_cards(page, "weapons", WEAPONS)
    name_cards(page, "rooms", ROOMS)
    tool(page, "start")
    for suspect, column in zip(SUSPECTS, (3, 5, 7)):
        page.select_option("#opt-suspect", suspect)
        tap(page, 5, column)


def test_a_board_drawn_in_the_editor_is_saved_and_played(browser: Any, served: tuple[MockTable, str, Path]) -> None:
    rig, url, folder = served
    page, problems = open_editor(browser, url)
    draw_test_board(page)
    expected = ["".join({".": "h", "A": "r", "B": "r", "a": "d", "b": "d"}.get(ch, "s") for ch in row) for row in DRAWN]
    assert drawn_rows(page) == expected
    assert page.locator("#grid .door-bar").count() == 4  # each door opens right and down onto the hallway
    assert page.locator("#grid line.passage").count() == 1
    for field, value in (("#ed-id", "test_board"), ("#ed-name", "Test Board"), ("#ed-min", "3"), ("#ed-max", "3")):
        page.fill(field, value)
        page.press(field, "Tab")
    no_problems(page)

    # A problem points at its square: an extra door that opens onto nothing is listed, then undone.
    tool(page, "door")
    tap(page, 0, 0)
    wait_until(page, "document.querySelectorAll('#problems button.problem').length > 0")
    page.click("#problems button.problem >> nth=0")
    assert page.locator("#grid .problem-hl").count() == 1
    page.click("#undo-button")
    no_problems(page)
    page.keyboard.press("Control+y")  # the keys do the same: redo brings the bad door back, undo takes it away
    wait_until(page, "document.querySelectorAll('#problems button.problem').length > 0")
    page.keyboard.press("Control+z")
    no_problems(page)

    page.click("#save-button")
    wait_until(page, "document.getElementById('save-status').textContent.includes('test_board')")
    edition = load_edition("test_board")
    assert (edition.deck.suspects, edition.deck.weapons, edition.deck.rooms) == (SUSPECTS, WEAPONS, ROOMS)
    assert (folder / "test_board.toml").exists()
    assert page.get_attribute("#export-link", "href") == "/api/host/editor/export/test_board"

    # The host opens a game on it, with real dice so the roll is known.
    page.goto(url + "/host")
    wait_until(page, "Array.from(document.querySelectorAll('#new-edition option')).some((o) => o.value === 'test_board')")
    assert "(yours)" in page.text_content("#new-edition option[value=test_board]")
    page.select_option("#new-edition", "test_board")
    assert page.locator("#new-seats input:checked").count() == 3
    page.check("#new-dice input[value=physical]")
    page.click("#new-submit")
    wait_until(page, "!document.getElementById('start-game').classList.contains('hidden')")
    with page.expect_response("**/api/host/start") as started:  # answered once the join tokens follow the game
        page.click("#start-game")
    assert started.value.ok
    view = rig.wait_for(lambda v: v.get("stage") == "playing")
    mover = view["turn"]
    page.reload()  # the seats' join addresses as they are once the game has started
    page.wait_for_selector(".seat-card")
    join = page.locator(".seat-card", has_text=mover).locator(".join-url").text_content() or ""

    phone = browser.new_context()
    seat = phone.new_page()
    seat.goto(url + "/j/" + join.split("/j/")[1])
    seat.wait_for_selector("meta[name=csrf-token]", state="attached")
    act = """(body) => Clue.post('/api/seat/action', body).then((a) => 'ok', (e) => e.code)"""
    assert seat.evaluate(act, {"type": "roll", "dice": [3]}) == "ok"
    legal = seat.evaluate("Clue.getJSON('/api/seat')")["legal_destinations"]
    assert legal and "j8" not in legal  # the far corner is 4 or more squares from every start
    assert seat.evaluate(act, {"type": "move", "to": "j8"}) == "illegal_move"
    assert seat.evaluate(act, {"type": "move", "to": legal[0]}) == "ok"
    assert rig.wait_for(lambda v: v.get("position", {}).get(mover) == legal[0])
    phone.close()
    page.close()
    assert problems == []


def test_on_a_tablet_nothing_overflows_and_every_control_is_big_enough(browser: Any, served: tuple[MockTable, str, Path],
                                                                         tmp_path: Path) -> None:
    _, url, _ = served
    page, problems = open_editor(browser, url, viewport={"width": 768, "height": 1024}, has_touch=True)
    page.select_option("#open-edition", "master_detective")
    page.click("#open-button")
    wait_until(page, "document.getElementById('grid').dataset.width === '26'")
    page.click("#tools [data-tool=mark]")  # Master Detective's snoop spaces are a tool
    page.click("#tools [data-tool=start]")
    no_problems(page)
    page.screenshot(path=str(tmp_path / "editor-tablet.png"), full_page=True)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 768
    small = page.evaluate("""Array.from(document.querySelectorAll(
          'button, select, a.button, label.button, input:not(.visually-hidden)'))
        .filter((node) => node.offsetParent !== null)
        .map((node) => [node.id || node.textContent.trim() || node.getAttribute('aria-label'), node.getBoundingClientRect()])
        .filter(([, box]) => box.width < 44 || box.height < 44)
        .map(([name, box]) => name + ' ' + Math.round(box.width) + 'x' + Math.round(box.height))""")
    assert small == []
    page.close()
    assert problems == []


def place_corners(page: Any, width: int, height: int) -> None:
    """Drag the four handles onto the corners of a ``width`` x ``height`` photo, then confirm them."""
    page.locator("#stage").scroll_into_view_if_needed()
    stage = page.locator("#stage").bounding_box()
    scale = min(stage["width"] / width, stage["height"] / height)
    for index, (x, y) in enumerate(((0, 0), (width, 0), (width, height), (0, height))):
        handle = page.locator(f"#corners .handle >> nth={index}").bounding_box()
        page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
        page.mouse.down()
        page.mouse.move(stage["x"] + x * scale, stage["y"] + y * scale, steps=3)
        page.mouse.up()
    page.click("#corners-button")


def test_the_photo_underlay_is_warped_onto_the_grid(browser: Any, served: tuple[MockTable, str, Path],
                                                    tmp_path: Path) -> None:
    _, url, _ = served
    photo = tmp_path / "board.png"
    image = Image.new("RGB", (400, 300), "white")
    ImageDraw.Draw(image).rectangle((40, 30, 360, 270), outline="black", width=6)
    image.save(photo)
    page, problems = open_editor(browser, url, viewport={"width": 1000, "height": 1000})
    start_blank(page, WIDTH, HEIGHT)
    page.set_input_files("#photo-file", str(photo))
    page.wait_for_selector("#corners .handle")
    assert page.locator("#corners .handle").count() == 4
    # Drag each handle onto the photo's own corner: the warp then lays the whole photo exactly on the grid.
    place_corners(page, 400, 300)
    assert page.evaluate("document.getElementById('photo').style.transform").startswith("matrix3d(")
    warped = page.locator("#photo").bounding_box()
    grid = page.locator("#grid").bounding_box()
    for key in ("x", "y", "width", "height"):
        assert abs(warped[key] - grid[key]) < 2, (key, warped, grid)
    page.eval_on_selector("#photo-opacity", "(input) => { input.value = '30'; input.dispatchEvent(new Event('input')); }")
    assert page.evaluate("document.getElementById('photo').style.opacity") == "0.3"
    page.close()
    assert problems == []


def test_trace_from_photo_fills_the_grid_with_the_traced_map(browser: Any, served: tuple[MockTable, str, Path],
                                                              tmp_path: Path) -> None:
    """The page's "Trace from photo" against the real trace endpoint: void, hallway and two rooms come back."""
    _, url, _ = served
    cell = 30
    truth = ["##AAA....#",
             "##AAA.....",
             "..AAA.BBBB",
             "......BBBB",
             "......BBBB",
             "..........",
             "#.........",
             "##........"]
    colours = {"#": (40, 40, 48), ".": (236, 224, 190), "A": (200, 80, 80), "B": (70, 110, 200)}
    image = Image.new("RGB", (WIDTH * cell, HEIGHT * cell))
    draw = ImageDraw.Draw(image)
    for r, row in enumerate(truth):
        for c, ch in enumerate(row):
            draw.rectangle((c * cell, r * cell, (c + 1) * cell - 1, (r + 1) * cell - 1), fill=colours[ch])
    photo = tmp_path / "board.png"
    image.save(photo)
    page, problems = open_editor(browser, url, viewport={"width": 1000, "height": 1000})
    start_blank(page, WIDTH, HEIGHT)
    page.set_input_files("#photo-file", str(photo))
    page.wait_for_selector("#corners .handle")
    place_corners(page, image.width, image.height)
    page.click("#trace-button")
    kinds = {"#": "void", ".": "hallway", "A": "room", "B": "room"}
    expected = [kinds[ch] for row in truth for ch in row]
    script = "Array.from(document.querySelectorAll('#grid rect.sq')).map((r) => r.getAttribute('class').split(' ')[1])"
    wait_until(page, f"JSON.stringify({script}) === '{json.dumps(expected, separators=(',', ':'))}'")
    page.close()
    assert problems == []
