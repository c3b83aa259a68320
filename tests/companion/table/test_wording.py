"""The table's language: handheld screens, notices and board corrections follow ``Table.house.locale``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.rules.actions import Roll
from companion.table.commands import BoardUp, Configure, NewGame, Play, StartGame, TagSeen
from companion.table.prompts import Menu, press, screen_for, screen_text
from companion.table.store import Store
from companion.table.table import Table, TableError
from companion.table.wording import Wording, Words
from companion.table.tags import Piece, TagMap

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
KITCHEN = 0  # the default zone map's first reader


def mover(name: str) -> str:
    return f"04:20:{SEATS.index(name):02X}:00:00:00:01"


def tag_map() -> TagMap:
    return TagMap({mover(seat): Piece("mover", seat) for seat in SEATS})


@pytest.fixture
def store() -> Iterator[Store]:
    with Store(":memory:").open() as opened:
        for uid, piece in tag_map().items():
            opened.enrol("classic", uid, piece)
        yield opened


def table_in(locale: str, store: Store | None = None, **game: object) -> Table:
    table = Table(store=store, seed_source=lambda: 7)
    assert table.handle(NewGame("classic", SEATS, seed=7, **game)).ok  # type: ignore[arg-type]
    assert table.handle(Configure(locale=locale)).ok
    return table


@pytest.mark.parametrize(("locale", "title", "roll", "footer"), [
    ("de-DE", "Du bist am Zug", "Würfeln", "ok: wählen"),
    ("fr-FR", "À toi de jouer", "Lancer les dés", "ok : choisir"),
    ("es-ES", "Tu turno", "Tirar los dados", "ok: elegir"),
])
def test_the_turn_menu_is_in_the_tables_language(locale: str, title: str, roll: str, footer: str) -> None:
    table = table_in(locale)
    setup = screen_for(table.view("Miss Scarlet"), Menu())
    assert setup.title != "Ready to start" and setup.items[0] != "Start game"
    assert table.handle(StartGame()).ok
    screen = screen_for(table.view("Miss Scarlet"), Menu())
    assert (screen.title, screen.items[0], screen.footer) == (title, roll, footer)
    menu, command = press(table.view("Miss Scarlet"), Menu(), "ok")  # the words changed, the choices did not
    assert command == Play("Miss Scarlet", Roll("Miss Scarlet"))


def test_an_english_table_reads_as_before() -> None:
    table = table_in("en-US")
    assert table.handle(StartGame()).ok
    assert screen_text(screen_for(table.view("Miss Scarlet"), Menu())).splitlines()[:3] == [
        "[Your turn]", "On h25.", "> Roll dice"]
    assert table.view(None)["notice"] | {"id": 0} == {"text": "The game starts.", "code": None, "id": 0,
                                                       "template": "The game starts.", "args": {}}


def test_a_refusal_notice_is_in_the_tables_language_with_its_template() -> None:
    table = table_in("de-DE")
    assert table.handle(StartGame()).ok
    assert table.view(None)["notice"]["text"] == "Das Spiel beginnt."
    refused = table.handle(Play("Miss Scarlet", Roll("Miss Scarlet", (3, 4))))
    assert refused.error == {"code": "dice_mode", "message": "the companion rolls the dice in this game"}
    notice = table.view("Miss Scarlet")["notice"]
    assert notice["text"] == "in diesem Spiel würfelt der Begleiter"
    assert (notice["template"], notice["args"]) == ("the companion rolls the dice in this game", {})
    assert "Würfelart" in screen_text(screen_for(table.view("Miss Scarlet"), Menu()))  # the notice's title


def test_a_table_error_fills_its_template() -> None:
    err = TableError("no_game", "there is no game {game_id} to resume", game_id=4)
    assert (str(err), err.code, err.params) == ("there is no game 4 to resume", "no_game", {"game_id": 4})
    assert Wording("fr").told(err) == "il n'y a pas de partie 4 à reprendre"


def test_a_board_correction_names_the_piece_as_the_table_spells_it(store: Store) -> None:
    table = table_in("de-DE", store, dice="physical")
    assert table.handle(Configure(house_names={"Colonel Mustard": "Oberst Senf"})).ok
    assert table.handle(StartGame()).ok
    table.handle(BoardUp(24, frozenset()))
    table.handle(Play("Miss Scarlet", Roll("Miss Scarlet", (1,))))
    table.handle(TagSeen(KITCHEN, mover("Colonel Mustard")))
    view = table.view("Colonel Mustard")
    assert view["board"]["corrections"] == ["Stelle Oberst Senf zurück auf Feld a18."]
    parts = view["board"]["correction_parts"][0]
    assert parts == {"template": "{instruction}.", "args": {"instruction": {
        "template": "Put {piece} back on {square}", "args": {"piece": "Colonel Mustard", "square": "a18"}}}}
    assert Wording().say(Words.from_dict(parts)) == "Put Colonel Mustard back on a18."  # a reader in English
    assert view["notice"]["text"] == "Stelle Oberst Senf zurück auf Feld a18." and view["notice"]["args"]
    board = screen_for(table.view("Colonel Mustard"), Menu(notice_seen=view["notice"]["id"]))
    assert (board.title, board.items) == ("Brett richten", ("Stelle Oberst Senf zurück auf Feld a18.",))
    refused = table.handle(Play("Miss Scarlet", Roll("Miss Scarlet", (2,))))
    assert refused.error is not None and refused.error["message"] == \
        "Waiting for the board. Put Colonel Mustard back on a18."
    assert table.view("Miss Scarlet")["notice"]["text"] == "Warte auf das Brett. Stelle Oberst Senf zurück auf Feld a18."


def test_a_handheld_changes_language_when_the_table_does() -> None:
    table = table_in("es-ES")
    assert table.handle(StartGame()).ok
    assert screen_for(table.view("Mrs. White"), Menu()).title == "Esperando"
    assert table.handle(Configure(locale="en-GB")).ok
    assert screen_for(table.view("Mrs. White"), Menu()).title == "Waiting"


def test_a_notices_title_in_english_is_its_code_as_before() -> None:
    from companion.table.prompts import TITLES
    assert all(code.replace("_", " ").capitalize() == title for code, title in TITLES.items())


def test_a_locale_for_this_run_only_is_never_stored_even_when_house_names_are(store: Store) -> None:
    # `run --locale de-DE` without --remember: German tonight, the host's own choice kept for next time.
    table = table_in("fr-FR", store)  # chosen on the host page: kept
    assert table.handle(Configure(locale="de-DE", keep=False)).ok
    assert table.house.locale == "de-DE"
    assert table.handle(Configure(house_names={"Miss Scarlet": "Scarlett"})).ok  # the host names a card later
    assert Table(store=store).house.locale == "fr-FR"  # the next start
    assert Table(store=store).house.house_names == {"Miss Scarlet": "Scarlett"}
    assert table.handle(Configure(locale="es-ES")).ok  # chosen on purpose again: kept
    assert Table(store=store).house.locale == "es-ES"
