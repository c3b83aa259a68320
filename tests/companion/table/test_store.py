"""The store: games and their records, tag enrolment and settings, kept in one SQLite file."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli.main import main
from companion.deduction.playout import random_game
from companion.record.lines import parse_action, parse_setup
from companion.record.replay import Replay
from companion.rules.actions import Action, EndTurn, Roll, Setup
from companion.rules.errors import BadInput, ClueError
from companion.rules.views import public_view
from companion.table.resume import ResumeError, replay_game, resume
from companion.table.store import APPLICATION_ID, SCHEMA_VERSION, GameSummary, Store, StoreError, default_path
from companion.table.tags import Piece, TagError

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
CLASSIC = Setup("classic", SEATS, seed=7)
ROPE = Piece("card", "Rope")
KNIFE = Piece("card", "Knife")
SCARLET = Piece("mover", "Miss Scarlet")


class Clock:
    """A clock the test moves by hand: one minute per reading."""

    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 20, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


def whole_game(seed: int, edition: str = "classic") -> tuple[Setup, list[Action]]:
    """A random legal game, from setup to the end, as parsed records."""
    lines = [json.dumps(line) for line in random_game(random.Random(seed), edition)]
    return parse_setup(lines[0]), [parse_action(line) for line in lines[1:]]


def stored(store: Store, setup: Setup, actions: list[Action], settings: dict[str, str] | None = None) -> int:
    game = store.new_game(setup, settings or {})
    for number, action in enumerate(actions, start=1):
        store.append(game, number, action)
    return game


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "companion.db", clock=Clock()) as opened:
        yield opened


# -- the file --


def test_creating_a_store_touches_nothing_until_it_is_opened(tmp_path: Path) -> None:
    path = tmp_path / "data" / "clue-companion" / "companion.db"
    unopened = Store(path)
    assert not path.parent.exists()
    with pytest.raises(StoreError, match="not open; call open"):
        unopened.games()
    with unopened.open() as opened:
        assert opened is unopened and path.is_file()


def test_the_store_and_a_folder_made_for_it_are_private_to_their_owner(tmp_path: Path) -> None:
    """It holds the cookie key, the join tokens, the PIN and every game's seed: no one else may read it."""
    path = tmp_path / "data" / "clue-companion" / "companion.db"
    with Store(path) as opened:
        opened.set_setting("probe", "1")
        assert path.stat().st_mode & 0o777 == 0o600
        assert Path(f"{path}-wal").stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700


def test_a_world_readable_store_from_before_is_made_private_on_opening(tmp_path: Path) -> None:
    path = tmp_path / "companion.db"
    with Store(path):
        pass
    path.chmod(0o644)
    folder = tmp_path.stat().st_mode & 0o777
    with Store(path):
        assert path.stat().st_mode & 0o777 == 0o600
    assert tmp_path.stat().st_mode & 0o777 == folder  # a folder it did not make is not the store's to change


def test_a_new_store_has_the_documented_schema_in_wal_mode(store: Store) -> None:
    with sqlite3.connect(store.path) as raw:
        tables = {name: [column[1] for column in raw.execute(f"PRAGMA table_info({name})")]
                  for (name,) in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert tables == {
            "games": ["id", "edition", "seats", "setup", "settings", "status", "winner", "created", "updated"],
            "actions": ["game_id", "number", "line"],
            "tags": ["edition", "uid", "kind", "name", "enrolled"],
            "settings": ["key", "value"],
        }
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert raw.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    raw.close()


def test_reopening_after_close_keeps_games_tags_and_settings(tmp_path: Path) -> None:
    path = tmp_path / "companion.db"
    setup, actions = whole_game(11)
    with Store(path) as first:
        game = stored(first, setup, actions, {"dice": "physical"})
        first.finish(game, winner="Mrs. White")
        first.enrol("classic", "04:a2:1b:3c", ROPE)
        first.set_setting("volume", "3")
        before = first.game(game), first.record(game)
    with Store(path) as again:
        assert (again.game(game), again.record(game)) == before
        assert again.tag_map("classic").piece("04:A2:1B:3C") == ROPE
        assert again.setting("volume") == "3"


def test_an_appended_action_is_committed_before_append_returns(tmp_path: Path) -> None:
    path = tmp_path / "companion.db"
    with Store(path) as writer, Store(path, exclusive=False) as reader:
        game = writer.new_game(CLASSIC, {})
        writer.append(game, 1, Roll("Miss Scarlet", (6,)))
        assert reader.game(game).actions == 1  # another connection sees it, the writer still open


def test_one_companion_per_store(tmp_path: Path) -> None:
    """A second companion on the same store would resume the same game, then refuse every action."""
    path = tmp_path / "companion.db"
    with Store(path):
        with pytest.raises(StoreError, match=f"the store {path} is in use by process {os.getpid()}"):
            Store(path).open()
    with Store(path):  # closed: free again
        pass


def test_a_store_held_by_another_process_is_refused_and_freed_when_it_is_killed(tmp_path: Path) -> None:
    path = tmp_path / "companion.db"
    script = f"import time\nfrom companion.table.store import Store\nStore({str(path)!r}).open()\nprint('open', flush=True)\n" \
             "time.sleep(60)"
    with subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "open\n"
            with pytest.raises(StoreError, match=f"in use by process {holder.pid}"):
                Store(path).open()
        finally:
            holder.kill()
            holder.wait(timeout=10)
    with Store(path) as store:  # the kernel let go of the lock with the process
        assert store.games() == []


def test_a_store_opened_in_one_thread_is_used_in_another(tmp_path: Path) -> None:
    errors: list[BaseException] = []
    with Store(tmp_path / "companion.db") as shared:
        def play() -> None:
            try:
                shared.append(shared.new_game(CLASSIC, {}), 1, Roll("Miss Scarlet", (2,)))
            except BaseException as err:  # handed to the test thread
                errors.append(err)
        worker = threading.Thread(target=play)
        worker.start()
        worker.join()
        assert errors == [] and shared.games()[0].actions == 1


@pytest.mark.parametrize("content", [b"Miss Scarlet's notes\n" * 100, bytes(range(256)) * 16])
def test_a_file_that_is_not_a_database_is_refused_by_name(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(content)
    with pytest.raises(StoreError, match="notes.db") as caught:
        Store(path).open()
    assert isinstance(caught.value, OSError) and isinstance(caught.value, ClueError)
    assert caught.value.code == "store"


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "photos.db"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE photos (name TEXT)")
    raw.close()
    with pytest.raises(StoreError, match="photos.db is not a clue-companion database"):
        Store(path).open()


def test_a_store_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "companion.db"
    Store(path).open().close()
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(StoreError, match="newer clue-companion"):
        Store(path).open()


def test_a_damaged_store_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "companion.db"
    with Store(path) as store:
        stored(store, *whole_game(3))
    with sqlite3.connect(path) as raw:  # fold the WAL into the file, so the damage below lands on the data
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    data = bytearray(path.read_bytes())
    page = 4096
    data[page:] = bytes(len(data) - page)  # every page but the first zeroed: the tables are gone
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="companion.db"):
        Store(path).open()


def test_the_default_path_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert default_path({"CLUE_COMPANION_DB": "/srv/clue.db"}) == Path("/srv/clue.db")
    assert default_path({"XDG_DATA_HOME": "/data"}) == Path("/data/clue-companion/companion.db")
    monkeypatch.delenv("CLUE_COMPANION_DB", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_path() == tmp_path / ".local" / "share" / "clue-companion" / "companion.db"


# -- games --


def test_a_whole_random_game_round_trips(store: Store) -> None:
    setup, actions = whole_game(5, "master_detective")
    game = stored(store, setup, actions, {"deal": "virtual"})
    assert store.load(game) == (setup, actions, {"deal": "virtual"})
    assert store.record(game) == [json.dumps(setup.to_record())] + [json.dumps(a.to_record()) for a in actions]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["classic", "master_detective", "doctor_who", "big_bang_theory"]))
def test_every_random_game_is_stored_line_for_line(seed: int, edition: str) -> None:
    record = random_game(random.Random(seed), edition)
    with Store(":memory:") as memory:
        game = stored(memory, parse_setup(json.dumps(record[0])), [parse_action(json.dumps(r)) for r in record[1:]])
        assert [json.loads(line) for line in memory.record(game)] == record


def test_the_exported_record_replays_to_the_same_game(store: Store, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    setup, actions = whole_game(8, "doctor_who")
    game = stored(store, setup, actions)
    lines = store.record(game)
    final = replay_game(setup, actions)
    replayed = Replay(lines[0])
    assert all(replayed.step(number, line)["ok"] for number, line in enumerate(lines[1:], start=2))
    assert replayed.state == final
    export = tmp_path / "export.jsonl"
    export.write_text("".join(line + "\n" for line in lines))
    assert main(["replay", str(export), "--final-view"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert all(json.loads(line)["ok"] for line in printed[:-1])
    assert json.loads(printed[-1]) == json.loads(json.dumps(public_view(final)))


def test_a_game_summary_says_who_played_and_how_far(tmp_path: Path) -> None:
    with Store(tmp_path / "companion.db", clock=Clock()) as store:
        game = store.new_game(CLASSIC, {"dice": "physical"})
        store.append(game, 1, Roll("Miss Scarlet", (3,)))
        assert store.game(game) == GameSummary(
            id=game, edition="classic", seats=SEATS, status="playing", winner=None, actions=1,
            created="2025-03-01T20:01:00+00:00", updated="2025-03-01T20:02:00+00:00", settings={"dice": "physical"})


def test_unfinished_games_are_the_ones_still_playing_newest_first(store: Store) -> None:
    won, abandoned, older, newer = (store.new_game(CLASSIC, {}) for _ in range(4))
    store.finish(won, winner="Mrs. White")
    store.finish(abandoned, "abandoned")
    assert [game.id for game in store.unfinished()] == [newer, older]
    assert [game.id for game in store.games()] == [newer, older, abandoned, won]
    assert (store.game(won).status, store.game(won).winner) == ("finished", "Mrs. White")
    assert (store.game(abandoned).status, store.game(abandoned).winner) == ("abandoned", None)


def test_a_game_ends_only_once_and_takes_no_actions_after(store: Store) -> None:
    game = store.new_game(CLASSIC, {})
    with pytest.raises(BadInput, match="not 'won'"):
        store.finish(game, "won")
    store.finish(game)
    with pytest.raises(StoreError, match=f"game {game} is already finished"):
        store.finish(game, "abandoned")
    with pytest.raises(StoreError, match=f"game {game} is finished: no more actions"):
        store.append(game, 1, Roll("Miss Scarlet", (3,)))


def test_actions_are_numbered_one_after_another(store: Store) -> None:
    game = store.new_game(CLASSIC, {})
    with pytest.raises(StoreError, match="has no actions; the next must be number 1, not 2"):
        store.append(game, 2, Roll("Miss Scarlet", (3,)))
    store.append(game, 1, Roll("Miss Scarlet", (3,)))
    with pytest.raises(StoreError, match="has actions 1 to 1; the next must be number 2, not 1") as twice:
        store.append(game, 1, Roll("Miss Scarlet", (3,)))
    assert twice.value.code == "store"
    with pytest.raises(StoreError, match="not 0"):
        store.append(game, 0, EndTurn("Miss Scarlet"))
    assert store.record(game)[1:] == ['{"type": "roll", "seat": "Miss Scarlet", "dice": [3]}']


def test_an_unknown_game_is_a_store_error(store: Store) -> None:
    for ask in (store.game, store.record, store.load, lambda game: store.append(game, 1, EndTurn("Mr. Green"))):
        with pytest.raises(StoreError, match="there is no game 42"):
            ask(42)


# -- resuming --


def test_resuming_replays_the_record_to_the_identical_state(store: Store) -> None:
    setup, actions = whole_game(21)
    game = stored(store, setup, actions[:30])
    state = resume(store, game)
    assert state == replay_game(setup, actions[:30])
    assert state != replay_game(setup, actions[:29])
    assert state.actions == 30


def test_a_stored_action_the_engine_refuses_means_a_damaged_record(store: Store) -> None:
    game = store.new_game(CLASSIC, {})
    store.append(game, 1, Roll("Miss Scarlet", (4,)))
    store.append(game, 2, Roll("Colonel Mustard", (4,)))  # the store keeps what it is given
    with pytest.raises(ResumeError, match=f"game {game} .*stored action 2 .* refused \\(not_your_turn\\)"):
        resume(store, game)


def test_an_unreadable_stored_line_names_its_game_and_number(store: Store) -> None:
    game = store.new_game(CLASSIC, {})
    store.append(game, 1, Roll("Miss Scarlet", (4,)))
    with sqlite3.connect(store.path) as raw:
        raw.execute("UPDATE actions SET line = '{\"type\": \"fly\"}' WHERE number = 1")
    raw.close()
    with pytest.raises(StoreError, match=f"game {game} .*stored action 1 is unreadable: unknown action type"):
        store.load(game)


# -- tags --


def test_a_tag_stands_for_one_piece_and_a_piece_may_have_spares(store: Store) -> None:
    store.enrol("classic", "04:a2:1b:3c", ROPE)
    store.enrol("classic", "04:A2:1B:3C", ROPE)  # the same again: nothing changes
    store.enrol("classic", "04:00:00:09", ROPE)  # a spare
    store.enrol("classic", "04:00:00:01", SCARLET)
    with pytest.raises(TagError, match="tag 04:A2:1B:3C is already the Rope card; re-enrol it first"):
        store.enrol("classic", "04:a2:1b:3c", KNIFE)
    tags = store.tag_map("classic")
    assert list(tags.items()) == [("04:A2:1B:3C", ROPE), ("04:00:00:09", ROPE), ("04:00:00:01", SCARLET)]
    assert tags.uids(ROPE) == ("04:A2:1B:3C", "04:00:00:09")


def test_an_empty_uid_is_refused(store: Store) -> None:
    with pytest.raises(TagError, match="hex pairs"):
        store.enrol("classic", "  ", ROPE)


def test_forgetting_a_tag_frees_it_for_another_piece(store: Store) -> None:
    store.enrol("classic", "04:A2:1B:3C", ROPE)
    assert store.forget("classic", "04:a2:1b:3c") == ROPE
    assert store.forget("classic", "04:a2:1b:3c") is None
    store.enrol("classic", "04:A2:1B:3C", KNIFE)
    assert store.tag_map("classic").piece("04:A2:1B:3C") == KNIFE


def test_re_enrolling_a_piece_first_drops_all_its_tags(store: Store) -> None:
    for uid in ("04:00:00:03", "04:00:00:01", "04:00:00:02"):
        store.enrol("classic", uid, ROPE)
    store.enrol("classic", "04:00:00:04", KNIFE)
    assert store.forget_piece("classic", ROPE) == ["04:00:00:03", "04:00:00:01", "04:00:00:02"]
    assert store.forget_piece("classic", ROPE) == []
    assert list(store.tag_map("classic").items()) == [("04:00:00:04", KNIFE)]


def test_each_edition_has_its_own_tags(store: Store) -> None:
    store.enrol("classic", "04:A2:1B:3C", ROPE)
    store.enrol("doctor_who", "04:A2:1B:3C", Piece("weapon", "Sonic Screwdriver"))
    assert store.tag_map("classic").piece("04:A2:1B:3C") == ROPE
    assert store.forget_piece("doctor_who", ROPE) == []
    assert store.forget("master_detective", "04:A2:1B:3C") is None
    assert len(store.tag_map("classic")) == len(store.tag_map("doctor_who")) == 1
    assert len(store.tag_map("master_detective")) == 0


UIDS = st.sampled_from([f"04:00:00:{n:02X}" for n in range(6)])
PIECES = st.sampled_from([ROPE, KNIFE, SCARLET, Piece("weapon", "Rope")])
STEPS = st.lists(st.tuples(st.sampled_from(["enrol", "forget", "forget_piece"]), UIDS, PIECES), max_size=25)


@settings(max_examples=40, deadline=None)
@given(STEPS)
def test_enrolment_keeps_one_piece_per_tag_in_enrolment_order(steps: list[tuple[str, str, Piece]]) -> None:
    model: dict[str, Piece] = {}  # a dict keeps insertion order, as enrolment order is kept
    with Store(":memory:") as memory:
        for step, uid, piece in steps:
            if step == "enrol" and model.get(uid, piece) != piece:
                with pytest.raises(TagError):
                    memory.enrol("classic", uid, piece)
            elif step == "enrol":
                memory.enrol("classic", uid, piece)
                model.setdefault(uid, piece)
            elif step == "forget":
                assert memory.forget("classic", uid) == model.pop(uid, None)
            else:
                dropped = [held for held, owner in model.items() if owner == piece]
                assert memory.forget_piece("classic", piece) == dropped
                model = {held: owner for held, owner in model.items() if owner != piece}
        assert list(memory.tag_map("classic").items()) == list(model.items())


# -- settings --


def test_settings_are_kept_and_replaced(store: Store) -> None:
    assert store.setting("volume") is None
    assert store.setting("volume", "5") == "5"
    store.set_setting("volume", "3")
    store.set_setting("volume", "0")
    assert store.setting("volume", "5") == "0"
