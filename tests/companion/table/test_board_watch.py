"""The board watch: what a settled sighting means, and reconciling the board with the game.

The standard table of ``games.py`` (Scarlet, Mustard, White; seed 7) puts the
weapons in the rooms as: Candlestick in the Lounge, Knife in the Hall, Lead
Pipe in the Study, Revolver in the Billiard Room, Rope in the Library, Wrench in
the Ballroom. Scarlet starts on h25, six steps from the Lounge; Mustard on a18.
Readers are those of docs/hardware.md: Kitchen 0 ... Lounge 6, Hall 7, Study 8,
the centre 9, seat pads 10-15, then the rooms' other antennas (Kitchen 16, ...,
Lounge 24 and 25, Hall 26 and 27, Study 28).
"""

from __future__ import annotations

import random
from collections import defaultdict

from games import MUSTARD, SCARLET, WHITE, game, play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import EndTurn, GameState, Move, Roll, apply, legal_destinations
from companion.deduction.playout import choose, random_setup
from companion.rules.edition import Edition, bundled_ids, load_edition
from companion.rules.engine import new_game
from companion.rules.state import Phase
from companion.table.board_watch import (Agrees, MoveTo, PutBack, Sensed, agrees, differences, differences_data,
                                         expected_places, judge, sightings, signal_for)
from companion.table.tags import Piece, TagMap
from companion.table.zones import Zone, ZoneMap

CLASSIC = load_edition("classic")
ZONES = ZoneMap.default(CLASSIC)
KITCHEN, LIBRARY, LOUNGE, HALL, STUDY, CENTRE = 0, 5, 6, 7, 8, 9
KITCHEN_2, LIBRARY_2, LOUNGE_2, LOUNGE_3, HALL_2, HALL_3 = 16, 23, 24, 25, 26, 27
UNKNOWN = "04:A2:1B:3C"


def uid(piece: Piece, edition: Edition) -> str:
    """A made-up UID per piece: kind, then the piece's place in its category."""
    kind = ("card", "mover", "weapon").index(piece.kind)
    names = edition.deck.all if piece.kind == "card" else edition.deck.suspects + edition.deck.weapons
    return f"04:{kind:02X}:{names.index(piece.name):02X}:00"


def enrolled(edition: Edition) -> TagMap:
    """Every mover, weapon token and card of the edition, one tag each."""
    deck = edition.deck
    pieces = ([Piece("mover", s) for s in deck.suspects] + [Piece("weapon", w) for w in deck.weapons]
              + [Piece("card", c) for c in deck.all])
    return TagMap({uid(piece, edition): piece for piece in pieces})


TAGS = enrolled(CLASSIC)


def mover(name: str) -> Piece:
    return Piece("mover", name)


def weapon(name: str) -> Piece:
    return Piece("weapon", name)


def room(name: str, zones: ZoneMap = ZONES) -> Zone:
    reader = zones.room_reader(name)
    assert reader is not None
    return zones.zone(reader) or Zone("centre")


def board_as_the_game_says(state: GameState, zones: ZoneMap) -> dict[int, set[str]]:
    """Each mover and token on the first reader of its place, if its place has one."""
    sensed: dict[int, set[str]] = defaultdict(set)
    for piece, place in expected_places(state).items():
        readers = zones.readers_for(place)
        if readers:
            sensed[readers[0]].add(uid(piece, state.edition))
    return sensed


def frozen(sensed: dict[int, set[str]]) -> Sensed:
    return {reader: frozenset(uids) for reader, uids in sensed.items()}


def on_reader(sensed: dict[int, set[str]], reader: int, piece: Piece) -> dict[int, set[str]]:
    """The board with ``piece`` lifted from wherever it is and put on ``reader``."""
    tag = uid(piece, CLASSIC)
    moved = lifted(sensed, piece)
    moved[reader].add(tag)
    return moved


def lifted(sensed: dict[int, set[str]], piece: Piece) -> dict[int, set[str]]:
    tag = uid(piece, CLASSIC)
    return defaultdict(set, {r: uids - {tag} for r, uids in sensed.items()})


def scarlet_in_the_lounge_on_her_next_turn() -> GameState:
    """Scarlet rolls 6 into the Lounge; Mustard and White each roll 1 and step off; Scarlet's turn again."""
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), EndTurn(SCARLET))
    for seat in (MUSTARD, WHITE):
        state, _ = play(state, Roll(seat, (1,)))
        state, _ = play(state, Move(seat, legal_destinations(state)[0]), EndTurn(seat))
    assert state.turn.seat == SCARLET and state.turn.phase is Phase.START
    return state


# --- what one sighting means ---------------------------------------------------------------------


def test_scarlet_rolls_6_and_her_mover_is_seen_in_the_lounge_a_move() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)))
    verdict = judge(state, ZONES, mover(SCARLET), room("Lounge"))
    assert verdict == MoveTo(SCARLET, "Lounge")
    assert signal_for(ZONES, verdict) == ()
    moved, _ = apply(state, Move(verdict.seat, verdict.place))
    assert moved.position(SCARLET) == "Lounge"


def test_a_mover_seen_on_a_door_reader_enters_that_room() -> None:
    zones = ZoneMap.with_specs(CLASSIC, {16: "door:g20"})
    state, _ = play(game(), Roll(SCARLET, (6,)))
    assert judge(state, zones, mover(SCARLET), zones.zone(16) or Zone("centre")) == MoveTo(SCARLET, "Lounge")


def test_mustards_mover_seen_in_the_kitchen_on_scarlets_turn_is_put_back() -> None:
    state = game()
    verdict = judge(state, ZONES, mover(MUSTARD), room("Kitchen"))
    assert verdict == PutBack(mover(MUSTARD), "a18", "Put Colonel Mustard back on a18.", room("Kitchen"))
    assert signal_for(ZONES, verdict) == (KITCHEN, KITCHEN_2)  # a18 has no reader: only the wrong room lights


def test_a_mover_whose_seat_is_not_played_is_put_back() -> None:
    verdict = judge(game(), ZONES, mover("Mrs. Peacock"), room("Study"))
    assert isinstance(verdict, PutBack) and verdict.text == "Put Mrs. Peacock back on x7."


def test_scarlet_in_the_study_before_rolling_with_no_passage_there_must_roll_first() -> None:
    verdict = judge(game(), ZONES, mover(SCARLET), room("Study"))
    assert isinstance(verdict, PutBack)
    assert verdict.text == "Put Miss Scarlet back on h25: roll first."


def test_scarlet_takes_the_secret_passage_before_rolling_a_move() -> None:
    state = scarlet_in_the_lounge_on_her_next_turn()
    assert judge(state, ZONES, mover(SCARLET), room("Conservatory")) == MoveTo(SCARLET, "Conservatory")
    verdict = judge(state, ZONES, mover(SCARLET), room("Kitchen"))
    assert isinstance(verdict, PutBack) and verdict.text == "Put Miss Scarlet back in the Lounge: roll first."
    assert signal_for(ZONES, verdict) == (KITCHEN, LOUNGE, KITCHEN_2, LOUNGE_2, LOUNGE_3)


def test_a_room_out_of_reach_of_the_roll_is_refused_with_the_reason() -> None:
    state, _ = play(game(), Roll(SCARLET, (4,)))
    verdict = judge(state, ZONES, mover(SCARLET), room("Lounge"))
    assert isinstance(verdict, PutBack)
    assert verdict.text == "Put Miss Scarlet back on h25: the Lounge is not reachable with a 4."


def test_a_mover_that_has_moved_this_turn_is_put_back_without_a_reason() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"))
    verdict = judge(state, ZONES, mover(SCARLET), room("Hall"))
    assert isinstance(verdict, PutBack) and verdict.text == "Put Miss Scarlet back in the Lounge."
    assert judge(state, ZONES, mover(SCARLET), room("Lounge")) == Agrees()


def test_a_space_reader_on_a_reachable_square_is_a_move() -> None:
    zones = ZoneMap.with_specs(CLASSIC, {16: "space:h21"})
    state, _ = play(game(), Roll(SCARLET, (4,)))
    on_h21 = zones.zone(16) or Zone("centre")
    assert judge(state, zones, mover(SCARLET), on_h21) == MoveTo(SCARLET, "h21")
    state, _ = apply(state, Move(SCARLET, "h21"))
    assert judge(state, zones, mover(SCARLET), on_h21) == Agrees()
    assert agrees(state, zones, mover(SCARLET), frozenset({on_h21}))
    assert not agrees(state, zones, mover(SCARLET), frozenset())


def test_a_weapon_moved_by_hand_is_put_back() -> None:
    state = game()
    verdict = judge(state, ZONES, weapon("Rope"), room("Kitchen"))
    assert verdict == PutBack(weapon("Rope"), "Library", "Put the Rope back in the Library.", room("Kitchen"))
    assert signal_for(ZONES, verdict) == (KITCHEN, LIBRARY, KITCHEN_2, LIBRARY_2)
    assert judge(state, ZONES, weapon("Rope"), room("Library")) == Agrees()


def test_a_weapon_off_the_board_is_taken_off() -> None:
    detective = load_edition("master_detective")
    rand = random.Random(1)
    state, _ = new_game(random_setup(rand, detective))
    zones = ZoneMap.default(detective)
    verdict = judge(state, zones, weapon("Poison"), room("Kitchen", zones))
    assert isinstance(verdict, PutBack) and verdict.text == "Take the Poison off the board."
    assert signal_for(zones, verdict) == zones.room_readers("Kitchen")


def test_cards_are_laid_on_rooms_and_pads_but_not_on_doors() -> None:
    zones = ZoneMap.with_specs(CLASSIC, {16: "door:l19"})
    rope = Piece("card", "Rope")
    assert judge(game(), zones, rope, Zone("seat", seat=1)) == Agrees()
    assert judge(game(), zones, rope, room("Hall")) == Agrees()
    verdict = judge(game(), zones, rope, zones.zone(16) or Zone("centre"))
    assert isinstance(verdict, PutBack) and verdict.text == "Take the Rope card off the Hall doorway (l19)."
    assert signal_for(zones, verdict) == (16,)


# --- agreeing -------------------------------------------------------------------------------------


def test_a_mover_seen_in_its_room_and_on_its_door_agrees() -> None:
    zones = ZoneMap.with_specs(CLASSIC, {16: "door:g20"})
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"))
    door = zones.zone(16) or Zone("centre")
    assert agrees(state, zones, mover(SCARLET), frozenset({room("Lounge"), door}))
    assert agrees(state, zones, mover(SCARLET), frozenset({door}))
    assert not agrees(state, zones, mover(SCARLET), frozenset({room("Lounge"), room("Hall")}))
    assert not agrees(state, zones, mover(SCARLET), frozenset())  # lifted


def test_a_piece_in_a_room_without_a_reader_must_not_be_seen_elsewhere() -> None:
    zones = ZoneMap.with_specs(CLASSIC, {LIBRARY: "seat:7", LIBRARY_2: "seat:8"})  # the Library's readers unplugged
    state = game()
    assert agrees(state, zones, weapon("Rope"), frozenset())
    assert not agrees(state, zones, weapon("Rope"), frozenset({room("Hall")}))


def test_a_mover_on_an_unwatched_square_is_seen_nowhere() -> None:
    state = game()
    assert agrees(state, ZONES, mover(SCARLET), frozenset())
    assert not agrees(state, ZONES, mover(SCARLET), frozenset({Zone("centre")}))


# --- reconciliation -------------------------------------------------------------------------------


def test_a_classic_board_set_up_as_the_game_says_has_no_differences() -> None:
    state = game()
    sensed = board_as_the_game_says(state, ZONES)
    assert {reader for reader, uids in sensed.items() if uids} == {LOUNGE, HALL, STUDY, 4, LIBRARY, 1}
    # Cards lying on rooms, the centre and the seat pads are left alone.
    sensed[HALL].add(uid(Piece("card", "Hall"), CLASSIC))
    sensed[CENTRE].add(uid(Piece("card", "Rope"), CLASSIC))
    sensed[10].add(uid(Piece("card", "Knife"), CLASSIC))
    assert differences(state, ZONES, TAGS, frozen(sensed)) == []


def test_a_missing_token_a_misplaced_mover_and_an_unknown_tag_are_listed() -> None:
    state = game()
    sensed = board_as_the_game_says(state, ZONES)
    sensed = lifted(sensed, weapon("Knife"))
    sensed = on_reader(sensed, HALL, mover(MUSTARD))
    sensed[KITCHEN].add(UNKNOWN.lower())
    assert differences(state, ZONES, TAGS, frozen(sensed)) == [
        "Colonel Mustard's mover should be on a18 but is in the Hall.",
        "The Knife should be in the Hall but is not on the board.",
        "Unknown tag 04:A2:1B:3C on the Kitchen reader: enrol it with clue-companion enroll.",
    ]


def test_a_lifted_mover_and_a_token_in_two_rooms() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"))
    sensed = board_as_the_game_says(state, ZONES)
    sensed = lifted(sensed, mover(SCARLET))
    sensed[STUDY].add(uid(weapon("Rope"), CLASSIC))
    sensed[12].add(UNKNOWN)
    assert differences(state, ZONES, TAGS, frozen(sensed)) == [
        "Miss Scarlet's mover should be in the Lounge but is not on the board.",
        "The Rope should be in the Library but is also in the Study.",
        f"Unknown tag {UNKNOWN} on seat pad 3: enrol it with clue-companion enroll.",
    ]


def test_a_card_on_a_door_reader_is_listed_naming_the_card_to_its_holder_only() -> None:
    zones = ZoneMap.with_specs(CLASSIC, {16: "door:l19"})
    state = game()
    holder = next(seat for seat in state.seats if "Rope" in state.hand(seat))
    other = next(seat for seat in state.seats if seat != holder)
    sensed = board_as_the_game_says(state, zones)
    sensed[16] = {uid(Piece("card", "Rope"), CLASSIC)}
    assert differences(state, zones, TAGS, frozen(sensed)) == ["A card is on the Hall doorway (l19): take it off."]
    assert differences(state, zones, TAGS, frozen(sensed), other) == ["A card is on the Hall doorway (l19): take it off."]
    assert differences(state, zones, TAGS, frozen(sensed), holder) == [
        "The Rope card is on the Hall doorway (l19): take it off.",
    ]


def test_an_envelope_card_off_its_pads_is_named_to_no_one() -> None:
    zones = ZoneMap.with_specs(CLASSIC, {16: "door:l19"})
    state = game()
    sensed = board_as_the_game_says(state, zones)
    sensed[16] = {uid(Piece("card", state.envelope.weapon), CLASSIC)}
    for viewer in (None, *state.seats):
        assert differences(state, zones, TAGS, frozen(sensed), viewer) == [
            "A card is on the Hall doorway (l19): take it off."]


def test_the_differences_as_data_for_the_web() -> None:
    state = game()
    sensed = on_reader(board_as_the_game_says(state, ZONES), KITCHEN, weapon("Knife"))
    sensed[40] = {UNKNOWN}
    assert differences_data(state, ZONES, TAGS, frozen(sensed)) == [
        {"piece": "Knife", "kind": "weapon", "expected": "Hall", "seen": ["the Kitchen"], "readers": [KITCHEN],
         "text": "The Knife should be in the Hall but is in the Kitchen."},
        {"piece": None, "kind": "unknown", "expected": None, "uid": UNKNOWN, "seen": [], "readers": [40],
         "text": f"Unknown tag {UNKNOWN} on reader 40: enrol it with clue-companion enroll."},
    ]


def test_sightings_merge_spare_tags_and_skip_unmapped_readers() -> None:
    tags = TagMap({"01": mover(SCARLET), "02": mover(SCARLET)})
    seen, unknown = sightings({LOUNGE: frozenset({"01"}), HALL: frozenset({"02", "ff"}), 30: frozenset({"02"})},
                              ZONES, tags)
    assert seen == {mover(SCARLET): frozenset({room("Lounge"), room("Hall")})}
    assert unknown == [(HALL, "FF")]


# --- rooms with several antennas ----------------------------------------------------------------


def test_a_weapon_seen_by_two_antennas_of_its_room_is_one_piece_in_that_room() -> None:
    state = game()
    sensed = on_reader(board_as_the_game_says(state, ZONES), HALL_2, weapon("Knife"))  # the Knife is in the Hall
    sensed[HALL].add(uid(weapon("Knife"), CLASSIC))
    seen, _ = sightings(frozen(sensed), ZONES, TAGS)
    assert seen[weapon("Knife")] == frozenset({room("Hall")})
    assert differences(state, ZONES, TAGS, frozen(sensed)) == []
    assert judge(state, ZONES, weapon("Knife"), ZONES.zone(HALL_3) or Zone("centre")) == Agrees()


def test_a_weapon_slid_from_one_antenna_of_its_room_to_another_stays_put() -> None:
    state = game()
    before = on_reader(board_as_the_game_says(state, ZONES), HALL, weapon("Knife"))
    after = on_reader(before, HALL_3, weapon("Knife"))
    for board in (before, after):
        assert differences(state, ZONES, TAGS, frozen(board)) == []


def test_a_piece_on_antennas_of_two_rooms_is_still_a_conflict() -> None:
    state = game()
    sensed = on_reader(board_as_the_game_says(state, ZONES), HALL_2, weapon("Knife"))
    sensed[KITCHEN_2].add(uid(weapon("Knife"), CLASSIC))
    [entry] = differences_data(state, ZONES, TAGS, frozen(sensed))
    assert entry["text"] == "The Knife should be in the Hall but is also in the Kitchen."
    assert entry["readers"] == [KITCHEN_2, HALL_2]  # the antennas that see it, not every antenna of those rooms


def test_the_mover_on_turn_seen_on_any_antenna_of_a_reachable_room_moves_there() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)))  # h25 to the Lounge is 6
    for reader in ZONES.room_readers("Lounge"):
        assert judge(state, ZONES, mover(SCARLET), ZONES.zone(reader) or Zone("centre")) == MoveTo(SCARLET, "Lounge")


# --- properties over random games -----------------------------------------------------------------


def states_of(seed: int, edition_id: str, every: int = 7) -> list[GameState]:
    """Every ``every``-th state of a random legal game."""
    rand = random.Random(seed)
    state, _ = new_game(random_setup(rand, load_edition(edition_id)))
    states = [state]
    while not state.over:
        state, _ = apply(state, choose(rand, state))
        states.append(state)
    return states[::every] + [state]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), edition_id=st.sampled_from(bundled_ids()))
def test_a_board_that_shows_every_piece_where_the_game_says_agrees(seed: int, edition_id: str) -> None:
    edition = load_edition(edition_id)
    zones, tags = ZoneMap.default(edition), enrolled(edition)
    for state in states_of(seed, edition_id):
        sensed = board_as_the_game_says(state, zones)
        assert differences(state, zones, tags, frozen(sensed)) == []
        seen, unknown = sightings(frozen(sensed), zones, tags)
        assert not unknown
        for piece in expected_places(state):
            assert agrees(state, zones, piece, seen.get(piece, frozenset()))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_one_piece_on_the_wrong_room_reader_makes_exactly_one_difference(seed: int, data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(states_of(seed, "classic")))
    piece = data.draw(st.sampled_from(sorted(expected_places(state))))
    place = expected_places(state)[piece]
    wrong = data.draw(st.sampled_from([r for r in CLASSIC.deck.rooms if r != place]))
    reader = ZONES.room_reader(wrong)
    assert reader is not None
    sensed = on_reader(board_as_the_game_says(state, ZONES), reader, piece)
    found = differences_data(state, ZONES, TAGS, frozen(sensed))
    assert [(entry["piece"], entry["seen"]) for entry in found] == [(piece.name, [f"the {wrong}"])]
    verdict = judge(state, ZONES, piece, room(wrong))
    if isinstance(verdict, PutBack):
        assert reader in signal_for(ZONES, verdict)
    else:
        assert verdict == MoveTo(piece.name, wrong) and wrong in legal_destinations(state)
