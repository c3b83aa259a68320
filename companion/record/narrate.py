"""Plain-English lines for events and errors, for people reading a game.

Works on event dicts as a view produced them, so a hidden card stays hidden.

>>> describe({"type": "card_shown", "by": "Mrs. White", "to": "Miss Scarlet"})
'Mrs. White shows Miss Scarlet a card.'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

Describer = Callable[[dict[str, Any]], str]
SQUARE = re.compile(r"^[a-z][0-9]{1,2}$")


def _the(name: str, capital: bool = False) -> str:
    if name.startswith("The "):
        return name
    return f"{'T' if capital else 't'}he {name}"


def _place(name: str) -> str:
    return f"square {name}" if SQUARE.match(name) else _the(name)


def _moved(e: dict[str, Any]) -> str:
    via = e["via"]
    if via == "passage":
        return f"{e['seat']} takes the secret passage to {_place(e['to'])}."
    if via == "suggestion":
        return f"{e['seat']} is brought into {_place(e['to'])}."
    if via == "cleared":
        return f"{e['seat']}'s mover is put inside {_place(e['to'])}, out of the doorway."
    if via in ("card", "power", "swap"):
        return f"{e['seat']} goes to {_place(e['to'])} ({via})."
    return f"{e['seat']} moves to {_place(e['to'])}."


def _dealt(e: dict[str, Any]) -> str:
    cards = f": {', '.join(e['cards'])}" if "cards" in e else ""
    return f"{e['seat']} is dealt {e['count']} cards{cards}."


def _shown(e: dict[str, Any]) -> str:
    what = f": {e['card']}" if "card" in e else " a card"
    return f"{e['by']} shows {e['to']}{what}."


def _accused(e: dict[str, Any]) -> str:
    verdict = "right!" if e["correct"] else "wrong."
    return f"{e['seat']} accuses {e['suspect']} with {_the(e['weapon'])} in {_the(e['room'])}: {verdict}"


def _over(e: dict[str, Any]) -> str:
    s = e["solution"]
    who = f"{e['winner']} wins!" if e["winner"] else "Everyone is out: nobody wins."
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
        "rolled": lambda e: f"{e['seat']} rolls {' + '.join(map(str, e['dice']))}"
        + (f": {e['total']} to move." if len(e["dice"]) > 1 else "."),
        "blocked": lambda e: f"{e['seat']} is blocked in and stays put.",
        "moved": _moved,
        "weapon_moved": lambda e: f"{_the(e['weapon'], capital=True)} is brought into {_place(e['to'])}.",
        "suggested": lambda e: f"{e['seat']} suggests {e['suspect']} with {_the(e['weapon'])} in {_the(e['room'])}.",
        "passed": lambda e: f"{e['seat']} cannot answer.",
        "refute_requested": lambda e: f"{e['seat']} must show {e['suggester']} a card.",
        "card_shown": _shown,
        "no_refutation": lambda e: f"Nobody can answer {e['suggester']}'s suggestion.",
        "accused": _accused,
        "eliminated": lambda e: f"{e['seat']} is out, but still answers suggestions.",
        "game_over": _over,
        "snooped": lambda e: f"{e['seat']} snoops on {e['target']}" + (f" and sees {e['card']}." if "card" in e else "."),
        "side_card_seen": lambda e: f"{e['seat']} looks at side card {e['index'] + 1}"
        + (f": {e['card']}." if "card" in e else "."),
        "drew": lambda e: f"{e['seat']} draws a {e['deck']}: {e['card_id']}.",
        "card_played": lambda e: f"{e['seat']} plays {e['card_id']}.",
        "power_used": lambda e: f"{e['seat']} uses their power: {e['power']}.",
        "hand_revealed": lambda e: f"{e['seat']} is out and lays their cards face up: {', '.join(e['cards'])}.",
    }


def describe(event: dict[str, Any]) -> str:
    """One sentence for an event; an unknown type falls back to its fields."""
    describer = _describers().get(event.get("type", ""))
    return describer(event) if describer else " ".join(f"{k}={v}" for k, v in event.items())


def describe_result(result: dict[str, Any]) -> list[str]:
    """The lines for one replay result: its events, or why it was refused."""
    if result["ok"]:
        return [describe(event) for event in result["events"]]
    error = result["error"]
    return [f"line {result['line']} refused ({error['code']}): {error['message']}"]
