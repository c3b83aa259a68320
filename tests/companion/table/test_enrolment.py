"""The guided enrolment flow, as a person at the board goes through it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.edition import bundled_ids, load_edition
from companion.rules.errors import BadInput, ClueError
from companion.table.enrolment import Enrolment, Message, find_piece, piece_argument, pieces_of
from companion.table.tags import Piece, TagError, TagMap

SCARLET = Piece("mover", "Miss Scarlet")
MUSTARD = Piece("mover", "Colonel Mustard")
ROPE = Piece("card", "Rope")
KNIFE = Piece("card", "Knife")
A, B, C = "04:A2:1B:3C", "04:00:00:0B", "04:00:00:0C"


def tap(flow: Enrolment, uid: str, reader: int = 0) -> list[str]:
    """Put the tag on a reader and lift it off again; every line the flow says."""
    return [m.text for m in flow.tag_placed(reader, uid) + flow.tag_removed(reader, uid)]


def flow_for(*pieces: Piece, tags: dict[str, Piece] | None = None, reads: int = 3, mode: str = "enrol",
             edition: str = "classic") -> Enrolment:
    return Enrolment(edition, TagMap(tags), list(pieces), reads=reads, mode=mode)


# ---- the vote -----------------------------------------------------------------------------------


def test_scarlets_mover_is_tapped_three_times_and_enrolled():
    flow = flow_for(SCARLET, MUSTARD)
    assert flow.prompt() == "Tap Miss Scarlet's mover on any reader (read 1 of 3)"
    assert tap(flow, "04:a2:1b:3c", reader=5) == [
        "Read 1 of 3: 04:A2:1B:3C", "Lift it off the reader",
        "Tap Miss Scarlet's mover on any reader (read 2 of 3)"]
    tap(flow, A, reader=2)
    placed = flow.tag_placed(7, A)
    assert placed[0] == Message("Miss Scarlet's mover is 04:A2:1B:3C (3 of 3 reads)", "ok", SCARLET, A)
    assert flow.results == {SCARLET: A}
    assert flow.prompt() == "Lift it off the reader"
    assert [m.text for m in flow.tag_removed(7, A)] == ["Tap Colonel Mustard's mover on any reader (read 1 of 3)"]


def test_the_uid_read_more_than_half_the_time_wins():
    flow = flow_for(ROPE)
    for uid in (A, B):
        tap(flow, uid)
    assert tap(flow, A)[0] == "The Rope card is 04:A2:1B:3C (2 of 3 reads)"
    assert flow.results == {ROPE: A} and flow.done


def test_reads_that_disagree_name_every_uid_and_start_again_from_read_1():
    flow = flow_for(ROPE)
    tap(flow, A)
    tap(flow, B)
    said = tap(flow, C)
    assert said[0] == ("The reads of the Rope card disagree: 04:A2:1B:3C (1x), 04:00:00:0B (1x), 04:00:00:0C (1x). "
                       "Starting again from read 1.")
    assert said[-1] == "Tap the Rope card on any reader (read 1 of 3)"
    assert flow.results == {} and not flow.done
    for _ in range(3):
        tap(flow, C)
    assert flow.results == {ROPE: C}


def test_with_two_reads_both_must_agree():
    flow = flow_for(ROPE, reads=2)
    tap(flow, A)
    assert "disagree" in tap(flow, B)[0]
    assert flow.progress() == (0, 1)


def test_one_read_decides_at_once():
    flow = flow_for(ROPE, KNIFE, reads=1)
    assert tap(flow, A)[0] == "The Rope card is 04:A2:1B:3C (1 of 1 reads)"
    assert flow.piece == KNIFE


# ---- refusals ---------------------------------------------------------------------------------


def test_a_tag_that_is_already_another_piece_is_refused_and_the_read_does_not_count():
    flow = flow_for(KNIFE, tags={A: ROPE})
    said = tap(flow, A)
    assert said[0] == ("04:A2:1B:3C is already the Rope card. Use another tag, or re-enrol the Rope card first "
                       "(clue-companion enroll --redo Rope).")
    assert said[-1] == "Tap the Knife card on any reader (read 1 of 3)"
    assert flow.tag_placed(0, A)[0].kind == "error"


def test_a_tag_enrolled_earlier_in_the_same_session_is_refused_for_the_next_piece():
    flow = flow_for(SCARLET, MUSTARD, reads=1)
    tap(flow, A)
    said = tap(flow, A)
    assert said[0].startswith("04:A2:1B:3C is already Miss Scarlet's mover.")
    assert "--redo 'mover:Miss Scarlet'" in said[0]
    assert flow.results == {SCARLET: A}


def test_the_redo_hint_names_the_edition_when_it_is_not_classic():
    flow = flow_for(Piece("weapon", "Wrench"), tags={A: Piece("weapon", "Rope")}, edition="master_detective")
    assert tap(flow, A)[0].endswith("(clue-companion enroll --edition master_detective --redo token:Rope).")


def test_two_tags_on_the_readers_at_once_count_for_nothing():
    flow = flow_for(ROPE)
    flow.tag_placed(0, A)  # read 1 ...
    said = flow.tag_placed(3, B)
    assert said[0].text == ("One tag at a time: 2 tags are on the readers (04:00:00:0B, 04:A2:1B:3C). "
                            "Lift them all, then tap the Rope card again.")
    assert said[0].kind == "error"
    assert said[1].text == "Lift all 2 tags off the readers"
    assert flow.tag_removed(3, B)[0].text == "Lift it off the reader"
    # ... is taken back: the first tag's read was made just before the crowd.
    assert flow.tag_removed(0, A)[0].text == "Tap the Rope card on any reader (read 1 of 3)"


def test_a_read_counts_only_when_the_readers_were_empty():
    flow = flow_for(ROPE)
    flow.tag_placed(0, A)
    flow.tag_placed(1, B)
    flow.tag_removed(0, A)
    assert flow.tag_placed(0, A)[0].text.startswith("One tag at a time")
    assert flow.results == {} and flow.prompt() == "Lift all 2 tags off the readers"


# ---- spares and re-enrolment -------------------------------------------------------------------


def test_a_spare_tag_is_added_beside_the_first_one():
    flow = flow_for(ROPE, tags={A: ROPE}, mode="spare")
    assert flow.prompt() == "Tap a spare tag for the Rope card on any reader (read 1 of 3)"
    assert tap(flow, A)[0] == "04:A2:1B:3C is already a tag of the Rope card: tap a new tag for the spare."
    for _ in range(3):
        said = tap(flow, B)
    assert said[0] == "04:00:00:0B is a spare tag of the Rope card (3 of 3 reads)"
    assert flow.results == {ROPE: B}


def test_redo_replaces_the_old_tags_of_the_piece():
    flow = flow_for(ROPE, KNIFE, tags={A: ROPE, C: KNIFE}, mode="redo", reads=1)
    assert flow.prompt() == "Tap the Rope card on any reader (read 1 of 1)"
    assert tap(flow, C)[0].startswith("04:00:00:0C is already the Knife card.")
    assert tap(flow, B)[0] == "The Rope card is now 04:00:00:0B (1 of 1 reads); it replaces 04:A2:1B:3C"
    # The Rope card's old tag is free now; the Knife card may keep its own.
    assert tap(flow, A)[0] == "The Knife card is now 04:A2:1B:3C (1 of 1 reads); it replaces 04:00:00:0C"


def test_redo_may_keep_the_same_tag():
    flow = flow_for(ROPE, tags={A: ROPE}, mode="redo", reads=1)
    assert tap(flow, A)[0] == "The Rope card is 04:A2:1B:3C (1 of 1 reads)"


def test_plain_enrolment_of_a_piece_that_has_a_tag_points_to_spare_and_redo():
    with pytest.raises(TagError, match=r"the Rope card already has a tag \(04:A2:1B:3C\); add another with "
                                       r"--spare Rope or replace it with --redo Rope"):
        flow_for(ROPE, tags={A: ROPE})


# ---- which pieces, and how far --------------------------------------------------------------------


def test_by_default_only_the_pieces_without_a_tag_are_asked_for():
    flow = Enrolment("classic", TagMap({A: ROPE, B: SCARLET}))
    assert len(flow.pieces) == 31 and ROPE not in flow.pieces and SCARLET not in flow.pieces
    assert flow.progress() == (0, 31)
    assert len(Enrolment("classic", TagMap({A: ROPE}), mode="spare").pieces) == 33


def test_progress_counts_decided_and_skipped_pieces():
    flow = flow_for(SCARLET, MUSTARD, ROPE, reads=1)
    tap(flow, A)
    assert flow.progress() == (1, 3)
    assert [m.text for m in flow.skip()] == ["Skipped Colonel Mustard's mover",
                                             "Tap the Rope card on any reader (read 1 of 1)"]
    assert flow.progress() == (2, 3) and flow.skipped == [MUSTARD]
    tap(flow, B)
    assert flow.done and flow.progress() == (3, 3) and flow.piece is None
    assert flow.results == {SCARLET: A, ROPE: B}
    assert tap(flow, C) == [] and flow.skip() == []


def test_a_skip_in_the_middle_of_a_vote_drops_its_reads():
    flow = flow_for(ROPE, KNIFE)
    tap(flow, A)
    flow.skip()
    assert flow.prompt() == "Tap the Knife card on any reader (read 1 of 3)"


@pytest.mark.parametrize("edition, cards, movers, tokens", [
    ("classic", 21, 6, 6), ("master_detective", 30, 10, 8), ("big_bang_theory", 21, 6, 6), ("doctor_who", 21, 6, 6),
])
def test_every_edition_has_a_tag_for_each_card_mover_and_weapon_token(edition, cards, movers, tokens):
    pieces = pieces_of(load_edition(edition))
    assert [sum(p.kind == kind for p in pieces) for kind in ("card", "mover", "weapon")] == [cards, movers, tokens]
    assert len(set(pieces)) == len(pieces)
    assert [p.kind for p in pieces] == sorted((p.kind for p in pieces), key=("card", "mover", "weapon").index)


def test_cards_come_in_deck_order_suspects_weapons_rooms():
    classic = load_edition("classic")
    names = [p.name for p in pieces_of(classic, ["card"])]
    assert names == list(classic.deck.suspects + classic.deck.weapons + classic.deck.rooms)
    assert pieces_of(classic, ["weapon", "mover"])[0] == SCARLET
    with pytest.raises(TagError, match="unknown kind of piece 'meeple'"):
        pieces_of(classic, ["meeple"])


# ---- names people type ---------------------------------------------------------------------------


@pytest.mark.parametrize("name, kind, piece", [
    ("rope", None, ROPE),
    ("mover:miss  scarlet", None, SCARLET),
    ("token:Rope", None, Piece("weapon", "Rope")),
    ("Miss Scarlet", "mover", SCARLET),
    ("Miss Scarlet", None, Piece("card", "Miss Scarlet")),
    ("Rope", "token", Piece("weapon", "Rope")),
])
def test_pieces_are_found_by_the_names_people_type(name, kind, piece):
    assert find_piece(load_edition("classic"), name, kind) == piece


def test_an_edition_alias_finds_the_printed_name():
    assert find_piece(load_edition("master_detective"), "mover:sgt gray") == Piece("mover", "Sergeant Gray")


@pytest.mark.parametrize("name, message", [
    ("Ropee", "no card 'Ropee' in Classic CLUE (did you mean Rope?); cards are: Miss Scarlet,"),
    ("mover:Rope", "no mover 'Rope' in Classic CLUE (did you mean Rope or token:Rope?); movers are: Miss Scarlet,"),
    ("Cellar", "no card 'Cellar' in Classic CLUE; cards are: Miss Scarlet,"),
])
def test_an_unknown_name_is_refused_with_close_and_valid_names(name, message):
    with pytest.raises(TagError) as caught:
        find_piece(load_edition("classic"), name)
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, ValueError) and caught.value.code == "tag"


def test_an_unknown_kind_is_refused():
    with pytest.raises(TagError, match="unknown kind of piece 'meeple' for 'Rope'; expected card, mover or token"):
        find_piece(load_edition("classic"), "Rope", "meeple")


def test_the_command_line_names_quote_what_a_shell_would_split():
    assert [piece_argument(p) for p in (ROPE, SCARLET, Piece("weapon", "Lead Pipe"))] == [
        "Rope", "'mover:Miss Scarlet'", "'token:Lead Pipe'"]


@pytest.mark.parametrize("kwargs, error", [
    ({"reads": 0}, BadInput), ({"mode": "again"}, BadInput), ({"pieces": [Piece("card", "Bathroom")]}, TagError),
    ({"pieces": [ROPE, ROPE]}, TagError),
])
def test_a_flow_that_cannot_be_run_is_refused(kwargs, error):
    with pytest.raises(error) as caught:
        Enrolment("classic", TagMap(), **kwargs)
    assert isinstance(caught.value, ClueError)


def test_every_bundled_edition_can_be_enrolled():
    for edition in bundled_ids():
        assert Enrolment(edition, TagMap()).prompt().startswith("Tap the ")


# ---- properties -----------------------------------------------------------------------------------


@settings(deadline=None)
@given(st.integers(1, 5), st.lists(st.sampled_from([A, B, C]), min_size=1, max_size=30))
def test_a_piece_is_only_ever_given_a_uid_read_more_than_half_the_time(reads, taps):
    flow = flow_for(ROPE, reads=reads)
    since_reset: list[str] = []
    for uid in taps:
        messages = flow.tag_placed(0, uid)
        since_reset.append(uid)
        if flow.done:
            assert since_reset.count(flow.results[ROPE]) * 2 > reads == len(since_reset)
            return
        if len(since_reset) == reads:
            assert any("disagree" in m.text for m in messages)
            since_reset = []
        flow.tag_removed(0, uid)
    assert flow.results == {}
