"""The table's box of names (``House.names_variant``): chosen, checked, stored, resumed and dropped with its locale."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.rules.errors import BadInput
from companion.table.commands import Configure, NewGame
from companion.table.house import SETTING, House
from companion.table.store import Store
from companion.table.table import Table

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")


@pytest.fixture
def store() -> Iterator[Store]:
    with Store(":memory:").open() as opened:
        yield opened


def german_1990s(store: Store | None = None) -> Table:
    table = Table(store=store, seed_source=lambda: 7)
    assert table.handle(NewGame("classic", SEATS, seed=7)).ok
    assert table.handle(Configure(locale="de-DE", names_variant="1990s")).ok
    return table


def test_the_box_renames_the_cards_the_table_words() -> None:
    table = german_1990s()
    assert table.house.names_variant == "1990s"
    assert table.wording().names["Miss Scarlet"] == "Fräulein Gloria"
    assert table.view(None)["house"]["names_variant"] == "1990s"
    assert table.handle(Configure(names_variant="1986")).ok  # the locale's own box, by its id: none kept
    assert table.house.names_variant is None
    assert table.wording().names["Miss Scarlet"] == "Fräulein Ming"


def test_the_box_is_stored_and_read_again_at_the_next_start(store: Store) -> None:
    german_1990s(store)
    again = Table(store=store)
    assert (again.house.locale, again.house.names_variant) == ("de-DE", "1990s")
    assert again.handle(NewGame("classic", SEATS, seed=7)).ok
    assert again.wording().names["Colonel Mustard"] == "Oberst von Gatow"


def test_an_unknown_box_is_refused_with_the_locales_list_and_changes_nothing(store: Store) -> None:
    table = german_1990s(store)
    outcome = table.handle(Configure(locale="es-ES", names_variant="1990s"))
    assert not outcome.ok and outcome.error is not None
    assert outcome.error["code"] == "bad_input"
    assert outcome.error["message"] == "unknown box of names '1990s' for es-ES; known: earlier, current"
    assert (table.house.locale, table.house.names_variant) == ("de-DE", "1990s")
    assert House.from_setting(store.setting(SETTING)).names_variant == "1990s"


def test_a_new_locale_without_the_box_drops_it_one_with_it_keeps_it(store: Store) -> None:
    table = german_1990s(store)
    assert table.handle(Configure(locale="de-CH")).ok  # Swiss German reads the German boxes too
    assert table.house.names_variant == "1990s"
    assert table.wording().names["Mrs. White"] == "Frau Weiss"
    assert table.handle(Configure(locale="fr-FR")).ok
    assert table.house.names_variant is None
    assert Table(store=store).house.names_variant is None


def test_a_box_for_this_run_only_leaves_the_stored_one(store: Store) -> None:
    table = german_1990s(store)
    assert table.handle(Configure(locale="es-ES", names_variant="current", keep=False)).ok
    assert table.wording().names["Mrs. Peacock"] == "Señora Celeste"
    assert table.handle(Configure(house_names={"Rope": "Wäscheleine"})).ok
    kept = Table(store=store).house
    assert (kept.locale, kept.names_variant, dict(kept.house_names)) == ("de-DE", "1990s", {"Rope": "Wäscheleine"})


def test_a_table_without_a_game_checks_the_box_against_classic() -> None:
    table = Table()
    assert table.handle(Configure(locale="es-ES", names_variant="current")).ok
    assert not table.handle(Configure(names_variant="nope")).ok


@pytest.mark.parametrize("given", [3, ["1990s"], {"id": "1990s"}, True])
def test_a_box_that_is_not_text_is_bad_input(given: object) -> None:
    with pytest.raises(BadInput):
        House().changed(names_variant=given)
    outcome = Table().handle(Configure(names_variant=given))  # type: ignore[arg-type]
    assert not outcome.ok and outcome.error is not None and outcome.error["code"] == "bad_input"


def test_a_damaged_stored_box_is_dropped_and_the_rest_kept() -> None:
    house = House.from_setting('{"locale": "de-DE", "house_names": {}, "names_variant": 7}')
    assert (house.locale, house.names_variant) == ("de-DE", None)
    assert House.from_setting('{"locale": "de-DE"}').names_variant is None  # a setting stored before boxes
    assert House.from_setting(House(locale="de-DE", names_variant="1990s").stored()).names_variant == "1990s"
    assert House().changed(names_variant=" ").names_variant is None
    with pytest.raises(BadInput):
        House().changed(names_variant="x" * 41)
