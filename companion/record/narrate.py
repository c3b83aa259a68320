"""Sentences for events and errors, for people reading a game: English here, other languages by :func:`narrator`.

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

from companion.language import N_, parse_locale, say
from companion.language.grammar import Name, gender_of, named
from companion.language.titles import edition_title
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
    """:func:`describe` in ``locale``'s language, cards spelled by ``names`` (identity -> shown name).

    English keeps :func:`describe`'s sentences (articles, verbs agreeing with
    "Amy & Rory"); the other languages' templates take each name with what
    the sentence needs of it, its article, a preposition joined to it or
    words agreeing with its gender (:mod:`companion.language.grammar`).
    The game's title is the box's: CLUE in North America, Cluedo elsewhere.

    >>> tell = narrator("es-ES", {"Mr. Green": "Padre Prado", "Miss Scarlet": "Señorita Amapola",
    ...                           "Rope": "Soga", "Dining Room": "Comedor"})
    >>> tell({"type": "suggested", "seat": "Miss Scarlet", "suspect": "Mr. Green", "weapon": "Rope",
    ...       "room": "Dining Room"})
    'La señorita Amapola sospecha del padre Prado, con la soga, en el comedor.'
    """
    found = parse_locale(locale)
    spell = _speller(names or {})
    titled = _titler(found.exact)  # the box of the exact country: es-MX says CLUE
    if found.language == "en":
        return lambda event: describe(titled(spell(event)), edition)
    return lambda event: foreign(found.language, titled(spell(event)), edition)


def _titler(locale: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A game_started event with its edition's title as the box in ``locale`` says it."""
    def titled(event: dict[str, Any]) -> dict[str, Any]:
        if event.get("type") != "game_started":
            return event
        return {**event, "name": edition_title(str(event.get("edition", "")), event.get("name"), locale)}
    return titled


def narrate_result(result: dict[str, Any], tell: Describer, language: str = "en",
                   refusal: str | None = None) -> list[str]:
    """:func:`describe_result` with ``tell`` for the events; ``refusal`` is the error already in ``language``."""
    if result["ok"]:
        return [tell(event) for event in result["events"]]
    error = result["error"]
    message = error["message"] if refusal is None else refusal
    if language == "en":
        return [f"line {result['line']} refused ({error['code']}): {message}"]
    return [say(language, N_("line {line} refused ({code}): {reason}"), line=result["line"], code=error["code"],
                reason=message)]


NAME_FIELDS = ("seat", "by", "to", "suggester", "target", "winner", "suspect", "weapon", "room", "card")
LIST_FIELDS = ("cards", "seats", "face_up")


def _speller(names: Mapping[str, str]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """An event with every card and seat name in it written as ``names`` says (the record keeps identities)."""
    def one(value: Any) -> Any:
        return names.get(value, value) if isinstance(value, str) else value

    def spell(event: dict[str, Any]) -> dict[str, Any]:
        if not names:
            return event
        out = {key: one(value) if key in NAME_FIELDS else value for key, value in event.items()}
        for key in LIST_FIELDS:
            if isinstance(out.get(key), list):
                out[key] = [one(value) for value in out[key]]
        if isinstance(out.get("solution"), dict):
            out["solution"] = {key: one(value) for key, value in out["solution"].items()}
        return out
    return spell


# ---- the other languages: one message per event; each name takes its article, case or gender there ------------

VIA = {"card": N_("card"), "power": N_("power"), "swap": N_("swap")}


def foreign(language: str, e: dict[str, Any], edition: Edition | None = None) -> str:
    """One event in ``language`` (its names already spelled); an unknown type falls back to its fields."""
    kind = e.get("type", "")
    e = named(language, e, NAME_FIELDS)
    if kind == "drew":
        return _foreign_drew(language, e, edition)
    if kind == "card_played":
        return say(language, N_("{seat} plays {card}."), seat=e["seat"], card=bonus_title(e["card_id"], edition))
    describer = _foreign_describers().get(kind)
    return describer(language, e) if describer else " ".join(f"{k}={v}" for k, v in e.items())


Foreign = Callable[[str, dict[str, Any]], str]


@cache
def _foreign_describers() -> dict[str, Foreign]:
    return {
        "game_started": _foreign_started,
        "cards_dealt": lambda lang, e: say(lang, N_("{seat} is dealt {count} cards: {cards}."), seat=e["seat"],
                                           count=e["count"], cards=", ".join(e["cards"])) if "cards" in e
        else say(lang, N_("{seat} is dealt {count} cards."), seat=e["seat"], count=e["count"]),
        "turn_started": lambda lang, e: say(lang, N_("-- {seat}'s turn --"), seat=e["seat"]),
        "rolled": _foreign_rolled,
        "blocked": lambda lang, e: say(lang, N_("{seat} is blocked in and stays put."), seat=e["seat"]),
        "moved": _foreign_moved,
        "weapon_moved": lambda lang, e: say(lang, N_("{weapon} is brought into {place}."), weapon=e["weapon"],
                                            place=_foreign_place(lang, e["to"])),
        "suggested": lambda lang, e: say(lang, N_("{seat} suggests {suspect}, with {weapon}, in {room}."),
                                         seat=e["seat"], suspect=e["suspect"], weapon=e["weapon"], room=e["room"]),
        "passed": lambda lang, e: say(lang, N_("{seat} cannot answer."), seat=e["seat"]),
        "refute_requested": lambda lang, e: say(lang, N_("{seat} must show {suggester} a card."),
                                                seat=e["seat"], suggester=e["suggester"]),
        "card_shown": lambda lang, e: say(lang, N_("{by} shows {to} a card: {card}."), by=e["by"], to=e["to"],
                                          card=e["card"]) if "card" in e
        else say(lang, N_("{by} shows {to} a card."), by=e["by"], to=e["to"]),
        "no_refutation": lambda lang, e: say(lang, N_("Nobody can answer {suggester}'s suggestion."),
                                             suggester=e["suggester"]),
        "accused": _foreign_accused,
        "eliminated": lambda lang, e: say(lang, N_("{seat} is out, but still answers suggestions."), seat=e["seat"]),
        "game_over": _foreign_over,
        "snooped": lambda lang, e: say(lang, N_("{seat} snoops on {target} and sees {card}."), seat=e["seat"],
                                       target=e["target"], card=e["card"]) if "card" in e
        else say(lang, N_("{seat} snoops on {target}."), seat=e["seat"], target=e["target"]),
        "side_card_seen": lambda lang, e: say(lang, N_("{seat} looks at side card {number}: {card}."),
                                              number=e["index"] + 1, seat=e["seat"], card=e["card"]) if "card" in e
        else say(lang, N_("{seat} looks at side card {number}."), number=e["index"] + 1, seat=e["seat"]),
        "power_used": lambda lang, e: say(lang, N_("{seat} uses their power: {power}."), seat=e["seat"],
                                          power=e["power"]),
        "hand_revealed": lambda lang, e: say(lang, N_("{seat} is out and lays their cards face up: {cards}."),
                                             seat=e["seat"], cards=", ".join(e["cards"])),
    }


def _foreign_started(lang: str, e: dict[str, Any]) -> str:
    text = say(lang, N_("A game of {edition} for {seats}."), edition=e.get("name", e["edition"]),
               seats=", ".join(e["seats"]))
    if e["face_up"]:
        text += " " + say(lang, N_("Face up: {cards}."), cards=", ".join(e["face_up"]))
    return text


def _foreign_rolled(lang: str, e: dict[str, Any]) -> str:
    dice = " + ".join(map(str, e["dice"]))
    if len(e["dice"]) > 1:
        return say(lang, N_("{seat} rolls {dice}: {total} to move."), seat=e["seat"], dice=dice, total=e["total"])
    return say(lang, N_("{seat} rolls {dice}."), seat=e["seat"], dice=dice)


def _foreign_place(lang: str, place: str) -> str:
    """A room (a name that takes its article) or a square ("the square h7", worded in the language)."""
    if not SQUARE_NAME.fullmatch(str(place)):
        return place
    shown = say(lang, N_("square {square}"), square=place)
    form = say(lang, N_("the square {square}"), square=place)
    return Name(shown, lang, form, gender_of(lang, form))


def _foreign_moved(lang: str, e: dict[str, Any]) -> str:
    via, seat, place = e["via"], e["seat"], _foreign_place(lang, e["to"])
    if via == "passage":
        return say(lang, N_("{seat} takes the secret passage to {place}."), seat=seat, place=place)
    if via == "suggestion":
        return say(lang, N_("{seat} is brought into {place} by a suggestion."), seat=seat, place=place)
    if via == "cleared":
        return say(lang, N_("{seat}'s mover is put inside {place}, out of the doorway."), seat=seat, place=place)
    into_room = not SQUARE_NAME.fullmatch(str(e["to"]))  # a room is entered; a square is moved to
    if via in VIA:
        if into_room:
            return say(lang, N_("{seat} goes into {room} ({via})."), seat=seat, via=say(lang, VIA[via]), room=place)
        return say(lang, N_("{seat} goes to {place} ({via})."), seat=seat, via=say(lang, VIA[via]), place=place)
    if into_room:
        return say(lang, N_("{seat} enters {room}."), seat=seat, room=place)
    return say(lang, N_("{seat} moves to {place}."), seat=seat, place=place)


def _foreign_accused(lang: str, e: dict[str, Any]) -> str:
    parts = {"seat": e["seat"], "suspect": e["suspect"], "weapon": e["weapon"], "room": e["room"]}
    if e["correct"]:
        return say(lang, N_("{seat} accuses {suspect} with {weapon} in {room}: right!"), **parts)
    return say(lang, N_("{seat} accuses {suspect} with {weapon} in {room}: wrong."), **parts)


def _foreign_over(lang: str, e: dict[str, Any]) -> str:
    s = named(lang, e["solution"])
    who = say(lang, N_("{seat} wins!"), seat=e["winner"]) if e["winner"] \
        else say(lang, N_("Everyone is out: nobody wins."))
    return who + " " + say(lang, N_("It was {suspect}, with {weapon}, in {room}."), suspect=s["suspect"],
                           weapon=s["weapon"], room=s["room"])


def _foreign_drew(lang: str, e: dict[str, Any], edition: Edition | None) -> str:
    if e.get("card_id"):
        return say(lang, N_("{seat} draws a card from the {deck} pile: {card}"), seat=e["seat"], deck=e["deck"],
                   card=_stop(bonus_title(e["card_id"], edition)))
    return say(lang, N_("{seat} draws a card from the {deck} pile."), seat=e["seat"], deck=e["deck"])
