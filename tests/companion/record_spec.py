"""What the issue fixes about the game record, shared by the replay and property tests."""

from __future__ import annotations

from typing import Any

# The 13 error codes of the record.
CODES = {
    "bad_input", "unknown_card", "unknown_seat", "bad_deal", "not_your_turn", "wrong_phase",
    "illegal_move", "not_in_room", "must_show", "cannot_show", "accusation_location",
    "eliminated", "game_over",
}

# The table: each event type and the fields it must carry.
EVENT_FIELDS = {
    "turn_started": {"seat"},
    "rolled": {"seat", "dice", "total"},
    "moved": {"seat", "to", "via"},
    "suggested": {"seat", "suspect", "weapon", "room"},
    "passed": {"seat"},
    "refute_requested": {"seat", "suggester"},
    "card_shown": {"by", "to", "card"},
    "no_refutation": {"suggester"},
    "accused": {"seat", "suspect", "weapon", "room", "correct"},
    "eliminated": {"seat"},
    "game_over": {"winner", "solution"},
}


def carried_cards(data: Any) -> set[str]:
    """Card names found where cards are carried: hand, cards, card, may_show, shown_to_me, solution."""
    found: set[str] = set()
    if isinstance(data, list):
        for item in data:
            found |= carried_cards(item)
    elif isinstance(data, dict):
        for key, value in data.items():
            if key == "shown_to_me":
                found |= {shown["card"] for shown in value}
            elif key in {"hand", "cards", "may_show"}:
                found |= set(value)
            elif key == "card":
                found.add(value)
            elif key == "solution" and value is not None:
                found |= set(value.values())
            else:
                found |= carried_cards(value)
    return found
