"""Every kind of handheld screen, drawn and compared pixel for pixel with tests/hardware/screens/*.png.

``REGENERATE=1 pytest tests/hardware/test_screens.py`` rewrites the reference
images; look at each one (scaled up) before committing it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import segno
from handheld_views import JOIN_URL, choose, presses, session_view
from PIL import Image, ImageChops

from companion import Accuse, DealSpec, EndTurn, Move, Roll, Setup, Show, Suggest, apply, new_game
from companion.rules.engine import GameState
from companion.table.prompts import Menu, Screen, screen_for
from hardware.screens import (ARROW_X, CELL_H, CELL_W, COLUMNS, HEIGHT, WIDTH, font, layout, printable, render_image,
                              wrap)

SCREENS = Path(__file__).parent / "screens"
SCARLET, MUSTARD, WHITE, GREEN, PEACOCK = "Miss Scarlet", "Colonel Mustard", "Mrs. White", "Mr. Green", "Mrs. Peacock"
SEATS = (SCARLET, PEACOCK, WHITE)
DEAL = DealSpec(("Professor Plum", "Wrench", "Kitchen"), {
    SCARLET: (SCARLET, "Knife", "Ballroom", "Conservatory", "Dining Room", "Lounge"),
    PEACOCK: (MUSTARD, GREEN, "Candlestick", "Lead Pipe", "Billiard Room", "Library"),
    WHITE: (WHITE, PEACOCK, "Revolver", "Rope", "Hall", "Study"),
})


def _play(state: GameState, *actions: Any) -> GameState:
    for action in actions:
        state, _ = apply(state, action)
    return state


def _classic() -> GameState:
    return new_game(Setup("classic", SEATS, 7, DEAL))[0]


def _in_lounge() -> GameState:
    return _play(_classic(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"))


def _asked() -> GameState:
    return _play(_in_lounge(), Suggest(SCARLET, WHITE, "Candlestick"))


def _setup(**extra: Any) -> dict[str, Any]:
    view = {"stage": "setup", "seat": WHITE, "seats": list(SEATS), "edition": "classic", "hand": ["Rope", "Hall"],
            "scanned": {WHITE: 2}, "face_up": [], "problems": ["Rope was scanned by two seats."], "ready": False,
            "turn": None, "phase": "setup", "link": "up", "notice": None,
            "board": {"waiting": False, "corrections": [], "differences": []},
            "settings": {"dice": "companion", "deal": "physical"}, "join_url": JOIN_URL, "game_id": None,
            "edition_cards": {"suspects": [], "weapons": [], "rooms": []}}
    view.update(extra)
    return view


def _steps(view: dict[str, Any], *labels: str) -> Screen:
    """The screen after choosing ``labels`` in turn."""
    menu = Menu()
    for label in labels:
        menu, _ = choose(view, label, menu)
    return screen_for(view, menu)


def _buttons(view: dict[str, Any], *buttons: str) -> Screen:
    return screen_for(view, presses(view, buttons)[0])


def _big_bang_accusation(room: bool) -> Screen:
    state = new_game(Setup("big_bang_theory", ("Bernadette", "Raj", "Leonard"), seed=3))[0]
    view = session_view(state, state.turn.seat)
    labels = ["Accuse", "Bernadette", "Erased Equation Board"]
    if room:
        menu = presses(view, ["down"] * 6, _menu_after(view, labels))[0]
        return screen_for(view, menu)
    return _steps(view, *labels, "Living Room (Sheldon & Leonard)")


def _menu_after(view: dict[str, Any], labels: list[str]) -> Menu:
    menu = Menu()
    for label in labels:
        menu, _ = choose(view, label, menu)
    return menu


def _master_detective(**extra: Any) -> dict[str, Any]:
    state = new_game(Setup("master_detective", (SCARLET, MUSTARD, WHITE, "Sergeant Gray"), seed=3))[0]
    return session_view(state, state.turn.seat, **extra)


def _out() -> Screen:
    state = _play(_in_lounge(), Accuse(SCARLET, GREEN, "Rope", "Hall"))
    return screen_for(session_view(state, SCARLET), Menu())


CATALOGUE: dict[str, Callable[[], Screen]] = {
    "idle": lambda: screen_for({"stage": "idle", "seat": WHITE}, Menu()),
    "setup_scanning": lambda: screen_for(_setup(), Menu()),
    "setup_ready": lambda: screen_for(_setup(problems=[], ready=True), Menu()),
    "waiting": lambda: screen_for(session_view(_classic(), WHITE), Menu()),
    "waiting_for_answer": lambda: screen_for(session_view(_asked(), WHITE), Menu()),
    "roll": lambda: screen_for(session_view(_classic(), SCARLET), Menu()),
    "dice": lambda: _buttons(_master_detective(settings={"dice": "physical", "deal": "virtual"}),
                             "ok", "up", "up", "ok", "up", "up", "up", "up"),
    "destinations": lambda: _buttons(session_view(_play(_classic(), Roll(SCARLET, (6,))), SCARLET), "down", "down"),
    "turn": lambda: screen_for(session_view(_in_lounge(), SCARLET), Menu()),
    "suggest_suspect": lambda: _buttons(session_view(_in_lounge(), SCARLET), "ok", "down", "down", "down", "down"),
    "suggest_weapon": lambda: _steps(session_view(_in_lounge(), SCARLET), "Suggest", WHITE),
    "accuse_room_long_name": lambda: _big_bang_accusation(room=True),
    "accuse_confirm": lambda: _big_bang_accusation(room=False),
    "accuse_confirm_classic": lambda: _steps(session_view(_in_lounge(), SCARLET), "Accuse", "Professor Plum",
                                             "Candlestick", "Billiard Room"),
    "show": lambda: screen_for(session_view(_asked(), PEACOCK), Menu()),
    "shown": lambda: screen_for(session_view(_play(_asked(), Show(PEACOCK, "Candlestick")), SCARLET), Menu()),
    "shown_several": lambda: screen_for(session_view(_classic(), SCARLET, shown_to_me=[
        {"by": PEACOCK, "card": "Candlestick"}, {"by": WHITE, "card": "Rope"}]), Menu()),
    "snoop": lambda: _steps(_master_detective(snoop_at="x"), "Snoop"),
    "hand": lambda: _buttons(session_view(_classic(), WHITE), "down"),
    "notebook": lambda: _buttons(session_view(_play(_asked(), Show(PEACOCK, "Candlestick"), EndTurn(SCARLET)),
                                              SCARLET), "ok", "down", "ok", "down", "down", "down", "down"),
    "pairing": lambda: _buttons(session_view(_classic(), WHITE), "up"),
    "pairing_long_url": lambda: _buttons(session_view(_classic(), WHITE, join_url=(
        "http://192.168.178.123:8000/join/3/Xk9_aZ4qLm2PzR8wQx7Yt5Uv")), "up"),
    "pairing_no_url": lambda: _buttons(session_view(_classic(), WHITE, join_url=None), "up"),
    "error": lambda: screen_for(session_view(_play(_classic(), Roll(SCARLET, (3,))), SCARLET, notice={
        "text": "Miss Scarlet cannot reach h19 from h25 with 3 to move", "code": "illegal_move", "id": 1}), Menu()),
    "board": lambda: screen_for(session_view(_classic(), WHITE, board={"waiting": True, "differences": [],
        "corrections": ["Put Colonel Mustard back in the Kitchen.", "Take the Rope off the Hall."]}), Menu()),
    "out": _out,
    "over": lambda: screen_for(session_view(_play(_in_lounge(), Accuse(SCARLET, "Professor Plum", "Wrench",
                                                                     "Kitchen")), WHITE), Menu()),
}


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_screen_matches_its_reference_png(name: str) -> None:
    image = render_image(CATALOGUE[name]())
    path = SCREENS / f"{name}.png"
    if os.environ.get("REGENERATE"):
        SCREENS.mkdir(exist_ok=True)
        image.save(path)
    reference = Image.open(path)
    assert reference.mode == "1" and reference.size == (WIDTH, HEIGHT)
    assert ImageChops.difference(image.convert("L"), reference.convert("L")).getbbox() is None, (
        f"{name} differs from {path}; if the change is meant, REGENERATE=1 and look at the new image")


def test_the_catalogue_covers_every_kind_of_screen() -> None:
    kinds = {CATALOGUE[name]().kind for name in CATALOGUE}
    assert kinds >= {"idle", "setup", "waiting", "roll", "dice", "destinations", "turn", "suggest_suspect",
                     "suggest_weapon", "accuse", "show", "shown", "snoop", "hand", "notebook", "pairing", "error",
                     "board", "over"}


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_everything_drawn_lies_inside_the_frame(name: str) -> None:
    screen = CATALOGUE[name]()
    placed = layout(screen)
    for label in placed.labels:
        width = font().getbbox(label.text)[2] + (CELL_W if label.cut else 0)
        assert label.x >= 0 and label.x + width <= WIDTH, label
        assert label.y >= -1 and label.y + CELL_H <= HEIGHT, label  # the font's top pixel row is blank
    for x0, y0, x1, y1 in placed.boxes:
        assert 0 <= x0 <= x1 < WIDTH and 0 <= y0 <= y1 < HEIGHT
    big = render_image(screen, size=(WIDTH + 40, HEIGHT + 40))
    assert big.crop((WIDTH, 0, WIDTH + 40, HEIGHT + 40)).getbbox() is None
    assert big.crop((0, HEIGHT, WIDTH + 40, HEIGHT + 40)).getbbox() is None


def _body_labels(screen: Screen) -> list[str]:
    return [label.text for label in layout(screen).labels[1:] if label.text != screen.footer]


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_the_chosen_item_is_shown_whole(name: str) -> None:
    screen = CATALOGUE[name]()
    if not screen.items or screen.qr:
        return
    chosen = [label.text for label in layout(screen).labels if label.inverted and label.y > 0]
    assert chosen == wrap(screen.items[screen.cursor])
    assert " ".join(chosen) == " ".join(printable(screen.items[screen.cursor]).split())


def test_a_classic_accusation_is_read_whole_before_it_is_made() -> None:
    rows = _body_labels(CATALOGUE["accuse_confirm_classic"]())
    assert rows == ["Cancel", "Accuse Professor", "Plum, Candlestick,", "Billiard Room"]


def test_mrs_peacocks_candlestick_is_legible() -> None:
    screen = CATALOGUE["shown"]()
    assert _body_labels(screen) == ["Mrs. Peacock showed", "you:", "Candlestick"]
    assert not any(label.cut for label in layout(screen).labels)


def test_long_lists_scroll_around_the_cursor_with_arrows() -> None:
    screen = CATALOGUE["suggest_suspect"]()
    assert screen.items[screen.cursor] == PEACOCK
    placed = layout(screen)
    assert [label.text for label in placed.labels[2:5]] == [GREEN, PEACOCK, "Professor Plum"]
    assert {way for _, _, way in placed.arrows} == {"up"}  # Plum is last: nothing below
    assert all(x == ARROW_X for x, _, _ in placed.arrows)


def test_a_name_too_long_for_a_row_wraps() -> None:
    rows = [label.text for label in layout(CATALOGUE["accuse_room_long_name"]()).labels if label.inverted][1:]
    assert rows == ["Living Room (Sheldon", "& Leonard)"]
    assert all(len(row) <= COLUMNS for row in rows)


def test_the_qr_code_fits_beside_its_caption_and_reads_back() -> None:
    placed = layout(CATALOGUE["pairing"]())
    assert placed.qr is not None
    x, y, scale, text = placed.qr
    modules = segno.make(JOIN_URL, error="l", micro=False).symbol_size(scale=1, border=0)[0]
    assert (text, scale) == (JOIN_URL, 2)
    assert x >= scale and y >= scale and x + modules * scale <= 64 - scale  # a quiet zone all round
    assert all(label.x >= 64 for label in placed.labels)


def test_a_long_pairing_url_still_fits_at_one_pixel_a_module() -> None:
    placed = layout(CATALOGUE["pairing_long_url"]())
    assert placed.qr is not None and placed.qr[2] == 1


def test_text_outside_latin_1_is_made_printable() -> None:
    assert printable("Strax\u2019s Gun") == "Strax's Gun"
    assert printable("\u0141\u00f3d\u017a") == "?\u00f3dz"  # Latin-1 has no L with a stroke
    render_image(Screen("hand", "Cards \u2014 yours", items=("Strax\u2019s Gun", "\u2603")))


def test_an_overlong_title_ends_in_an_ellipsis() -> None:
    title = layout(Screen("turn", "Monsieur Brunette's turn, at last")).labels[0]
    assert title.cut and title.text == "Monsieur Brunette's"
