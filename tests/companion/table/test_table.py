"""The table: sensor facts become moves, shown cards and corrections; actions are stored before shown."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from companion.rules.actions import Accuse, EndTurn, Move, Roll, Suggest
from companion.rules.deal import deal_cards
from companion.rules.edition import load_edition
from companion.table import bot_seats
from companion.table.commands import (BoardDown, BoardUp, EndGame, NewGame, Play, Resume, StartGame, TagLost, TagSeen,
                                      Tick)
from companion.table.resume import replay_game
from companion.table.store import Store
from companion.table.table import Table
from companion.table.tags import Piece, TagMap
from companion.table.zones import ZoneMap

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
CLASSIC = load_edition("classic")
ZONES = ZoneMap.default(CLASSIC)
KITCHEN, LOUNGE, CENTRE, PAD1 = 0, 6, 9, 10


def uid_of(piece: Piece) -> str:
    kinds = {"card": 0x10, "mover": 0x20, "weapon": 0x30}
    names = {"card": CLASSIC.deck.all, "mover": CLASSIC.deck.suspects, "weapon": CLASSIC.deck.weapons}
    return f"04:{kinds[piece.kind]:02X}:{names[piece.kind].index(piece.name):02X}:00:00:00:01"


def tag_map() -> TagMap:
    pieces = [Piece("card", card) for card in CLASSIC.deck.all] + [Piece("mover", s) for s in CLASSIC.deck.suspects]
    pieces += [Piece("weapon", w) for w in CLASSIC.deck.weapons]
    return TagMap({uid_of(piece): piece for piece in pieces})


class Signals:
    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []

    def set_leds(self, mode: str, colour: tuple[int, int, int] = (0, 0, 0), leds: tuple[int, ...] = ()) -> None:
        self.calls.append(("leds", mode, leds))

    def buzz(self, frequency: int, duration_ms: int) -> None:
        self.calls.append(("buzz",))


@pytest.fixture
def store() -> Iterator[Store]:
    with Store(":memory:").open() as opened:
        for uid, piece in tag_map().items():
            opened.enrol("classic", uid, piece)
        yield opened


def open_table(store: Store, signals: Signals | None = None, **game: object) -> Table:
    table = Table(store=store, signals=signals)
    assert table.handle(NewGame("classic", SEATS, seed=7, **game)).ok  # type: ignore[arg-type]
    return table


def board_matching(table: Table) -> None:
    """The board is connected and shows every weapon where the game put it."""
    state = table.state
    assert state is not None
    tags = frozenset((ZONES.room_reader(room), uid_of(Piece("weapon", weapon)))
                     for weapon, room in zip(CLASSIC.deck.weapons, state.weapons))
    table.handle(BoardUp(24, tags))  # type: ignore[arg-type]


def mover(name: str) -> str:
    return uid_of(Piece("mover", name))


def card(name: str) -> str:
    return uid_of(Piece("card", name))


def started(store: Store, signals: Signals | None = None, **game: object) -> Table:
    table = open_table(store, signals, **game)
    assert table.handle(StartGame()).ok
    board_matching(table)
    return table


def test_a_legal_room_sighting_becomes_a_move_and_is_stored_before_it_is_seen(store: Store) -> None:
    table = started(store, dice="physical")
    assert table.handle(Play("Miss Scarlet", Roll("Miss Scarlet", (6,)))).ok  # h25 to the Lounge is 6 steps
    table.handle(TagSeen(LOUNGE, mover("Miss Scarlet")))
    assert table.state is not None and table.state.position("Miss Scarlet") == "Lounge"
    assert table.game_id is not None
    assert len(store.record(table.game_id)) == 1 + table.state.actions  # setup line + every action
    assert table.view("Miss Scarlet")["phase"] == "moved"


def test_a_mover_where_it_cannot_go_is_put_back_and_the_game_waits(store: Store) -> None:
    signals = Signals()
    table = started(store, signals, dice="physical")
    table.handle(Play("Miss Scarlet", Roll("Miss Scarlet", (1,))))
    table.handle(TagSeen(KITCHEN, mover("Colonel Mustard")))
    view = table.view("Colonel Mustard")
    assert view["board"]["waiting"] and view["notice"]["code"] == "put_back"
    assert "Colonel Mustard" in view["board"]["corrections"][0]
    assert table.view(None)["notice"]["text"] == view["notice"]["text"]
    assert ("buzz",) in signals.calls and any(call[:2] == ("leds", "blink") for call in signals.calls)
    refused = table.handle(Play("Miss Scarlet", EndTurn("Miss Scarlet")))
    assert not refused.ok and refused.error is not None and refused.error["code"] == "board_mismatch"
    assert table.view("Miss Scarlet")["notice"]["code"] == "board_mismatch"
    table.handle(TagLost(KITCHEN, mover("Colonel Mustard")))  # lifted back to his start square
    assert not table.view(None)["board"]["waiting"]
    assert table.view("Miss Scarlet")["notice"] is None and table.view("Colonel Mustard")["notice"] is None
    assert signals.calls[-1] == ("leds", "off", ())
    assert table.handle(Play("Miss Scarlet", Move("Miss Scarlet", "h24"))).ok  # a hallway step, from the handheld


def test_a_card_tapped_on_the_asked_seats_pad_is_the_card_it_shows(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", logger="clue_companion")
    deal, _ = deal_cards(CLASSIC, SEATS, 99)
    table = open_table(store, deal="physical", dice="physical")
    for number, seat in enumerate(SEATS):
        for name in deal.hands[seat]:
            table.handle(TagSeen(PAD1 + number, card(name)))
            table.handle(TagLost(PAD1 + number, card(name)))
    assert table.view(None)["ready"], table.view(None)["problems"]
    assert table.handle(StartGame()).ok
    state = table.state
    assert state is not None and set(state.envelope.cards()) == set(deal.envelope)
    board_matching(table)
    # Scarlet rolls a 6 and walks into the Lounge.
    table.handle(Play("Miss Scarlet", Roll("Miss Scarlet", (6,))))
    table.handle(TagSeen(LOUNGE, mover("Miss Scarlet")))
    mustard = deal.hands["Colonel Mustard"]
    weapon = next(c for c in mustard if c in CLASSIC.deck.weapons) if any(
        c in CLASSIC.deck.weapons for c in mustard) else CLASSIC.deck.weapons[0]
    suspect = next(s for s in CLASSIC.deck.suspects if s not in mustard and s not in SEATS[:1])
    outcome = table.handle(Play("Miss Scarlet", Suggest("Miss Scarlet", suspect, weapon)))
    assert outcome.ok
    asked = table.view(None)["suggestion"]["asked"]
    may_show = table.view(asked)["may_show"]
    assert may_show, "somebody holds a card"
    table.handle(TagSeen(PAD1 + SEATS.index(asked), card(may_show[0])))
    assert table.view("Miss Scarlet")["shown_to_me"] == [{"by": asked, "card": may_show[0]}]
    other = next(seat for seat in SEATS if seat not in ("Miss Scarlet", asked))
    shown = [event for event in table.view(other)["record"] if event["type"] == "card_shown"]
    assert shown == [{"type": "card_shown", "by": asked, "to": "Miss Scarlet"}]  # that a card was shown, not which
    logged = [getattr(record, "fields", {}) for record in caplog.records]
    assert {"type": "show", "seat": asked} in [{k: v for k, v in f.items() if k in ("type", "seat", "card")}
                                               for f in logged]
    assert not any(f.get("card") for f in logged), "the log must not say which card was shown"


def test_setup_refuses_to_start_until_every_card_is_scanned(store: Store) -> None:
    table = open_table(store, deal="physical")
    table.handle(TagSeen(PAD1, card("Rope")))
    outcome = table.handle(StartGame())
    assert not outcome.ok and outcome.error is not None and outcome.error["code"] == "bad_deal"
    assert table.view("Miss Scarlet")["hand"] == ["Rope"] and table.view("Mrs. White")["hand"] == []


def test_the_dice_are_the_companions_or_the_players_as_the_game_says(store: Store) -> None:
    table = started(store)
    refused = table.handle(Play("Miss Scarlet", Roll("Miss Scarlet", (3,))))
    assert refused.error is not None and refused.error["code"] == "dice_mode"
    physical = started(Store(":memory:").open(), dice="physical")
    refused = physical.handle(Play("Miss Scarlet", Roll("Miss Scarlet")))
    assert refused.error is not None and refused.error["code"] == "dice_mode"


def test_an_unknown_tag_on_a_pad_is_named_to_that_seat(store: Store) -> None:
    table = started(store)
    table.handle(TagSeen(PAD1 + 1, "04:99:99:99"))
    notice = table.view("Colonel Mustard")["notice"]
    assert notice["code"] == "unknown_tag" and "04:99:99:99" in notice["text"] and "enroll" in notice["text"]


def test_resume_replays_to_the_same_game_and_reconciles_the_board(store: Store) -> None:
    table = started(store, dice="physical")
    table.handle(Play("Miss Scarlet", Roll("Miss Scarlet", (6,))))
    table.handle(TagSeen(LOUNGE, mover("Miss Scarlet")))
    table.handle(Play("Miss Scarlet", Accuse("Miss Scarlet", "Mrs. White", "Rope", "Lounge")))
    before, game_id = table.state, table.game_id
    assert game_id is not None
    again = Table(store=store)
    again.handle(BoardUp(24, frozenset()))  # the board came back empty
    assert again.handle(Resume(game_id)).ok
    assert again.state == before
    setup, actions, _ = store.load(game_id)
    assert replay_game(setup, actions) == before
    differences = again.view(None)["board"]["differences"]
    assert any("Miss Scarlet" in text for text in differences) and len(differences) >= 6
    assert "differs" in again.view(None)["notice"]["text"]


def test_board_loss_is_told_to_the_table_once_and_why_only_to_the_host(store: Store) -> None:
    table = started(store)
    reason = "permission denied opening /dev/ttyACM0: add the user clue to the dialout group"
    table.handle(BoardDown(reason))
    view = table.view(None)
    assert view["link"] == "down" and view["notice"]["text"].startswith("Board disconnected: searching for it.")
    assert table.board.reason == reason  # what the host page shows
    assert all("ttyACM0" not in str(table.view(seat)) for seat in (None, *SEATS))  # no device path on any page
    told = view["notice"]["id"]
    table.handle(BoardDown("/dev/ttyACM0 is not there: is the board plugged in?"))  # another reason, still down
    assert table.view(None)["notice"]["id"] == told and table.board.reason.endswith("plugged in?")
    table.handle(BoardUp(24, frozenset()))
    assert table.board.reason is None and table.view(None)["link"] == "up"


def test_a_board_never_seen_is_no_board_yet_not_disconnected() -> None:
    table = Table()
    table.handle(BoardDown("no board found (no USB serial device with vendor ID 0x2E8A); plug it in, or name its device (--serial, or [board] port in the config)"))
    notice = table.view(None)["notice"]
    assert notice["text"].startswith("No board yet: searching for it.") and notice["code"] == "board_down"


def test_a_refusal_notice_lasts_until_the_seat_plays_and_the_game_ending_clears_all(store: Store) -> None:
    table = started(store)
    assert not table.handle(Play("Colonel Mustard", Roll("Colonel Mustard"))).ok
    assert table.view("Colonel Mustard")["notice"]["code"] == "not_your_turn"
    assert table.handle(Play("Miss Scarlet", Roll("Miss Scarlet"))).ok
    assert table.view("Colonel Mustard")["notice"]["code"] == "not_your_turn"  # someone else's action: kept
    table.handle(BoardDown("unplugged"))
    assert table.handle(EndGame()).ok
    assert all(table.view(seat)["notice"] is None for seat in (None, *SEATS))


def test_a_seats_own_action_clears_its_old_notice(store: Store) -> None:
    table = started(store)
    assert not table.handle(Play("Miss Scarlet", Move("Miss Scarlet", "Lounge"))).ok  # not rolled yet
    assert table.view("Miss Scarlet")["notice"] is not None
    assert "The board matches the game" in table.view(None)["notice"]["text"]
    assert table.handle(Play("Miss Scarlet", Roll("Miss Scarlet"))).ok
    assert table.view("Miss Scarlet")["notice"] is None and table.view(None)["notice"] is None


def test_a_game_cannot_be_played_before_it_starts(store: Store) -> None:
    table = open_table(store)
    outcome = table.handle(Play("Miss Scarlet", Roll("Miss Scarlet")))
    assert outcome.error is not None and outcome.error["code"] == "not_started"
    idle = Table().handle(Play("Miss Scarlet", Roll("Miss Scarlet")))
    assert idle.error is not None and idle.error["code"] == "no_game"


# ---- computer players at the table ---------------------------------------------------------------


def test_bots_take_their_turns_after_a_person_and_a_resumed_game_keeps_them(store: Store) -> None:
    table = Table(store=store)
    assert table.handle(NewGame("classic", SEATS, seed=7, bots=(("Colonel Mustard", "expert"),
                                                                   ("Mrs. White", "random")))).ok
    assert table.handle(StartGame()).ok
    assert table.view(None)["settings"]["bots"] == "Colonel Mustard=expert,Mrs. White=random"
    assert table.handle(Play("Miss Scarlet", Roll("Miss Scarlet"))).ok
    state = table.state
    assert state is not None
    assert table.handle(Play("Miss Scarlet", Move("Miss Scarlet", sorted(table.view("Miss Scarlet")["legal_destinations"])[0]))).ok
    if table.state is not None and table.state.turn.seat == "Miss Scarlet" and table.state.turn.phase.value != "start":
        assert table.handle(Play("Miss Scarlet", EndTurn("Miss Scarlet"))).ok
    state = table.state
    assert state is not None
    # Both bots have played a whole turn each; the game is back with Miss Scarlet (or over).
    assert state.over or (state.turn.seat == "Miss Scarlet" and state.turn.phase.value == "start")
    assert {"Colonel Mustard", "Mrs. White"} <= {e.seat for e in state.log if e.type == "turn_started"}
    assert table.game_id is not None and not state.over
    again = Table(store=store)  # the Pi restarted: the game is resumed from the store
    assert again.handle(Resume(table.game_id)).ok
    assert again.settings["bots"] == "Colonel Mustard=expert,Mrs. White=random"
    assert again.handle(Play("Miss Scarlet", Roll("Miss Scarlet"))).ok
    assert again.handle(Play("Miss Scarlet", Move("Miss Scarlet", sorted(again.view("Miss Scarlet")["legal_destinations"])[0]))).ok
    if again.state is not None and again.state.turn.seat == "Miss Scarlet" and again.state.turn.phase.value != "start":
        assert again.handle(Play("Miss Scarlet", EndTurn("Miss Scarlet"))).ok
    assert again.state is not None and again.state.turn.seat == "Miss Scarlet" or again.state.over
    assert again.state.actions > state.actions + 4


def test_a_slow_bot_thinks_off_the_tables_thread_and_acts_once_the_table_is_woken(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_seats, "SLOW", -1.0)  # every decision counts as slow (a 10-player game's can take seconds)
    woken = threading.Event()
    table = Table(store=store)
    table.wake = woken.set  # the session's: it submits a Tick
    assert table.handle(NewGame("classic", SEATS, seed=7, bots=(("Colonel Mustard", "expert"),))).ok
    assert table.handle(StartGame()).ok
    assert table.handle(Play("Miss Scarlet", Roll("Miss Scarlet"))).ok
    assert table.handle(Play("Miss Scarlet", Move("Miss Scarlet", sorted(table.view("Miss Scarlet")["legal_destinations"])[0]))).ok
    if table.state is not None and table.state.turn.seat == "Miss Scarlet":
        assert table.handle(Play("Miss Scarlet", EndTurn("Miss Scarlet"))).ok
    # The bot's first decision was made at once; from then on it thinks on a helper thread.
    assert table.state is not None and table.state.turn.seat == "Colonel Mustard"
    thinking = table.state.actions
    refused = table.handle(Play("Mrs. White", Roll("Mrs. White")))  # the table still answers meanwhile
    assert refused.error is not None and refused.error["code"] == "not_your_turn"
    for _ in range(40):
        if table.state.over or table.state.turn.seat != "Colonel Mustard":
            break
        assert woken.wait(timeout=10), "the bot's decision never woke the table"
        woken.clear()
        assert table.handle(Tick()).ok  # what the session does when woken
    assert table.state.actions > thinking
    assert table.state.over or table.state.turn.seat == "Mrs. White"


def test_a_bots_move_on_a_sensed_board_is_asked_of_a_person_and_the_sensed_move_is_its_move(store: Store) -> None:
    table = Table(store=store)
    assert table.handle(NewGame("classic", SEATS, seed=4, dice="physical", bots=(("Miss Scarlet", "expert"),))).ok
    table.handle(BoardUp(24, frozenset()))  # type: ignore[arg-type]
    # The seed-4 game rolls Miss Scarlet a 6 (h25 to the Lounge); a bot's roll is the companion's.
    assert table.handle(StartGame()).ok  # the bot rolls, then must have its mover carried
    state = table.state
    assert state is not None and state.turn.seat == "Miss Scarlet" and state.turn.phase.value == "moving"
    notice = table.view(None)["notice"]
    assert notice["code"] == "bot_move" and notice["text"].startswith("Move Miss Scarlet to ")
    assert table.view("Miss Scarlet")["notice"]["text"] == notice["text"]
    assert state.position("Miss Scarlet") == "h25"  # nothing moves by itself
    place = notice["text"].removeprefix("Move Miss Scarlet to the ").removeprefix("Move Miss Scarlet to square ")
    place = place.removesuffix(" (a computer player's move).")
    assert place == "Lounge"  # an expert heads for a room it can reach
    table.handle(TagSeen(ZONES.room_reader(place), mover("Miss Scarlet")))
    after = table.state
    assert after is not None and after.position("Miss Scarlet") == place
    assert table.view(None)["notice"] is None or table.view(None)["notice"]["code"] != "bot_move"


def test_bot_seats_are_checked(store: Store) -> None:
    table = Table(store=store)
    refused = table.handle(NewGame("classic", SEATS, bots=(("Mr. Green", "expert"),)))
    assert not refused.ok and "not at the table" in refused.error["message"]
    refused = table.handle(NewGame("classic", SEATS, bots=(("Mrs. White", "genius"),)))
    assert not refused.ok and "bot level" in refused.error["message"]
    refused = table.handle(NewGame("classic", SEATS, deal="physical", bots=(("Mrs. White", "expert"),)))
    assert not refused.ok and "companion to deal" in refused.error["message"]


@pytest.mark.parametrize("spec", ["room:Kitchen", "door:l19", "space:h25", "centre", "seat:1"])
def test_a_card_on_any_kind_of_reader_is_named_only_to_its_holder(store: Store, spec: str) -> None:
    """The table screen and the other seats read "a card"; a hand's card is its holder's secret."""
    table = Table(store=store, zone_specs={16: spec})
    assert table.handle(NewGame("classic", SEATS, seed=7)).ok
    assert table.handle(StartGame()).ok
    board_matching(table)
    state = table.state
    assert state is not None
    holder = SEATS[0]  # seat pad 1 is hers, so a card on it is one she laid there
    secret = state.hand(holder)[0]
    table.handle(TagSeen(16, card(secret)))
    off_its_pads = spec.split(":")[0] in ("door", "space")
    on_her_pad = spec == "seat:1"  # "No card to show now: ... was not used", to her alone
    for viewer in (None, *SEATS):
        view = table.view(viewer)
        told = str(view["board"]) + str(view["notice"])
        assert (secret in told) == (viewer == holder and (off_its_pads or on_her_pad)), (viewer, told)
    assert bool(table.view(None)["board"]["differences"]) == off_its_pads
