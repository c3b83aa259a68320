"""The announcer says the public record aloud, in the table's language, never a secret, never holding the game up."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from companion.rules.actions import Accuse, EndTurn, Move, Roll, Show, Suggest
from companion.table.announcer import Announcer
from companion.table.commands import Configure, EndGame, NewGame, Play, StartGame
from companion.table.fanout import Mailbox, View
from companion.table.session import Session
from companion.table.table import Table
from hardware.speech import MockSpeaker

SCARLET, MUSTARD, WHITE = "Miss Scarlet", "Colonel Mustard", "Mrs. White"
SEATS = (SCARLET, MUSTARD, WHITE)
SEED = 5  # Colonel Mustard is dealt both Professor Plum and the Revolver; the envelope: Scarlet, Candlestick, Study


@contextmanager
def announced(speaker: Any, *, speech: bool = True) -> Iterator[tuple[Session, Announcer]]:
    """A session with an announcer, a 3-seat game open (physical dice, so every roll is chosen)."""
    with Session(Table(seed_source=lambda: 3)) as session, Announcer(session, speaker) as announcer:
        assert session.call(NewGame("classic", SEATS, dice="physical", seed=SEED, speech=speech)).ok
        assert session.call(StartGame()).ok
        yield session, announcer


def play(session: Session, seat: str, action: Any) -> None:
    outcome = session.call(Play(seat, action))
    assert outcome.ok, outcome.error


def suggestion_answered(session: Session, shown: str) -> None:
    """Scarlet walks into the Lounge and suggests Plum with the Revolver; Mustard shows ``shown``."""
    hand = session.inspect(lambda table: table.view(MUSTARD)["hand"])
    assert {"Professor Plum", "Revolver"} <= set(hand)  # the seed's deal, which the secrecy test relies on
    play(session, SCARLET, Roll(SCARLET, (6,)))
    play(session, SCARLET, Move(SCARLET, "Lounge"))
    play(session, SCARLET, Suggest(SCARLET, "Professor Plum", "Revolver"))
    play(session, MUSTARD, Show(MUSTARD, shown))


def to_the_end(session: Session) -> None:
    """Scarlet accuses wrongly and is out; Mustard rolls and accuses rightly."""
    play(session, SCARLET, Accuse(SCARLET, WHITE, "Revolver", "Lounge"))
    play(session, MUSTARD, Roll(MUSTARD, (3,)))
    play(session, MUSTARD, Accuse(MUSTARD, SCARLET, "Candlestick", "Study"))


def settled(announcer: Announcer) -> None:
    assert announcer.wait_idle(3.0)


def test_a_game_is_announced_turn_by_turn_to_the_end() -> None:
    speaker = MockSpeaker()
    with announced(speaker) as (session, announcer):
        suggestion_answered(session, "Revolver")
        to_the_end(session)
        settled(announcer)
    texts = [text for text, _ in speaker.said]
    assert texts == [
        "Miss Scarlet's turn",
        "Miss Scarlet rolls 6.",
        "Miss Scarlet moves to the Lounge.",
        "Miss Scarlet suggests Professor Plum with the Revolver in the Lounge.",
        "Professor Plum is brought into the Lounge.",
        "Colonel Mustard shows Miss Scarlet a card.",
        "Miss Scarlet accuses Mrs. White with the Revolver in the Lounge: wrong.",
        "Miss Scarlet is out, but still answers suggestions.",
        "Colonel Mustard's turn",
        "Colonel Mustard rolls 3.",
        "Colonel Mustard accuses Miss Scarlet with the Candlestick in the Study: right!",
        "Colonel Mustard wins! It was Miss Scarlet with the Candlestick in the Study.",
    ]
    assert {language for _, language in speaker.said} == {"en-US"}


def test_announcements_follow_the_tables_language() -> None:
    speaker = MockSpeaker()
    with announced(speaker) as (session, announcer):
        play(session, SCARLET, Roll(SCARLET, (6,)))
        settled(announcer)
        assert session.call(Configure(locale="en-GB")).ok
        play(session, SCARLET, Move(SCARLET, "Lounge"))
        settled(announcer)
        assert session.call(Configure(locale="de-DE")).ok
        play(session, SCARLET, Suggest(SCARLET, "Professor Plum", "Revolver"))
        settled(announcer)
        assert session.call(Configure(locale="nb-NO")).ok  # Norwegian card names, English sentences
        play(session, MUSTARD, Show(MUSTARD, "Revolver"))
        settled(announcer)
    languages = [language for _, language in speaker.said]
    assert languages[:3] == ["en-US", "en-US", "en-GB"]  # the turn, the roll; the move
    assert set(languages[3:-1]) == {"de-DE"} and len(languages) > 4  # the suggestion and what it brought along
    assert languages[-1] == "en"  # the card shown, read by an English voice


def spoken_game(shown: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[str, str]], list[View]]:
    """Everything said in a whole game where Mustard shows ``shown``, and every view the announcer heard."""
    heard: list[View] = []
    real_hear = Announcer.hear

    def hear(self: Announcer, view: View) -> None:
        heard.append(view)
        real_hear(self, view)

    monkeypatch.setattr(Announcer, "hear", hear)
    subscribed: list[str | None] = []
    real_subscribe = Session.subscribe

    def subscribe(self: Session, seat: str | None) -> Mailbox:
        subscribed.append(seat)
        return real_subscribe(self, seat)

    monkeypatch.setattr(Session, "subscribe", subscribe)
    speaker = MockSpeaker()
    with announced(speaker) as (session, announcer):
        suggestion_answered(session, shown)
        to_the_end(session)
        settled(announcer)
    assert subscribed == [None]  # the announcer asked for the table's view, and only that
    return speaker.said, heard


def test_what_is_said_never_depends_on_which_card_was_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    plum, plum_views = spoken_game("Professor Plum", monkeypatch)
    revolver, revolver_views = spoken_game("Revolver", monkeypatch)
    assert plum == revolver  # word for word: which card was shown cannot be heard
    shows = [text for text, _ in plum if " shows " in text]
    assert shows == ["Colonel Mustard shows Miss Scarlet a card."]
    assert not any(card in shows[0] for card in ("Professor Plum", "Revolver"))
    for view in plum_views + revolver_views:  # only ever the public view: no hand, nothing shown to anyone
        assert view["seat"] is None and view["hand"] == [] and not view.get("shown_to_me")
        assert all("card" not in event for event in view.get("record", []) if event["type"] == "card_shown")


def test_speech_is_off_until_the_host_turns_it_on_and_each_new_game_starts_without_it() -> None:
    speaker = MockSpeaker()
    with announced(speaker, speech=False) as (session, announcer):
        assert session.inspect(lambda table: table.view(None)["house"]["speech"]) is False
        play(session, SCARLET, Roll(SCARLET, (6,)))
        settled(announcer)
        assert speaker.said == []
        assert session.call(Configure(speech=True)).ok
        play(session, SCARLET, Move(SCARLET, "Lounge"))
        settled(announcer)
        assert [text for text, _ in speaker.said] == ["Miss Scarlet moves to the Lounge."]  # not the roll before
        assert session.call(EndGame()).ok and session.call(NewGame("classic", SEATS, dice="physical", seed=SEED)).ok
        assert session.call(StartGame()).ok
        play(session, SCARLET, Roll(SCARLET, (4,)))
        settled(announcer)
        assert len(speaker.said) == 1  # the new game is silent
        assert session.call(EndGame()).ok
        assert session.call(NewGame("classic", SEATS, dice="physical", seed=SEED, speech=True)).ok
        assert session.call(StartGame()).ok
        play(session, SCARLET, Roll(SCARLET, (2,)))
        settled(announcer)
    assert [text for text, _ in speaker.said[1:]] == ["Miss Scarlet's turn", "Miss Scarlet rolls 2."]


def test_a_game_just_like_the_last_is_still_news_to_a_busy_announcer() -> None:
    """A busy announcer may see only the last view of each game; without a store two games of one seed
    and the same moves look alike but for the table's game_number."""
    speaker = MockSpeaker()
    announcer = Announcer(None, speaker)
    with Session(Table(seed_source=lambda: 3)) as session:
        for _ in range(2):
            assert session.call(NewGame("classic", SEATS, dice="physical", seed=SEED, speech=True)).ok
            assert session.call(StartGame()).ok
            play(session, SCARLET, Roll(SCARLET, (2,)))
            announcer.hear(session.inspect(lambda table: table.view(None)))
            assert session.call(EndGame()).ok
    assert [text for text, _ in speaker.said] == ["Miss Scarlet's turn", "Miss Scarlet rolls 2."] * 2


def test_a_new_game_seen_late_is_told_whole_and_a_resumed_one_from_its_current_turn() -> None:
    """A busy announcer may first see a game some actions in: a game begun now is all news, a game from the
    store only from its current turn (its past was played, and heard, before)."""
    speaker = MockSpeaker()
    announcer = Announcer(None, speaker)
    with Session(Table(seed_source=lambda: 3)) as session:
        announcer.hear(session.inspect(lambda table: table.view(None)))  # the idle table
        assert session.call(NewGame("classic", SEATS, dice="physical", seed=SEED, speech=True)).ok
        assert session.call(StartGame()).ok
        play(session, SCARLET, Roll(SCARLET, (6,)))
        play(session, SCARLET, Move(SCARLET, "Lounge"))
        play(session, SCARLET, EndTurn(SCARLET))
        view = session.inspect(lambda table: table.view(None))
    announcer.hear(view)
    assert [text for text, _ in speaker.said][:2] == ["Miss Scarlet's turn", "Miss Scarlet rolls 6."]
    said = MockSpeaker()
    Announcer(None, said).hear({**view, "resumed": True, "game_number": view["game_number"] + 1})
    assert [text for text, _ in said.said] == ["Colonel Mustard's turn"]


class StuckSpeaker:
    """A speaker whose sentence takes seconds (a slow or hung audio device), until released."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.released = threading.Event()
        self.returned = threading.Event()

    def say(self, text: str, language: str) -> None:
        self.entered.set()
        self.released.wait(30)
        self.returned.set()


def test_a_speaker_that_blocks_for_seconds_never_delays_the_game() -> None:
    speaker = StuckSpeaker()
    took: list[float] = []
    with announced(speaker) as (session, _):
        assert speaker.entered.wait(2)  # the announcer is stuck in say() from here on
        for seat, action in ((SCARLET, Roll(SCARLET, (6,))), (SCARLET, Move(SCARLET, "Lounge")),
                             (SCARLET, Suggest(SCARLET, "Professor Plum", "Revolver")),
                             (MUSTARD, Show(MUSTARD, "Revolver"))):
            started = time.monotonic()
            play(session, seat, action)
            took.append(time.monotonic() - started)
        # Every action went through while the speaker was still stuck in its first sentence: a game
        # that waited for speech would have blocked here until say() gave up after 30 s.
        assert not speaker.returned.is_set()
        speaker.released.set()
    assert max(took) < 5  # not a speed limit (a loaded CI machine varies): far below the 30 s stall


def public(speech: bool = True, *, corrections: tuple[str, ...] = (), record: tuple[dict[str, Any], ...] = (),
           locale: str = "en-US") -> View:
    return {"seat": None, "hand": [], "game_id": 1, "actions": len(record), "edition": "classic",
            "record": list(record), "board": {"corrections": list(corrections)},
            "house": {"locale": locale, "house_names": {}, "speech": speech}}


def test_a_board_correction_is_said_once_when_it_appears() -> None:
    speaker = MockSpeaker()
    announcer = Announcer(None, speaker)
    put_back = "Put Miss Scarlet back on the Lounge."
    announcer.hear(public())
    announcer.hear(public(corrections=(put_back,)))
    announcer.hear(public(corrections=(put_back,)))  # still waiting for it: not said again
    announcer.hear(public())
    announcer.hear(public(corrections=(put_back,)))  # wrong again: said again
    assert speaker.said == [(put_back, "en-US"), (put_back, "en-US")]


def test_a_card_in_a_shown_event_is_never_said_even_if_a_view_had_one() -> None:
    speaker = MockSpeaker()
    announcer = Announcer(None, speaker)
    announcer.hear(public())
    leaked = {"type": "card_shown", "by": MUSTARD, "to": SCARLET, "card": "Revolver"}
    announcer.hear(public(record=(leaked,)))
    assert speaker.said == [("Colonel Mustard shows Miss Scarlet a card.", "en-US")]


def test_a_seat_view_is_refused() -> None:
    announcer = Announcer(None, MockSpeaker())
    with pytest.raises(ValueError, match="only reads the public view"):
        announcer.hear({**public(), "seat": MUSTARD, "hand": ["Revolver"]})
