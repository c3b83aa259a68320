"""Plain-English lines for events and errors, for people reading a game.

Works on event dicts as a view produced them, so a hidden card stays hidden.
A seat named for two people ("Amy & Rory") takes a plural verb, a name that is
already possessive ("Strax's Gun") takes no article, and a bonus card is named
by its title from the edition, never by its id.

>>> describe({"type": "card_shown", "by": "Mrs. White", "to": "Miss Scarlet"})
'Mrs. White shows Miss Scarlet a card.'
>>> describe({"type": "drew", "seat": "Amy & Rory", "deck": "Intrigue Card", "card_id": "psychic_paper-1"})
'Amy & Rory draw an Intrigue Card: Psychic Paper.'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from companion.rules.board import SQUARE_NAME
from companion.rules.edition import BonusDeck, Edition, bundled_ids, load_edition

Describer = Callable[[dict[str, Any]], str]
# A card's title is its text up to the first colon, else up to the end of its first sentence.
TITLE = re.compile(r"^(.+?)(?::\s|\.\s|(?<=!)\s|[.:]?$)")
PLURAL = re.compile(r" (?:&|and) ")  # "Amy & Rory": two people in one seat
IRREGULAR = {"is": "are", "has": "have", "goes": "go"}


def _the(name: str, capital: bool = False) -> str:
    """``name`` with the definite article, unless it has one or is possessive ("Strax's Gun")."""
    first = name.split(" ", 1)[0]
    if name.startswith("The ") or first.endswith(("'s", "\u2019s")):
        return name
    return f"{'T' if capital else 't'}he {name}"


def _a(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _verb(subject: str, verb: str) -> str:
    """``verb`` (as for one person) agreeing with ``subject``: "rolls", or "roll" for "Amy & Rory"."""
    if not PLURAL.search(subject):
        return verb
    return IRREGULAR.get(verb, verb[:-1] if verb.endswith("s") else verb)


def _does(subject: str, verb: str) -> str:
    return f"{subject} {_verb(subject, verb)}"


def _place(name: str) -> str:
    return f"square {name}" if SQUARE_NAME.fullmatch(name) else _the(name)


def _moved(e: dict[str, Any]) -> str:
    via = e["via"]
    seat = e["seat"]
    if via == "passage":
        return f"{_does(seat, 'takes')} the secret passage to {_place(e['to'])}."
    if via == "suggestion":
        return f"{_does(seat, 'is')} brought into {_place(e['to'])}."
    if via == "cleared":
        return f"{seat}'s mover is put inside {_place(e['to'])}, out of the doorway."
    if via in ("card", "power", "swap"):
        return f"{_does(seat, 'goes')} to {_place(e['to'])} ({via})."
    return f"{_does(seat, 'moves')} to {_place(e['to'])}."


def _dealt(e: dict[str, Any]) -> str:
    cards = f": {', '.join(e['cards'])}" if "cards" in e else ""
    return f"{_does(e['seat'], 'is')} dealt {e['count']} cards{cards}."


def _shown(e: dict[str, Any]) -> str:
    what = f": {e['card']}" if "card" in e else " a card"
    return f"{_does(e['by'], 'shows')} {e['to']}{what}."


def _accused(e: dict[str, Any]) -> str:
    verdict = "right!" if e["correct"] else "wrong."
    return f"{_does(e['seat'], 'accuses')} {e['suspect']} with {_the(e['weapon'])} in {_the(e['room'])}: {verdict}"


def _over(e: dict[str, Any]) -> str:
    s = e["solution"]
    who = f"{_does(e['winner'], 'wins')}!" if e["winner"] else "Everyone is out: nobody wins."
    return f"{who} It was {s['suspect']} with {_the(s['weapon'])} in {_the(s['room'])}."


def _started(e: dict[str, Any]) -> str:
    face_up = f" Face up: {', '.join(e['face_up'])}." if e["face_up"] else ""
    return f"A game of {e.get('name', e['edition'])} for {', '.join(e['seats'])}.{face_up}"


@cache
def _describers() -> dict[str, Describer]:
    return {
        "game_started": _started,
        "cards_dealt": _dealt,
        "turn_started": lambda e: f"-- {e['seat']}'s turn --",
        "rolled": lambda e: f"{_does(e['seat'], 'rolls')} {' + '.join(map(str, e['dice']))}"
        + (f": {e['total']} to move." if len(e["dice"]) > 1 else "."),
        "blocked": lambda e: f"{_does(e['seat'], 'is')} blocked in and {_verb(e['seat'], 'stays')} put.",
        "moved": _moved,
        "weapon_moved": lambda e: f"{_the(e['weapon'], capital=True)} is brought into {_place(e['to'])}.",
        "suggested": lambda e: f"{_does(e['seat'], 'suggests')} {e['suspect']} with {_the(e['weapon'])} "
        f"in {_the(e['room'])}.",
        "passed": lambda e: f"{_does(e['seat'], 'cannot')} answer.",
        "refute_requested": lambda e: f"{_does(e['seat'], 'must')} show {e['suggester']} a card.",
        "card_shown": _shown,
        "no_refutation": lambda e: f"Nobody can answer {e['suggester']}'s suggestion.",
        "accused": _accused,
        "eliminated": lambda e: f"{_does(e['seat'], 'is')} out, but still {_verb(e['seat'], 'answers')} suggestions.",
        "game_over": _over,
        "snooped": lambda e: f"{_does(e['seat'], 'snoops')} on {e['target']}"
        + (f" and {_verb(e['seat'], 'sees')} {e['card']}." if "card" in e else "."),
        "side_card_seen": lambda e: f"{_does(e['seat'], 'looks')} at side card {e['index'] + 1}"
        + (f": {e['card']}." if "card" in e else "."),
        "power_used": lambda e: f"{_does(e['seat'], 'uses')} their power: {e['power']}.",
        "hand_revealed": lambda e: f"{_does(e['seat'], 'is')} out and {_verb(e['seat'], 'lays')} "
        f"their cards face up: {', '.join(e['cards'])}.",
    }


def _drew(e: dict[str, Any], edition: Edition | None) -> str:
    card = f": {bonus_title(e['card_id'], edition)}" if e.get("card_id") else ""
    return _stop(f"{_does(e['seat'], 'draws')} {_a(e['deck'])}{card}")


def _played(e: dict[str, Any], edition: Edition | None) -> str:
    return _stop(f"{_does(e['seat'], 'plays')} {bonus_title(e['card_id'], edition)}")


def _stop(sentence: str) -> str:
    """End with a full stop unless a card's title ends the sentence already ("Bazinga!")."""
    return sentence if sentence.endswith(("!", "?", ".")) else sentence + "."


def bonus_title(card_id: str, edition: Edition | None = None) -> str:
    """A bonus card's title from its edition's deck ("psychic_paper-1" -> "Psychic Paper").

    Without ``edition`` the bundled editions are searched; an id none of them
    knows is turned into words.

    >>> bonus_title("roommate_agreement-2")
    'Roommate Agreement, clause 37'
    >>> bonus_title("warp_drive-1")
    'Warp drive'
    """
    decks = [edition.bonus] if edition is not None and edition.bonus else _bundled_decks()
    for deck in decks:
        try:
            text = deck.card(card_id).text
        except KeyError:
            continue
        found = TITLE.match(text.strip())
        return found.group(1) if found else text
    words = re.sub(r"-\d+$", "", card_id).replace("_", " ").strip()
    return words[:1].upper() + words[1:]


@cache
def _bundled_decks() -> tuple[BonusDeck, ...]:
    return tuple(deck for deck in (load_edition(name).bonus for name in bundled_ids()) if deck is not None)


def describe(event: dict[str, Any], edition: Edition | None = None) -> str:
    """One sentence for an event; an unknown type falls back to its fields.

    ``edition`` names bonus cards by its deck's titles (default: the bundled editions').
    """
    kind = event.get("type", "")
    if kind == "drew":
        return _drew(event, edition)
    if kind == "card_played":
        return _played(event, edition)
    describer = _describers().get(kind)
    return describer(event) if describer else " ".join(f"{k}={v}" for k, v in event.items())


def describe_result(result: dict[str, Any], edition: Edition | None = None) -> list[str]:
    """The lines for one replay result: its events, or why it was refused."""
    if result["ok"]:
        return [describe(event, edition) for event in result["events"]]
    error = result["error"]
    return [f"line {result['line']} refused ({error['code']}): {error['message']}"]


def narrator(locale: str = "en-US", names: Mapping[str, str] | None = None,
             edition: Edition | None = None) -> Describer:
    """:func:`describe` in ``locale``'s language, cards spelled by ``names`` (identity -> shown name)."""
    return lambda event: describe(event, edition)
