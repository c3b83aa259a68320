"""Names by identity, spelled by locale: the editions' ``[names.TAG]`` tables, their checks and ``spelled()``."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.language import LOCALES
from companion.rules.board import read_bundled_map
from companion.rules.edition import (
    bundled_ids,
    load_bundled,
    load_edition,
    parse_edition,
)
from companion.rules.edition_files import (
    document_of,
    export_text,
    files_of,
    import_text,
    load_files,
)
from companion.rules.errors import EditionError, UnknownCard
from companion.rules.places import resolve_place
from companion.rules.spelling import fallbacks, spelled
from companion.rules.user_editions import save_files

CLASSIC_TOML = (Path(__file__).resolve().parents[3] / "companion" / "rules" / "editions" / "classic.toml").read_text(
    encoding="utf-8")


def classic_with(extra: str) -> str:
    """Classic's TOML without its names tables, plus ``extra``."""
    return CLASSIC_TOML[:CLASSIC_TOML.index("[names.")] + extra


def test_en_gb_writes_classic_the_cluedo_way() -> None:
    names = spelled("classic", "en-GB")
    assert names["Mr. Green"] == "Reverend Green" and names["Wrench"] == "Spanner"
    assert names["Miss Scarlet"] == "Miss Scarlett" and names["Knife"] == "Dagger" and names["Lead Pipe"] == "Lead Piping"
    assert names["Colonel Mustard"] == "Colonel Mustard" and names["Lounge"] == "Lounge"


def test_en_us_is_every_identity() -> None:
    classic = load_edition("classic")
    assert spelled("classic", "en-US") == {card: card for card in classic.deck.all}


@pytest.mark.parametrize("tag, card, name", [
    ("de-DE", "Miss Scarlet", "Fräulein Ming"), ("de-DE", "Kitchen", "Küche"), ("de-DE", "Wrench", "Rohrzange"),
    ("de-CH", "Colonel Mustard", "Madame Curry"), ("de-CH", "Mr. Green", "Direktor Grün"),  # de-DE's, as fallback
    ("fr-FR", "Mr. Green", "Docteur Olive"), ("fr-CH", "Professor Plum", "Docteur Dunkel"),
    ("fr-CH", "Study", "Bureau"), ("es-ES", "Mrs. Peacock", "Capitano Azurro"), ("es-ES", "Rope", "Soga"),
    ("nb-NO", "Mrs. Peacock", "Baronesse von Blauw"), ("nb-NO", "Mr. Green", "Mr. Green"),
])
def test_each_locale_and_its_fallback(tag: str, card: str, name: str) -> None:
    assert spelled("classic", tag)[card] == name


def test_german_spanish_and_french_tables_write_every_weapon_and_room_in_their_language() -> None:
    classic = load_edition("classic")
    for tag in ("de-DE", "de-CH", "fr-FR", "fr-CH", "es-ES"):
        names = spelled("classic", tag)
        translated = [card for card in classic.deck.weapons + classic.deck.rooms if names[card] != card]
        # Revolver and Hall are the French words too.
        assert len(translated) >= len(classic.deck.weapons + classic.deck.rooms) - 2, tag


def test_house_names_come_first() -> None:
    names = spelled("classic", "de-DE", {"Mr. Green": "Onkel Fritz"})
    assert names["Mr. Green"] == "Onkel Fritz" and names["Miss Scarlet"] == "Fräulein Ming"


@pytest.mark.parametrize("edition_id", ["master_detective", "big_bang_theory", "doctor_who"])
def test_the_other_editions_keep_their_printed_names_everywhere(edition_id: str) -> None:
    edition = load_edition(edition_id)
    for tag in LOCALES:
        assert spelled(edition_id, tag) == {card: card for card in edition.deck.all}


@pytest.mark.parametrize("edition_id", bundled_ids())
def test_every_local_name_resolves_to_its_identity(edition_id: str) -> None:
    edition = load_bundled(edition_id)
    for tag in LOCALES:
        for card, name in spelled(edition_id, tag).items():
            assert edition.deck.resolve(name) == card
            assert edition.deck.category_of(name.upper()) == edition.deck.category_of(card)
            if card in edition.deck.rooms:
                assert resolve_place(edition, name) == card


def test_a_local_name_is_a_card_of_the_same_category_only() -> None:
    classic = load_edition("classic")
    assert classic.deck.resolve("Reverend Green", "suspect") == "Mr. Green"
    with pytest.raises(UnknownCard, match="unknown weapon 'Reverend Green'"):
        classic.deck.resolve("Reverend Green", "weapon")


def test_fallbacks() -> None:
    assert fallbacks("de-CH") == ("de-CH", "de-DE") and fallbacks("de") == ("de-DE",)
    assert fallbacks("en_gb") == ("en-GB", "en-EN")


@pytest.mark.parametrize("extra, message", [
    ('[names.de-DE]\nKnife = "Mr. Green"\n', "'Knife' = 'Mr. Green' is already the name of 'Mr. Green'"),
    ('[names.de-DE]\nKnife = "Dolch"\n[names.fr-FR]\nRope = "dolch"\n', "is already the name of 'Knife'"),
    ('[names.de-DE]\n"Dr. Black" = "Dr. Schwarz"\n', "'Dr. Black' is not a card of this edition"),
    ('[names.german]\nKnife = "Dolch"\n', "expected a locale tag"),
    ('[names.de-DE]\nKnife = " Dolch"\n', "needs a name of 1 to 60 characters"),
    ('[names.de-DE]\nKnife = 3\n', "needs a name"),
])
def test_bad_names_tables_are_edition_errors(extra: str, message: str) -> None:
    with pytest.raises(EditionError, match=message):
        parse_edition("classic.toml", classic_with(extra), read_bundled_map)


def test_names_must_be_tables() -> None:
    with pytest.raises(EditionError, match="one table per locale"):
        parse_edition("classic.toml", classic_with("").replace("[players]", "names = 3\n\n[players]", 1),
                      read_bundled_map)


def test_a_local_name_equal_to_an_alias_of_another_card_is_refused() -> None:
    text = classic_with('[names.de-DE]\nKnife = "Sharp"\n').replace(
        '[rules]', '[cards.aliases]\n"Sharp" = "Rope"\n\n[rules]', 1)
    with pytest.raises(EditionError, match="'Knife' = 'Sharp' is already the name of 'Rope'") as found:
        parse_edition("classic.toml", text, read_bundled_map)
    assert found.value.line == text.splitlines().index("[names.de-DE]") + 1


def test_a_local_name_may_equal_its_own_card_and_repeat_across_locales() -> None:
    edition = parse_edition("classic.toml", classic_with(
        '[names.de-DE]\nRevolver = "Revolver"\nLounge = "Salon"\n[names.fr-FR]\nLounge = "Salon"\n'), read_bundled_map)
    assert edition.deck.resolve("salon") == "Lounge" and edition.names["fr-FR"] == {"Lounge": "Salon"}


def test_names_survive_export_and_import_and_a_user_edition_carries_them(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    classic = load_edition("classic")
    again = load_files(import_text(export_text(classic)))
    assert again.names == classic.names
    document = document_of(classic)
    document.update(id="our_classic", name="Our Classic")
    document["cards"]["weapons"] = ["Candlestick", "Knife", "Lead Pipe", "Revolver", "Rope", "Salon"]
    files = files_of(document)
    monkeypatch.setenv("CLUE_COMPANION_EDITIONS", str(tmp_path))
    save_files(tmp_path, files)
    ours = load_edition("our_classic")
    assert ours.names["en-GB"]["Mr. Green"] == "Reverend Green"
    assert "Wrench" not in ours.names["de-DE"]  # a card this edition no longer has
    assert "Lounge" not in ours.names["de-DE"]  # "Salon" is a weapon's printed name here: dropped, not a clash
    assert spelled("our_classic", "de-DE")["Kitchen"] == "Küche"
    assert load_files(import_text(export_text(ours))).names == ours.names
