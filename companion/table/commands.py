"""Commands: what every input source puts on the session's queue.

Board link events, handheld buttons, web requests and bots all become one of
these plain records. The session thread is the only reader of the queue, so it
alone changes the game.

>>> Play("Miss Scarlet", Roll("Miss Scarlet")).seat
'Miss Scarlet'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.rules.actions import Action, Roll  # noqa: F401  (Roll: for the doctest)


@dataclass(frozen=True)
class TagSeen:
    """A reader has seen a tag (settled by the link)."""

    reader: int
    uid: str


@dataclass(frozen=True)
class TagLost:
    """A tag has left a reader."""

    reader: int
    uid: str


@dataclass(frozen=True)
class BoardUp:
    """The board link is up; ``tags`` is everything it sees now (reader, uid)."""

    readers: int
    tags: frozenset[tuple[int, str]] = frozenset()
    failed: frozenset[int] = frozenset()


@dataclass(frozen=True)
class BoardDown:
    reason: str


@dataclass(frozen=True)
class Play:
    """A seat's chosen engine action (from a handheld, the web or a bot)."""

    seat: str
    action: Action


@dataclass(frozen=True)
class NewGame:
    """Open the table for a new game: edition, seats clockwise, how to deal and roll."""

    edition: str
    seats: tuple[str, ...]
    deal: str = "virtual"  # "virtual": the companion deals; "physical": players scan their hands
    dice: str = "companion"  # "companion": rolled here; "physical": entered from real dice
    seed: int | None = None  # None: a fresh random seed
    variant: str | None = None
    bonus_cards: bool = True  # False: the edition's bonus deck stays in the box ("original CLUE")
    assistant: str = "off"  # the detective's assistant on seat views: off, certain, probabilities
    bots: tuple[tuple[str, str], ...] = ()  # (seat, level): computer players
    speech: bool = False  # announcements spoken on the Pi's audio output (companion.table.house)


@dataclass(frozen=True)
class StartGame:
    """Deal (or check the scanned deal) and begin play."""

    seat: str | None = None  # who asked; None: the host


@dataclass(frozen=True)
class Resume:
    """Resume the store's unfinished game ``game_id``."""

    game_id: int


@dataclass(frozen=True)
class EndGame:
    """Abandon the game under way (the host's decision)."""


@dataclass(frozen=True)
class Tick:
    """Nothing happened; lets the session look at the clock."""


@dataclass(frozen=True)
class Stop:
    """End the session thread after the commands before it."""


@dataclass(frozen=True)
class Configure:
    """The host changes the table's locale, box of names, house names or speech (None: left as it is).

    ``names_variant``: the box whose names the locale uses, by id ("1990s", checked against the
    edition and locale: :func:`companion.language.boxes.resolve_variant`); "" clears it (the locale's
    own names). ``keep=False``: the locale and box are for this run only (``run --locale``/``--names``
    without ``--remember``); the store keeps the ones chosen on purpose, even when the house names are
    saved later in the run.
    """

    locale: str | None = None
    house_names: dict[str, str] | None = None
    speech: bool | None = None
    names_variant: str | None = None
    keep: bool = True


@dataclass(frozen=True)
class Notify:
    """Tell a seat (or the table, ``seat=None``) something that is not a game action."""

    seat: str | None
    text: str
    extra: dict[str, str] = field(default_factory=dict)


Command = (TagSeen | TagLost | BoardUp | BoardDown | Play | NewGame | StartGame | Resume | EndGame | Tick | Stop | Notify
           | Configure)
