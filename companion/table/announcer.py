"""The announcer: the game's public events said aloud, when the table has speech on.

It reads the session's PUBLIC view only (``session.subscribe(None)``), on its
own thread, so what it can say is what the table screen shows: "Colonel
Mustard shows Miss Scarlet a card", never which card. Each new view is
compared with the last one seen: the record events added since (only the
kinds worth saying: whose turn, rolls, moves, suggestions, answers,
accusations, the end) and the board corrections that are new become
sentences, from :func:`companion.record.narrate.narrator` in the table's
locale with its house names, handed to a speaker (anything with
``say(text, language)``; :mod:`hardware.speech` has the real one).

The session never waits for it: views reach it through a newest-wins
:class:`~companion.table.fanout.Mailbox` (a skipped view loses nothing, as the
record only grows), and the speaker has its own queue.

>>> from companion.table.commands import Configure, NewGame, StartGame
>>> from companion.table.session import Session
>>> from companion.table.table import Table
>>> class Printer:
...     def say(self, text: str, language: str) -> None:
...         print(language, text)
>>> with Session(Table(seed_source=lambda: 7)) as session, Announcer(session, Printer()) as announcer:
...     _ = session.call(NewGame("classic", ("Miss Scarlet", "Mr. Green", "Mrs. White"), speech=True))
...     _ = session.call(StartGame())
...     announcer.wait_idle(2.0)
en-US Miss Scarlet's turn
True
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from companion.language import DEFAULT, parse_locale
from companion.record.narrate import narrator
from companion.rules.spelling import spelled

from .fanout import Mailbox, View

__all__ = ["SPOKEN", "Announcer", "Publisher", "Speaker", "sentences", "spoken_language"]

log = logging.getLogger("clue_companion.announcer")

# The record events said aloud; the rest (the deal, bonus cards, weapons brought along) stay on the screen.
SPOKEN = frozenset({"turn_started", "rolled", "blocked", "moved", "suggested", "passed", "card_shown",
                    "no_refutation", "accused", "eliminated", "game_over"})
# Fields a public event never has; dropped all the same, so no mistake upstream can make the table say them.
SECRET = {"card_shown": "card", "cards_dealt": "cards", "snooped": "card", "side_card_seen": "card"}
POLL = 0.2  # seconds a quiet mailbox is waited on before looking again (stopping, wait_idle)


class Speaker(Protocol):
    def say(self, text: str, language: str) -> None: ...


class Publisher(Protocol):
    """Where views come from: a :class:`~companion.table.session.Session`."""

    def subscribe(self, seat: str | None) -> Mailbox: ...

    def unsubscribe(self, box: Mailbox) -> None: ...


@dataclass
class _Heard:
    """What the announcer has already seen: the game, how far its record goes, the corrections shown."""

    game: object = field(default_factory=object)  # nothing heard yet: any view's game is another game
    actions: int = 0
    record: int = 0
    corrections: frozenset[str] = field(default_factory=frozenset)


class Announcer:
    """Turns the public views' new events into sentences for ``speaker``; see the module docstring.

    Without a ``session`` nothing is subscribed: views are handed to :meth:`hear` by the caller.
    """

    def __init__(self, session: Publisher | None, speaker: Speaker) -> None:
        self._session = session
        self._speaker = speaker
        self._heard = _Heard()
        self._box: Mailbox | None = None
        self._thread: threading.Thread | None = None
        self._handled_upto = 0  # the mailbox version handled so far (wait_idle)
        self.views = 0  # public views handled so far

    def start(self) -> Announcer:
        if self._thread is None and self._session is not None:
            self._box = self._session.subscribe(None)
            self._thread = threading.Thread(target=self._run, name="clue-announcer", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        if self._thread is not None and self._box is not None and self._session is not None:
            self._session.unsubscribe(self._box)
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> Announcer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every view published so far has been handled (tests); False on timeout."""
        box = self._box
        deadline = time.monotonic() + timeout
        while box is not None and self._handled_upto < box.version:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def _run(self) -> None:
        box = self._box
        assert box is not None
        while True:
            upto = box.version  # every view put until now is taken by the get below, or was before
            view = box.get(timeout=POLL)
            if view is not None:
                try:
                    self.hear(view)
                except Exception:  # a bad view or sentence must not end the announcements
                    log.exception("announcer_error")
            elif box.closed:
                return
            self._handled_upto = upto

    def hear(self, view: View) -> None:
        """Say what is new in ``view`` (a public view) since the last one heard."""
        if view.get("seat") is not None or view.get("hand"):
            raise ValueError("the announcer only reads the public view")  # it would never say a secret
        self.views += 1
        events, corrections, self._heard = _news(self._heard, view)
        house = view.get("house") or {}
        if not house.get("speech") or not (events or corrections):
            return
        locale = str(house.get("locale", DEFAULT))
        voice = spoken_language(locale)
        describe = _describer(locale, view.get("edition"), house.get("house_names"), house.get("names_variant"))
        for text in sentences(events, corrections, describe):
            self._speaker.say(text, voice)


def spoken_language(locale: str) -> str:
    """The language to speak a locale's sentences in: the tag ("en-GB": a British voice), unless the locale's
    sentences are in another language (nb-NO narrates in English: an English voice reads them).

    >>> spoken_language("en-GB"), spoken_language("de-CH"), spoken_language("nb-NO")
    ('en-GB', 'de-CH', 'en')
    """
    parsed = parse_locale(locale)
    return parsed.tag if parsed.tag.split("-", 1)[0] == parsed.language else parsed.language


def _news(heard: _Heard, view: View) -> tuple[list[dict[str, Any]], list[str], _Heard]:
    """The record events and board corrections in ``view`` not in what was ``heard`` before, and the new ``heard``."""
    record: Sequence[dict[str, Any]] = view.get("record") or []
    actions = int(view.get("actions") or 0)
    corrections = frozenset(view.get("board", {}).get("corrections") or ())
    new_corrections = sorted(corrections - heard.corrections)
    now = _Heard((view.get("game_id"), view.get("game_number")), actions, len(record), corrections)
    if now.game != heard.game or actions < heard.actions or len(record) < heard.record:
        if not view.get("resumed"):  # a game begun since the table opened, seen late by a busy announcer: all news
            return list(record), new_corrections, now
        # A game resumed from the store: its current turn is news, its past (played before) is not.
        starts = [i for i, event in enumerate(record) if event.get("type") == "turn_started"]
        return list(record[starts[-1]:]) if starts else [], new_corrections, now
    return list(record[heard.record:]), new_corrections, now


def sentences(events: Sequence[dict[str, Any]], corrections: Sequence[str],
              describe: Callable[[dict[str, Any]], str]) -> list[str]:
    """The sentences to say: each spoken event's, then each correction (already a sentence for the table)."""
    said = [_spoken(describe(_public(event))) for event in events if event.get("type") in SPOKEN]
    return [text for text in said + [_spoken(text) for text in corrections] if text]


def _public(event: dict[str, Any]) -> dict[str, Any]:
    secret = SECRET.get(str(event.get("type")))
    return {key: value for key, value in event.items() if key != secret}


def _spoken(sentence: str) -> str:
    """A narrated line as speech: without the dashes that set a turn apart on screen ("-- X's turn --")."""
    return sentence.strip().strip("-\u2013\u2014").strip()


def _describer(locale: str, edition: object, house_names: object,
               variant: object = None) -> Callable[[dict[str, Any]], str]:
    names = dict(house_names) if isinstance(house_names, Mapping) else {}
    box = variant if isinstance(variant, str) and variant else None  # the table's box of names ("1990s")
    return _narrator(locale, str(edition) if edition else "", tuple(sorted(names.items())), box)


@lru_cache(maxsize=8)
def _narrator(locale: str, edition: str, house_names: tuple[tuple[str, str], ...],
              variant: str | None = None) -> Callable[[dict[str, Any]], str]:
    names = spelled(edition, locale, dict(house_names), variant) if edition else dict(house_names)
    return narrator(locale, names, None)
