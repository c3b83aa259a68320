"""Helpers for the Big Bang Theory and Doctor Who scenario tests: fixed tables and short ways to set a scene.

Both standard tables seat all six suspects, clockwise in the score pad's order,
with every card placed by hand (three each, none left over), and the envelope of
the rulebook's own accusation:

================= ==================================================================
The Big Bang Theory (envelope: Howard, Wiped Hard Drive, Kitchen)
------------------------------------------------------------------------------------
Penny             Penny, Dismantled Shelbot, Laundry Room
Raj               Raj, Petrified Toothbrush, Bathroom
Leonard           Leonard, Dog-eared Comic, Stairwell
Howard            Bernadette, Erased Equation Board, Roof
Bernadette        Amy, Stained Cushion, Living Room (Penny)
Amy               Bedroom (Leonard), Bedroom (Sheldon), Living Room (Sheldon & Leonard)
================= ==================================================================
Doctor Who (envelope: Jenny, Strax's Gun, Platform One)
------------------------------------------------------------------------------------
Clara Oswald      Clara Oswald, Hallucinogenic Lipstick, Victorian London
Strax             Strax, Madame Vastra, Cyberman Gun
Jenny             River Song, Vortex Manipulator, The Moon
Madame Vastra     Amy & Rory, Sonic Screwdriver, Skaro
River Song        The Moment, Trenzalore, Demon's Run
Amy & Rory        Gallifrey, The Library, Starship UK
================= ==================================================================

The two-player tables (variant "two_player") deal seven cards each and set
four aside, in this row order: Roof, Stained Cushion, Amy, Bathroom (Penny v.
Leonard); Trenzalore, The Moment, River Song, Gallifrey (Clara v. Strax).

Map distances used by the tests (``companion/rules/editions/*.txt``, a door is one step):
Big Bang Theory: Centre to the Stairwell 5, Centre to the Sheldon space r11 5,
q11 to r11 1, p11 to r11 2, Laundry Room to Stairwell 3, m8 to the Centre 2.
Doctor Who: Skaro to Trenzalore 7, Centre to Gallifrey 10, Centre to the
Starship UK 6, p13 to the "?" space q13 1, o13 to q13 2, l9 to the Centre 2.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest
from games import of_type as of_type  # re-exported
from games import play as play
from games import rejected as rejected
from games import types as types
from games import where as where

from companion import DealSpec, GameState, Setup, new_game, public_view, seat_view
from companion.cli.main import main
from companion.rules.actions import Action, PlayCard, UsePower

Events = list[dict[str, Any]]

# -- The Big Bang Theory ---------------------------------------------------------------------------

BBT = "big_bang_theory"
PENNY, RAJ, LEONARD, HOWARD, BERNADETTE, AMY = "Penny", "Raj", "Leonard", "Howard", "Bernadette", "Amy"
BBT_SEATS = (PENNY, RAJ, LEONARD, HOWARD, BERNADETTE, AMY)
BBT_ENVELOPE = (HOWARD, "Wiped Hard Drive", "Kitchen")
BBT_HANDS: Mapping[str, tuple[str, ...]] = {
    PENNY: (PENNY, "Dismantled Shelbot", "Laundry Room"),
    RAJ: (RAJ, "Petrified Toothbrush", "Bathroom"),
    LEONARD: (LEONARD, "Dog-eared Comic", "Stairwell"),
    HOWARD: (BERNADETTE, "Erased Equation Board", "Roof"),
    BERNADETTE: (AMY, "Stained Cushion", "Living Room (Penny)"),
    AMY: ("Bedroom (Leonard)", "Bedroom (Sheldon)", "Living Room (Sheldon & Leonard)"),
}
BBT_DEAL = DealSpec(BBT_ENVELOPE, BBT_HANDS)
BBT_ASIDE = ("Roof", "Stained Cushion", AMY, "Bathroom")
BBT_TWO_HANDS: Mapping[str, tuple[str, ...]] = {
    PENNY: (PENNY, RAJ, "Petrified Toothbrush", "Dismantled Shelbot", "Laundry Room", "Living Room (Penny)",
            "Stairwell"),
    LEONARD: (LEONARD, BERNADETTE, "Dog-eared Comic", "Erased Equation Board", "Bedroom (Leonard)",
              "Bedroom (Sheldon)", "Living Room (Sheldon & Leonard)"),
}
BBT_TWO_DEAL = DealSpec(BBT_ENVELOPE, BBT_TWO_HANDS, aside=BBT_ASIDE)

# -- Doctor Who ------------------------------------------------------------------------------------

DW = "doctor_who"
CLARA, STRAX, JENNY, VASTRA, RIVER, PONDS = ("Clara Oswald", "Strax", "Jenny", "Madame Vastra", "River Song",
                                             "Amy & Rory")
DW_SEATS = (CLARA, STRAX, JENNY, VASTRA, RIVER, PONDS)
DW_ENVELOPE = (JENNY, "Strax's Gun", "Platform One")
DW_HANDS: Mapping[str, tuple[str, ...]] = {
    CLARA: (CLARA, "Hallucinogenic Lipstick", "Victorian London"),
    STRAX: (STRAX, VASTRA, "Cyberman Gun"),
    JENNY: (RIVER, "Vortex Manipulator", "The Moon"),
    VASTRA: (PONDS, "Sonic Screwdriver", "Skaro"),
    RIVER: ("The Moment", "Trenzalore", "Demon's Run"),
    PONDS: ("Gallifrey", "The Library", "Starship UK"),
}
DW_DEAL = DealSpec(DW_ENVELOPE, DW_HANDS)
DW_ASIDE = ("Trenzalore", "The Moment", RIVER, "Gallifrey")
DW_TWO_HANDS: Mapping[str, tuple[str, ...]] = {
    CLARA: (CLARA, VASTRA, "Hallucinogenic Lipstick", "Cyberman Gun", "Victorian London", "The Moon", "Skaro"),
    STRAX: (STRAX, PONDS, "Vortex Manipulator", "Sonic Screwdriver", "Demon's Run", "The Library", "Starship UK"),
}
DW_TWO_DEAL = DealSpec(DW_ENVELOPE, DW_TWO_HANDS, aside=DW_ASIDE)
WATCHES = tuple(f"pocketwatch-{n}" for n in range(1, 9))


# -- building scenes -------------------------------------------------------------------------------


def table(
    edition: str,
    first: str,
    at: Mapping[str, str] | None = None,
    seats: tuple[str, ...] | None = None,
    deal: DealSpec | None = None,
    variant: str | None = None,
    seed: int = 7,
    bonus_cards: bool = True,
) -> GameState:
    """A new game of ``edition`` with ``first`` on turn and movers placed as ``at`` says.

    Without ``seats`` the standard six-seat table and its deal (or the
    two-player table and its deal, for the variant) are used.
    """
    if seats is None:
        if variant == "two_player":
            seats = (PENNY, LEONARD) if edition == BBT else (CLARA, STRAX)
            deal = deal or (BBT_TWO_DEAL if edition == BBT else DW_TWO_DEAL)
        else:
            seats = BBT_SEATS if edition == BBT else DW_SEATS
            deal = deal or (BBT_DEAL if edition == BBT else DW_DEAL)
    state, _ = new_game(Setup(edition, seats, seed, deal, first, variant, bonus_cards))
    return placed(state, at or {})


def placed(state: GameState, at: Mapping[str, str]) -> GameState:
    """The movers moved by hand: ``{suspect: room or square}``."""
    for suspect, place in at.items():
        state = state.with_position(suspect, place)
    return state


def on_top(state: GameState, *cards: str, discard: tuple[str, ...] = (), watches: int = 0) -> GameState:
    """The bonus pile set to exactly ``cards`` (top first), with ``watches`` Pocketwatches face up."""
    assert state.bonus is not None
    bonus = state.bonus.evolve(pile=tuple(cards), discard=discard, watches=WATCHES[:watches])
    return state.evolve(bonus=bonus)


def holding(state: GameState, seat: str, *cards: str) -> GameState:
    """``seat`` keeps the given bonus cards (physical ids), as if drawn earlier."""
    assert state.bonus is not None
    return state.evolve(bonus=state.bonus.evolve(held=state.bonus.held + tuple((seat, card) for card in cards)))


def use(how: str, seat: str, card_id: str, **choice: str) -> Action:
    """Play the effect from a kept card (``how == "card"``) or through the seat's power (``"power"``)."""
    return PlayCard(seat, card_id, **choice) if how == "card" else UsePower(seat, **choice)


def ready(state: GameState, how: str, seat: str, card_id: str) -> GameState:
    """For ``how == "card"``, ``seat`` keeps ``card_id``; a power needs nothing."""
    return holding(state, seat, card_id) if how == "card" else state


def announced(how: str, seat: str, card_id: str, power: str) -> dict[str, Any]:
    """The event that opens a played card or a used power."""
    if how == "card":
        return {"type": "card_played", "seat": seat, "card_id": card_id}
    return {"type": "power_used", "seat": seat, "power": power}


def the_only(events: Events, kind: str) -> dict[str, Any]:
    """The one event of a type."""
    found = of_type(events, kind)
    assert len(found) == 1, events
    return found[0]


# -- privacy ---------------------------------------------------------------------------------------


def carried(data: Any) -> set[str]:
    """Every card name where a view or event carries cards (keys card, cards, hand, may_show, revealed...)."""
    found: set[str] = set()
    if isinstance(data, list):
        for item in data:
            found |= carried(item)
    elif isinstance(data, dict):
        for key, value in data.items():
            if key == "card":
                found.add(value)
            elif key in {"cards", "hand", "may_show", "face_up"}:
                found |= set(value)
            elif key == "revealed":
                found |= {card for cards in value.values() for card in cards}
            elif key == "solution" and value is not None:
                found |= set(value.values())
            else:
                found |= carried(value)
    return found


def allowed(state: GameState, seat: str | None) -> set[str]:
    """The cards ``seat`` (None: everyone) may know of: own hand, face up, shown to it, seen, revealed."""
    cards = set(state.face_up) | {card for s in state.revealed for card in state.hand(s)}
    if state.over:
        cards |= set(state.envelope.cards())
    if seat is not None:
        cards |= set(state.hand(seat))
        cards |= {shown.card for shown in state.shown if shown.to == seat}
        cards |= {item.card for item in state.seen if item.seat == seat}
    return cards


def assert_private(state: GameState) -> None:
    """No view, record included, carries a card its viewer may not know; snoops and side cards stay put."""
    for seat in (None, *state.seats):
        view = public_view(state) if seat is None else seat_view(state, seat)
        leaked = carried(view) - allowed(state, seat)
        assert not leaked, f"{seat or 'the table'} may see {sorted(leaked)}"
        for event in view["record"]:
            if event["type"] in ("snooped", "side_card_seen") and event["seat"] != seat:
                assert "card" not in event, (seat, event)
        assert [item["card"] for item in view["seen"]] == [i.card for i in state.seen if i.seat == seat]


# -- game records through the command line ---------------------------------------------------------


def record(setup: Setup, actions: Iterable[Action]) -> list[dict[str, Any]]:
    """A game record's lines: the setup line, then one line per action."""
    return [setup.to_record(), *(action.to_record() for action in actions)]


def replay(tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[dict[str, Any]],
           *options: str) -> list[dict[str, Any]]:
    """``clue-companion replay FILE *options``: each printed JSON object (exit code 0, nothing on stderr)."""
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    capsys.readouterr()
    code = main(["replay", str(path), *options])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return [json.loads(line) for line in out.splitlines()]


def strings(data: Any) -> set[str]:
    """Every string value (not key) anywhere in a JSON document."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, list):
        return {text for item in data for text in strings(item)}
    if isinstance(data, dict):
        return {text for value in data.values() for text in strings(value)}
    return set()
