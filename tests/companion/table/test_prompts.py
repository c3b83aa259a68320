"""The handheld's menus, played as the rulebook's turns on real engine views."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from games import GREEN, MUSTARD, PEACOCK, SCARLET, WHITE, game, play
from hypothesis import example, given, settings
from hypothesis import strategies as st
from prompt_views import JOIN_URL, choose, presses, session_view, shows

from companion import Accuse, EndTurn, Move, Roll, Setup, Show, Suggest, apply, new_game
from companion.deduction.playout import choose as random_action
from companion.rules.actions import Draw, Pass, Snoop
from companion.rules.errors import BadInput, ClueError
from companion.table.commands import Play, StartGame
from companion.table.prompts import Menu, Screen, press, screen_for, screen_text


def test_scarlet_rolls_then_picks_the_lounge_from_the_destinations() -> None:
    state = game()
    view = session_view(state, SCARLET)
    screen = shows(view)
    assert (screen.kind, screen.title) == ("roll", "Your turn")
    assert screen.items == ("Roll dice", "Accuse", "Hand, notes, QR")
    assert "End turn" not in screen.items  # she must roll first
    menu, command = press(view, Menu(), "ok")
    assert command == Play(SCARLET, Roll(SCARLET))

    state, _ = play(state, Roll(SCARLET, (6,)))
    view = session_view(state, SCARLET)
    screen = screen_for(view, menu)
    assert screen.kind == "destinations"
    assert screen.items[0] == "Lounge"  # rooms before squares
    assert screen.title == "Move 6: where to?" and screen.lines == ("Or move your token.",)
    _, command = choose(view, "Lounge", menu)
    assert command == Play(SCARLET, Move(SCARLET, "Lounge"))


def test_the_destinations_say_nothing_of_the_board_when_its_link_is_down() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)))
    assert shows(session_view(state, SCARLET, link="down")).lines == ()


def test_having_entered_a_room_she_suggests_a_suspect_then_a_weapon() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"))
    view = session_view(state, SCARLET)
    assert shows(view).items == ("Suggest", "Accuse", "End turn", "Hand, notes, QR")
    menu, _ = choose(view, "Suggest")
    screen = screen_for(view, menu)
    assert (screen.kind, screen.lines) == ("suggest_suspect", ("in the Lounge",))
    menu, command = choose(view, MUSTARD, menu)
    assert command is None
    screen = screen_for(view, menu)
    assert (screen.kind, screen.items[:2]) == ("suggest_weapon", ("Candlestick", "Knife"))
    menu, command = choose(view, "Knife", menu)
    assert command == Play(SCARLET, Suggest(SCARLET, MUSTARD, "Knife"))
    assert menu.step == "home"


def test_back_steps_out_of_a_suggestion_one_choice_at_a_time() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"))
    view = session_view(state, SCARLET)
    menu, _ = choose(view, "Suggest")
    menu, _ = choose(view, GREEN, menu)
    menu, command = press(view, menu, "back")
    screen = screen_for(view, menu)
    assert command is None and screen.kind == "suggest_suspect"
    assert screen.items[screen.cursor] == GREEN  # the cursor is back on her first choice
    menu, _ = press(view, menu, "back")
    assert screen_for(view, menu).kind == "turn"


def test_no_suggestion_without_entering_a_room_this_turn() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), EndTurn(SCARLET),
                    Roll(MUSTARD, (1,)), Move(MUSTARD, "b18"), EndTurn(MUSTARD),
                    Roll(WHITE, (1,)), Move(WHITE, "j2"), EndTurn(WHITE))
    view = session_view(state, SCARLET)
    assert "Suggest" not in shows(view).items  # still in the Lounge, but she has not moved yet


def test_a_suspect_brought_in_by_a_suggestion_may_suggest_there_without_moving() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), Suggest(SCARLET, MUSTARD, "Knife"),
                    Show(MUSTARD, "Knife"), EndTurn(SCARLET))
    view = session_view(state, MUSTARD)
    assert "Suggest" in shows(view).items
    assert choose(view, "Suggest")[0].step == "suggest_suspect"


def test_the_lounge_offers_the_secret_passage_before_rolling() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), EndTurn(SCARLET),
                    Roll(MUSTARD, (1,)), Move(MUSTARD, "b18"), EndTurn(MUSTARD),
                    Roll(WHITE, (1,)), Move(WHITE, "j2"), EndTurn(WHITE))
    view = session_view(state, SCARLET)
    _, command = choose(view, "Passage to Conservatory")
    assert command == Play(SCARLET, Move(SCARLET, "Conservatory"))


def test_an_accusation_names_suspect_weapon_room_and_asks_before_it_is_made() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"))
    view = session_view(state, SCARLET)
    menu, _ = choose(view, "Accuse")
    menu, _ = choose(view, "Professor Plum", menu)
    menu, _ = choose(view, "Wrench", menu)
    assert screen_for(view, menu).lines == ("Professor Plum, Wrench",)
    menu, _ = choose(view, "Kitchen", menu)
    screen = screen_for(view, menu)
    assert screen.kind == "accuse" and screen.items[screen.cursor] == "Cancel"  # ok alone never accuses
    _, command = press(view, menu, "ok")
    assert command is None
    _, command = choose(view, "Accuse Professor Plum, Wrench, Kitchen", menu)
    assert command == Play(SCARLET, Accuse(SCARLET, "Professor Plum", "Wrench", "Kitchen"))


def test_after_a_wrong_accusation_only_ending_the_turn_is_offered() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), Accuse(SCARLET, GREEN, "Rope", "Hall"))
    view = session_view(state, SCARLET)
    screen = shows(view)
    assert (screen.title, screen.items) == ("Wrong: you are out", ("End turn",))
    assert press(view, Menu(), "ok")[1] == Play(SCARLET, EndTurn(SCARLET))


def test_the_asked_player_may_show_only_the_named_cards_they_hold() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), Suggest(SCARLET, MUSTARD, "Knife"))
    view = session_view(state, MUSTARD)
    screen = shows(view)
    assert (screen.kind, screen.lines) == ("show", ("to Miss Scarlet:",))
    assert screen.items == (MUSTARD, "Knife")  # Lounge was named too, but he does not hold it
    _, command = choose(view, "Knife")
    assert command == Play(MUSTARD, Show(MUSTARD, "Knife"))


def test_an_asked_player_without_a_named_card_can_only_pass() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), Suggest(SCARLET, MUSTARD, "Knife"))
    view = session_view(state, MUSTARD, may_show=[])
    assert shows(view).items == ("Pass: I have none",)
    assert press(view, Menu(), "ok")[1] == Play(MUSTARD, Pass(MUSTARD))


def test_the_others_see_who_is_asked() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), Suggest(SCARLET, MUSTARD, "Knife"))
    for seat in (SCARLET, WHITE):
        screen = shows(session_view(state, seat))
        assert screen.kind == "waiting"
        assert screen.lines == ("Asked: Colonel Mustard", "Colonel Mustard, Knife, Lounge")


def test_the_shown_card_stays_on_screen_until_dismissed() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), Suggest(SCARLET, MUSTARD, "Knife"),
                    Show(MUSTARD, "Knife"))
    view = session_view(state, SCARLET)
    screen = shows(view)
    assert (screen.kind, screen.lines, screen.items) == ("shown", ("Colonel Mustard showed you:",), ("Knife",))
    menu, _ = presses(view, ["down", "up"])
    assert screen_for(view, menu).kind == "shown"
    menu, command = press(view, menu, "ok")
    assert command is None and menu.shown_seen == 1
    assert screen_for(view, menu).items == ("Accuse", "End turn", "Hand, notes, QR")


def test_an_error_notice_shows_until_dismissed_and_a_newer_one_shows_again() -> None:
    state = game()
    notice = {"text": "It is Miss Scarlet's turn, not Mrs. White's.", "code": "not_your_turn", "id": 4}
    view = session_view(state, WHITE, notice=notice)
    screen = shows(view)
    assert (screen.kind, screen.title, screen.lines) == ("error", "Not your turn", (notice["text"],))
    menu, _ = press(view, Menu(), "back")
    assert screen_for(view, menu).kind == "waiting"
    newer = session_view(state, WHITE, notice={**notice, "id": 5})
    assert screen_for(newer, menu).kind == "error"


def test_an_information_notice_is_a_note() -> None:
    view = session_view(game(), WHITE, notice={"text": "The board is back.", "code": None, "id": 1})
    assert (shows(view).kind, shows(view).title) == ("notice", "Note")


def test_board_corrections_hold_the_screen_until_the_board_matches() -> None:
    state = game()
    board = {"waiting": True, "corrections": ["Put Colonel Mustard back in the Kitchen."], "differences": []}
    view = session_view(state, SCARLET, board=board)
    screen = shows(view)
    assert (screen.kind, screen.items) == ("board", ("Put Colonel Mustard back in the Kitchen.",))
    assert press(view, Menu(), "ok")[1] is None  # nothing to do but fix the board
    assert shows(session_view(state, SCARLET)).kind == "roll"


def test_waiting_players_browse_their_hand_their_notes_and_the_pairing_code() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), Suggest(SCARLET, WHITE, "Rope"),
                    Show(WHITE, "Rope"), EndTurn(SCARLET))
    view = session_view(state, SCARLET)
    assert shows(view).kind == "shown"
    menu, _ = press(view, Menu(), "ok")
    assert screen_for(view, menu).kind == "waiting"
    menu, _ = press(view, menu, "down")
    hand = screen_for(view, menu)
    assert (hand.kind, hand.title) == ("hand", "Your cards (6)")
    assert hand.items == (SCARLET, "Candlestick", "Ballroom", "Conservatory", "Dining Room", "Lounge")
    menu, _ = press(view, menu, "ok")
    notes = screen_for(view, menu)
    assert notes.kind == "notebook" and notes.title == "Notes 7/21"
    assert "x Rope (Mrs. White)" in notes.items and "x Candlestick (yours)" in notes.items
    assert "? Professor Plum" in notes.items
    menu, _ = press(view, menu, "ok")
    pairing = screen_for(view, menu)
    assert (pairing.kind, pairing.qr) == ("pairing", JOIN_URL)
    menu, _ = press(view, menu, "down")
    assert screen_for(view, menu).kind == "waiting"  # round again
    menu, _ = press(view, menu, "up")
    menu, _ = press(view, menu, "back")
    assert screen_for(view, menu).kind == "waiting"


def test_up_and_down_run_through_a_page_then_on_to_the_next() -> None:
    view = session_view(game(), WHITE)
    menu, _ = presses(view, ["down"] * 6)
    screen = screen_for(view, menu)
    assert (screen.kind, screen.cursor) == ("hand", 5)
    menu, _ = press(view, menu, "down")
    assert (screen_for(view, menu).kind, screen_for(view, menu).cursor) == ("notebook", 0)
    menu, _ = press(view, menu, "up")
    assert (screen_for(view, menu).kind, screen_for(view, menu).cursor) == ("hand", 5)


def test_browsing_survives_others_moves_but_not_ones_own_turn() -> None:
    state = game()
    menu, _ = presses(session_view(state, MUSTARD), ["down", "ok"])
    state, _ = play(state, Roll(SCARLET, (6,)))
    assert screen_for(session_view(state, MUSTARD), menu).kind == "notebook"
    state, _ = play(state, Move(SCARLET, "Lounge"), EndTurn(SCARLET))
    assert screen_for(session_view(state, MUSTARD), menu).kind == "roll"


def test_a_step_begun_on_ones_turn_ends_with_it() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"))
    menu, _ = choose(session_view(state, SCARLET), "Accuse")
    state, _ = play(state, EndTurn(SCARLET), Roll(MUSTARD, (1,)))
    assert screen_for(session_view(state, SCARLET), menu).kind == "waiting"


def test_physical_dice_are_entered_one_die_at_a_time() -> None:
    state, _ = new_game(Setup("master_detective", (SCARLET, MUSTARD, WHITE), seed=3))
    seat = state.turn.seat
    view = session_view(state, seat, settings={"dice": "physical", "deal": "virtual"})
    menu, _ = choose(view, "Enter dice")
    screen = screen_for(view, menu)
    assert (screen.kind, screen.items, screen.cursor) == ("dice", ("Die 1: 1", "Die 2: -"), 0)
    menu, commands = presses(view, ["up", "up", "ok", "down"], menu)
    screen = screen_for(view, menu)
    assert (screen.items, screen.cursor, commands) == (("Die 1: 3", "Die 2: 6"), 1, [])
    menu, commands = presses(view, ["back"], menu)
    assert screen_for(view, menu).items == ("Die 1: 3", "Die 2: -")
    menu, commands = presses(view, ["ok", "up", "ok"], menu)
    assert commands == [Play(seat, Roll(seat, dice=(3, 2)))]


def test_doctor_whos_question_face_is_on_the_last_die() -> None:
    state, _ = new_game(Setup("doctor_who", ("Clara Oswald", "Strax", "Jenny"), seed=3))
    seat = state.turn.seat
    view = session_view(state, seat, settings={"dice": "physical", "deal": "virtual"})
    menu, _ = choose(view, "Enter dice")
    menu, commands = presses(view, ["ok", "ok"], menu)
    assert commands == [Play(seat, Roll(seat, dice=(1, "?")))]
    assert apply(state, commands[0].action)  # the engine takes it


def test_snoop_and_draw_are_offered_when_the_turn_allows_them() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"))
    view = session_view(state, SCARLET, snoop_at="Lounge", may_draw=[SCARLET])
    screen = shows(view)
    assert "Snoop" in screen.items and "Draw a card" in screen.items
    assert choose(view, "Draw a card")[1] == Play(SCARLET, Draw(SCARLET))
    menu, _ = choose(view, "Snoop")
    assert screen_for(view, menu).items == (MUSTARD, WHITE)
    assert choose(view, WHITE, menu)[1] == Play(SCARLET, Snoop(SCARLET, WHITE))


def test_accusations_are_offered_only_where_the_edition_allows_them() -> None:
    state, _ = new_game(Setup("big_bang_theory", ("Penny", "Raj", "Leonard"), seed=3))
    seat = state.turn.seat
    assert "Accuse" in shows(session_view(state, seat)).items  # everyone starts on the centre space
    state, _ = play(state, Roll(seat, (3, 4)))
    state, _ = play(state, Move(seat, session_view(state, seat)["legal_destinations"][0]))
    assert "Accuse" not in shows(session_view(state, seat)).items


def test_setup_shows_the_scan_and_what_stops_the_start() -> None:
    view: dict[str, Any] = {
        "stage": "setup", "seat": PEACOCK, "seats": [SCARLET, PEACOCK], "edition": "classic",
        "hand": ["Rope", "Hall"], "scanned": {PEACOCK: 2}, "face_up": [], "turn": None, "phase": "setup",
        "problems": ["Rope was scanned by two seats."], "ready": False, "link": "up", "notice": None,
        "board": {"waiting": False, "corrections": [], "differences": []},
        "settings": {"dice": "companion", "deal": "physical"}, "join_url": JOIN_URL, "game_id": None,
        "edition_cards": {"suspects": [], "weapons": ["Rope"], "rooms": ["Hall"]},
    }
    screen = shows(view)
    assert (screen.kind, screen.lines, screen.items) == ("setup", ("Cards scanned: 2", "Rope was scanned by two seats."), ())
    menu, _ = press(view, Menu(), "down")
    assert screen_for(view, menu).items == ("Rope", "Hall")
    ready = {**view, "problems": [], "ready": True}
    assert shows(ready).items == ("Start game", "Cards, QR")
    assert press(ready, Menu(), "ok")[1] == StartGame(PEACOCK)


def test_idle_says_no_game_is_open() -> None:
    view = {"stage": "idle", "seat": None, "seats": [], "phase": "idle", "turn": None, "hand": [], "notice": None}
    assert shows(view).kind == "idle"
    assert presses(view, ["up", "down", "ok", "back"])[1] == []


def test_the_end_names_the_winner_and_the_solution() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"),
                    Accuse(SCARLET, "Professor Plum", "Wrench", "Kitchen"))
    screen = shows(session_view(state, WHITE))
    assert (screen.kind, screen.lines, screen.items) == ("over", ("Miss Scarlet wins.",),
                                                          ("Professor Plum", "Wrench", "Kitchen"))


def test_unknown_buttons_are_refused() -> None:
    with pytest.raises(BadInput, match="'left'"):
        press(session_view(game(), SCARLET), Menu(), "left")


def test_screen_text_marks_the_cursor_and_the_qr_code() -> None:
    text = screen_text(Screen("pairing", "Phone view", ("Scan me",), qr=JOIN_URL, footer="ok: next page"))
    assert text == f"[Phone view]\nScan me\nQR: {JOIN_URL}\n(ok: next page)"


# -- every choice the handheld offers is one the engine accepts --------------------------------------


STEPS = {"suggest_suspect", "suggest_weapon", "accuse", "snoop"}


def _offers(view: dict[str, Any]) -> list[Play]:
    """The command behind each item of the seat's main screen (the ends of long lists), through any steps."""
    offered = []
    count = len(screen_for(view, Menu()).items)
    for index in sorted(set(range(min(count, 4))) | set(range(max(count - 4, 0), count))):
        settled, _ = press(view, Menu(), "up")  # on an action menu: the cursor stays on the first item
        menu, command = press(view, replace(settled, cursor=index), "ok")
        for _ in range(4):  # a suggestion's, accusation's or snoop's steps: take the cursor's choice
            step = screen_for(view, menu)
            if command is not None or step.kind not in STEPS:
                break
            if step.items[step.cursor] == "Cancel":
                menu, _ = press(view, menu, "down")
            menu, command = press(view, menu, "ok")
        if isinstance(command, Play):
            offered.append(command)
    return offered


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), edition=st.sampled_from(["classic", "master_detective", "doctor_who",
                                                                  "big_bang_theory"]))
@example(seed=6328, edition="doctor_who")  # Jenny suggested, moved on to another room: no second suggestion
def test_every_offered_command_is_legal(seed: int, edition: str) -> None:
    rand = random.Random(seed)
    state, _ = new_game(Setup(edition, tuple(rand.sample(_suspects(edition), 3)), seed=seed))
    for _ in range(30):
        if state.over:
            break
        refutation = state.turn.refutation
        seat = refutation.asked if refutation and refutation.asked else state.turn.seat
        for command in _offers(session_view(state, seat)):
            assert command.seat == seat
            try:
                apply(state, command.action)
            except ClueError as err:
                pytest.fail(f"{command} offered but refused: {err}")
        state, _ = apply(state, random_action(rand, state))


def _suspects(edition: str) -> list[str]:
    from companion.rules.edition import load_edition

    return list(load_edition(edition).deck.suspects)


def test_menu_is_a_value() -> None:
    assert Menu() == Menu() and replace(Menu(), cursor=2) != Menu()
