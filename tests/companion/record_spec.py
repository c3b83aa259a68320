"""What the issue fixes about the game record, shared by the replay and property tests."""

from __future__ import annotations

from typing import Any

# The 13 error codes of the record.
CODES = {
    "bad_input", "unknown_card", "unknown_seat", "bad_deal", "not_your_turn", "wrong_phase",
    "illegal_move", "not_in_room", "must_show", "cannot_show", "accusation_location", "must_suggest",
    "eliminated", "game_over",
}

# The table: each Classic event type and the fields it must carry.
CLASSIC_EVENT_FIELDS = {
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

# The events of the three new editions (issue 3): snoop spaces, side cards, bonus decks, powers.
EDITION_EVENT_FIELDS = {
    "snooped": {"seat", "target", "card"},
    "side_card_seen": {"seat", "index", "card"},
    "drew": {"seat", "deck", "card_id"},
    "card_played": {"seat", "card_id"},
    "power_used": {"seat", "power"},
    "hand_revealed": {"seat", "cards"},
}

# Every event type of the record and the fields it carries (as its own seat sees it).
EVENT_FIELDS = CLASSIC_EVENT_FIELDS | EDITION_EVENT_FIELDS

# The card fields of an event that only some viewers may see, and the fields naming those
# viewers: every other viewer's copy of the event lacks the card field. ("drew" and
# "card_played" carry a bonus card's id, which is public; "hand_revealed" is public.)
SECRET_CARDS = {
    "card_shown": ("card", ("by", "to")),
    "cards_dealt": ("cards", ("seat",)),
    "snooped": ("card", ("seat",)),
    "side_card_seen": ("card", ("seat",)),
}

# Where game cards are carried, in events and views. "revealed" maps a seat to its hand laid
# face up; "seen" items (snooped and side cards) carry a "card".
CARD_KEYS = {"hand", "cards", "may_show", "face_up"}


def carried_cards(data: Any) -> set[str]:
    """Card names found where cards are carried: hand, cards, card, may_show, face_up,
    shown_to_me, solution, revealed (seat -> cards); in events (snooped, side_card_seen,
    hand_revealed, card_shown...) and in views ("seen" items carry a "card") alike."""
    found: set[str] = set()
    if isinstance(data, list):
        for item in data:
            found |= carried_cards(item)
    elif isinstance(data, dict):
        for key, value in data.items():
            if key == "shown_to_me":
                found |= {shown["card"] for shown in value}
            elif key in CARD_KEYS:
                found |= set(value)
            elif key == "card":
                found.add(value)
            elif key == "revealed" and isinstance(value, dict):
                found |= {card for cards in value.values() for card in cards}
            elif key == "solution" and value is not None:
                found |= set(value.values())
            else:
                found |= carried_cards(value)
    return found
