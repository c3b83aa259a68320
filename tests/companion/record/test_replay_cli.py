"""``clue-companion replay``: the game record in, one JSON result per line out.

A few cases drive the real console entry point in a child process (exit
codes, the exact bytes on stdout and stderr); the rest call
``companion.cli.main`` in-process and read what it printed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from record_spec import CLASSIC_EVENT_FIELDS, CODES, EVENT_FIELDS, carried_cards

from companion.cli.main import main

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "examples" / "classic-sample.jsonl"

SEATS = ["Miss Scarlet", "Colonel Mustard", "Mrs. White"]
HANDS = {
    "Miss Scarlet": ["Miss Scarlet", "Colonel Mustard", "Candlestick", "Knife", "Ballroom", "Conservatory"],
    "Colonel Mustard": ["Mrs. White", "Mr. Green", "Lead Pipe", "Revolver", "Dining Room", "Billiard Room"],
    "Mrs. White": ["Mrs. Peacock", "Wrench", "Library", "Lounge", "Hall", "Study"],
}
ENVELOPE = ["Professor Plum", "Rope", "Kitchen"]
SOLUTION = {"suspect": "Professor Plum", "weapon": "Rope", "room": "Kitchen"}


def setup(**changes: Any) -> dict[str, Any]:
    line: dict[str, Any] = {
        "type": "setup", "edition": "classic", "seats": list(SEATS), "seed": 7,
        "deal": {"envelope": list(ENVELOPE), "hands": {s: list(c) for s, c in HANDS.items()}, "face_up": []},
    }
    line.update(changes)
    return line


# A short game that raises every event in the issue's table:
#   Scarlet rolls 6, enters the Lounge, suggests Mrs. White with the Rope; Mustard shows Mrs. White.
#   Mustard accuses wrongly and is out. White, brought into the Lounge, suggests there without
#   moving: nobody can answer. Scarlet takes the passage to the Conservatory and accuses rightly.
SCENARIO: list[dict[str, Any]] = [
    setup(),
    {"type": "roll", "seat": "Miss Scarlet", "dice": [6]},
    {"type": "move", "seat": "Miss Scarlet", "to": "Lounge"},
    {"type": "suggest", "seat": "Miss Scarlet", "suspect": "Mrs. White", "weapon": "Rope"},
    {"type": "show", "seat": "Colonel Mustard", "card": "Mrs. White"},
    {"type": "end_turn", "seat": "Miss Scarlet"},
    {"type": "accuse", "seat": "Colonel Mustard", "suspect": "Mr. Green", "weapon": "Knife", "room": "Hall"},
    {"type": "end_turn", "seat": "Colonel Mustard"},
    {"type": "suggest", "seat": "Mrs. White", "suspect": "Professor Plum", "weapon": "Rope"},
    {"type": "end_turn", "seat": "Mrs. White"},
    {"type": "move", "seat": "Miss Scarlet", "to": "Conservatory"},
    {"type": "accuse", "seat": "Miss Scarlet", "suspect": "Professor Plum", "weapon": "Rope", "room": "Kitchen"},
]

def jsonl(lines: list[Any]) -> bytes:
    """Record lines (dicts are dumped, str/bytes kept as they are) joined into a file's bytes."""
    out = []
    for line in lines:
        if isinstance(line, bytes):
            out.append(line)
        elif isinstance(line, str):
            out.append(line.encode("utf-8"))
        else:
            out.append(json.dumps(line).encode("utf-8"))
    return b"\n".join(out) + b"\n"


def run_main(tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[Any] | bytes,
             *options: str) -> tuple[int, list[str], str]:
    """``main(["replay", FILE, *options])``: exit code, stdout lines, stderr."""
    path = tmp_path / "game.jsonl"
    path.write_bytes(lines if isinstance(lines, bytes) else jsonl(lines))
    capsys.readouterr()
    code = main(["replay", str(path), *options])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def replay_json(tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[Any] | bytes,
                *options: str) -> list[dict[str, Any]]:
    code, out, err = run_main(tmp_path, capsys, lines, *options)
    assert (code, err) == (0, "")
    return [json.loads(line) for line in out]


def run_cli(*args: str, stdin: bytes | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    """The real command in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args], input=stdin, capture_output=True,
        timeout=120, cwd=ROOT, env={**os.environ, **(env or {})},
    )


def events_by_line(results: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    assert all(result["ok"] for result in results), [r for r in results if not r["ok"]]
    return {result["line"]: result["events"] for result in results}


def assert_one_line_error(code: int, stdout: str | bytes, stderr: str | bytes) -> None:
    text = stderr.decode("utf-8") if isinstance(stderr, bytes) else stderr
    assert code == 2
    assert not stdout
    assert "Traceback" not in text
    assert text.endswith("\n") and text.count("\n") == 1, text
    assert text.startswith("clue-companion: ")
    assert len(text.strip()) > len("clue-companion: ")


# --- the bundled sample, end to end --------------------------------------------------------------


def test_bundled_sample_replays_cleanly_through_the_console_script() -> None:
    """Every line of examples/ is accepted, numbered in order, and the game ends with a winner."""
    done = run_cli("replay", str(SAMPLE))
    assert done.returncode == 0
    assert done.stderr == b""
    results = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    numbered = [n for n, text in enumerate(SAMPLE.read_text("utf-8").splitlines(), 1) if text.strip()]
    assert [r["line"] for r in results] == numbered
    assert all(r["ok"] is True and isinstance(r["events"], list) for r in results)
    last = results[-1]["events"][-1]
    assert last["type"] == "game_over"
    assert isinstance(last["winner"], str) and last["winner"]
    assert set(last["solution"]) == {"suspect", "weapon", "room"}
    for result in results:
        for event in result["events"]:
            if event["type"] in EVENT_FIELDS:
                assert EVENT_FIELDS[event["type"]] <= set(event), event


def test_bundled_sample_narrated_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--narrate", str(SAMPLE)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert len(lines) > 50
    for line in lines:
        assert line and not line.startswith("{"), line
    assert lines[0].startswith("A game of Classic CLUE for ")
    assert "Miss Scarlet rolls 1." in lines
    assert any(line.endswith("wins! It was Mrs. Peacock with the Knife in the Lounge.") for line in lines)


# --- one result per line ---------------------------------------------------------------------


def test_one_object_per_line_numbered_by_file_line_and_blank_lines_skipped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roll = {"type": "roll", "seat": "Miss Scarlet", "dice": [6]}
    move = {"type": "move", "seat": "Miss Scarlet", "to": "Lounge"}
    lines: list[Any] = ["", setup(), "", "   \t ", roll, "", move]
    results = replay_json(tmp_path, capsys, lines)
    assert [r["line"] for r in results] == [2, 5, 7]
    assert [r["ok"] for r in results] == [True, True, True]
    assert results[1] == {"line": 5, "ok": True,
                          "events": [{"type": "rolled", "seat": "Miss Scarlet", "dice": [6], "total": 6}]}
    assert results[2] == {"line": 7, "ok": True,
                          "events": [{"type": "moved", "seat": "Miss Scarlet", "to": "Lounge", "via": "roll"}]}


def test_setup_line_reports_the_deal_and_first_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    [result] = replay_json(tmp_path, capsys, [setup()])
    assert result["line"] == 1 and result["ok"] is True
    events = result["events"]
    assert events[-1] == {"type": "turn_started", "seat": "Miss Scarlet"}
    dealt = {e["seat"]: e["cards"] for e in events if e["type"] == "cards_dealt"}
    assert dealt == HANDS


def test_rejected_line_reported_then_processing_continues(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Mustard tries to roll out of turn; Scarlet's 3 cannot reach the Lounge; then she plays on."""
    lines: list[Any] = [
        setup(),
        {"type": "roll", "seat": "Colonel Mustard", "dice": [3]},
        {"type": "roll", "seat": "Miss Scarlet", "dice": [6]},
        {"type": "move", "seat": "Miss Scarlet", "to": "Study"},
        {"type": "move", "seat": "Miss Scarlet", "to": "Lounge"},
        {"type": "end_turn", "seat": "Miss Scarlet"},
    ]
    results = replay_json(tmp_path, capsys, lines)
    assert [r["line"] for r in results] == [1, 2, 3, 4, 5, 6]
    assert results[1]["ok"] is False
    assert set(results[1]) == {"line", "ok", "error"}
    assert set(results[1]["error"]) == {"code", "message"}
    assert results[1]["error"]["code"] == "not_your_turn"
    assert isinstance(results[1]["error"]["message"], str) and results[1]["error"]["message"]
    assert results[3]["ok"] is False and results[3]["error"]["code"] == "illegal_move"
    assert results[2]["ok"] and results[4]["ok"] and results[5]["ok"]
    assert results[4]["events"] == [{"type": "moved", "seat": "Miss Scarlet", "to": "Lounge", "via": "roll"}]
    assert results[5]["events"] == [{"type": "turn_started", "seat": "Colonel Mustard"}]


def test_exit_0_when_read_to_the_end_even_with_rejections() -> None:
    record = jsonl([
        setup(),
        {"type": "end_turn", "seat": "Miss Scarlet"},
        "{not json",
        {"type": "roll", "seat": "Mrs. White"},
    ])
    done = run_cli("replay", "-", stdin=record)
    assert done.returncode == 0
    assert done.stderr == b""
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["line"], r["ok"]) for r in results] == [(1, True), (2, False), (3, False), (4, False)]
    assert [r["error"]["code"] for r in results[1:]] == ["wrong_phase", "bad_input", "not_your_turn"]


# --- events ------------------------------------------------------------------------------------


def test_every_event_type_carries_the_issues_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = events_by_line(replay_json(tmp_path, capsys, SCENARIO))
    assert events[2] == [{"type": "rolled", "seat": "Miss Scarlet", "dice": [6], "total": 6}]
    assert events[3] == [{"type": "moved", "seat": "Miss Scarlet", "to": "Lounge", "via": "roll"}]
    suggestion = events[4]
    assert suggestion[0] == {"type": "suggested", "seat": "Miss Scarlet", "suspect": "Mrs. White",
                             "weapon": "Rope", "room": "Lounge"}
    assert {"type": "moved", "seat": "Mrs. White", "to": "Lounge", "via": "suggestion"} in suggestion
    assert suggestion[-1] == {"type": "refute_requested", "seat": "Colonel Mustard", "suggester": "Miss Scarlet"}
    assert events[5] == [{"type": "card_shown", "by": "Colonel Mustard", "to": "Miss Scarlet", "card": "Mrs. White"}]
    assert events[6] == [{"type": "turn_started", "seat": "Colonel Mustard"}]
    assert events[7] == [
        {"type": "accused", "seat": "Colonel Mustard", "suspect": "Mr. Green", "weapon": "Knife",
         "room": "Hall", "correct": False},
        {"type": "eliminated", "seat": "Colonel Mustard"},
    ]
    assert events[8] == [{"type": "turn_started", "seat": "Mrs. White"}]
    white = events[9]
    assert white[0] == {"type": "suggested", "seat": "Mrs. White", "suspect": "Professor Plum",
                        "weapon": "Rope", "room": "Lounge"}
    assert [e for e in white if e["type"] in {"passed", "no_refutation"}] == [
        {"type": "passed", "seat": "Miss Scarlet"},
        {"type": "passed", "seat": "Colonel Mustard"},
        {"type": "no_refutation", "suggester": "Mrs. White"},
    ]
    assert events[11] == [{"type": "moved", "seat": "Miss Scarlet", "to": "Conservatory", "via": "passage"}]
    assert events[12] == [
        {"type": "accused", "seat": "Miss Scarlet", "suspect": "Professor Plum", "weapon": "Rope",
         "room": "Kitchen", "correct": True},
        {"type": "game_over", "winner": "Miss Scarlet", "solution": SOLUTION},
    ]
    seen = {e["type"] for line in events.values() for e in line}
    assert set(CLASSIC_EVENT_FIELDS) <= seen  # a Classic game has every Classic event
    for line in events.values():
        for event in line:
            if event["type"] in EVENT_FIELDS:
                assert set(event) == {"type"} | EVENT_FIELDS[event["type"]], event


def test_roll_without_dice_is_rolled_by_the_engine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = replay_json(tmp_path, capsys, [setup(), {"type": "roll", "seat": "Miss Scarlet"}])
    [rolled] = results[1]["events"]
    assert set(rolled) == {"type", "seat", "dice", "total"}
    assert rolled["type"] == "rolled" and rolled["seat"] == "Miss Scarlet"
    assert len(rolled["dice"]) == 1 and 1 <= rolled["dice"][0] <= 6
    assert rolled["total"] == sum(rolled["dice"])


def test_everyone_out_ends_the_game_with_no_winner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wrong = {"suspect": "Mr. Green", "weapon": "Knife", "room": "Hall"}
    lines: list[Any] = [setup()]
    for seat in SEATS:
        lines += [{"type": "accuse", "seat": seat, **wrong}, {"type": "end_turn", "seat": seat}]
    results = replay_json(tmp_path, capsys, lines)
    final = [r for r in results if r["ok"] and any(e["type"] == "game_over" for e in r["events"])]
    assert len(final) == 1
    assert final[0]["events"][-1] == {"type": "game_over", "winner": None, "solution": SOLUTION}
    assert results[-1]["ok"] is False and results[-1]["error"]["code"] == "game_over"


# --- views -------------------------------------------------------------------------------------


def test_view_of_a_third_seat_hides_the_card_shown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = events_by_line(replay_json(tmp_path, capsys, SCENARIO, "--view", "Mrs. White"))
    assert events[5] == [{"type": "card_shown", "by": "Colonel Mustard", "to": "Miss Scarlet"}]
    dealt = [e for e in events[1] if e["type"] == "cards_dealt"]
    assert [("cards" in e) for e in dealt] == [False, False, True]
    assert events[12][-1] == {"type": "game_over", "winner": "Miss Scarlet", "solution": SOLUTION}


@pytest.mark.parametrize("seat", ["Miss Scarlet", "Colonel Mustard", "colonel mustard"])
def test_view_of_either_party_keeps_the_card_shown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], seat: str) -> None:
    events = events_by_line(replay_json(tmp_path, capsys, SCENARIO, "--view", seat))
    assert events[5] == [{"type": "card_shown", "by": "Colonel Mustard", "to": "Miss Scarlet", "card": "Mrs. White"}]
    assert events[12][-1]["solution"] == SOLUTION


def test_view_lines_match_the_full_output_apart_from_secrets(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    full = replay_json(tmp_path, capsys, SCENARIO)
    white = replay_json(tmp_path, capsys, SCENARIO, "--view", "Mrs. White")
    assert [r["line"] for r in white] == [r["line"] for r in full]
    for everything, seen in zip(full, white):
        for a, b in zip(everything["events"], seen["events"], strict=True):
            secret = {"card"} if a["type"] == "card_shown" and "Mrs. White" not in (a["by"], a["to"]) else set()
            if a["type"] == "cards_dealt" and a["seat"] != "Mrs. White":
                secret = {"cards"}
            assert b == {k: v for k, v in a.items() if k not in secret}


FINAL_KEYS = {"seat", "hand", "face_up", "shown_to_me", "turn", "position", "eliminated", "solution"}


def test_final_view_of_a_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = replay_json(tmp_path, capsys, SCENARIO, "--view", "Miss Scarlet", "--final-view")
    assert len(output) == len(SCENARIO) + 1
    assert all("line" in r for r in output[:-1])
    view = output[-1]
    assert FINAL_KEYS <= set(view)
    assert view["seat"] == "Miss Scarlet"
    assert sorted(view["hand"]) == sorted(HANDS["Miss Scarlet"])
    assert view["face_up"] == []
    assert view["shown_to_me"] == [{"by": "Colonel Mustard", "card": "Mrs. White"}]
    assert view["eliminated"] == ["Colonel Mustard"]
    assert view["solution"] == SOLUTION
    assert view["position"]["Miss Scarlet"] == "Conservatory"
    assert view["position"]["Mrs. White"] == "Lounge"
    assert view["position"]["Professor Plum"] == "Lounge"
    assert set(view["position"]) == {"Miss Scarlet", "Colonel Mustard", "Mrs. White", "Mr. Green",
                                     "Mrs. Peacock", "Professor Plum"}


def test_final_view_mid_game_hides_the_solution(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = replay_json(tmp_path, capsys, SCENARIO[:8], "--view", "Mrs. White", "--final-view")
    view = output[-1]
    assert FINAL_KEYS <= set(view)
    assert view["seat"] == "Mrs. White"
    assert view["turn"] == "Mrs. White"
    assert sorted(view["hand"]) == sorted(HANDS["Mrs. White"])
    assert view["shown_to_me"] == []
    assert view["eliminated"] == ["Colonel Mustard"]
    assert view["solution"] is None
    assert view["position"]["Mrs. White"] == "Lounge"
    assert not any(e["type"] == "game_over" for e in view["record"])
    assert carried_cards(view) <= set(HANDS["Mrs. White"])


def test_final_view_without_view_is_the_public_view(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = replay_json(tmp_path, capsys, SCENARIO[:6], "--final-view")
    view = output[-1]
    assert "line" not in view
    assert FINAL_KEYS <= set(view)
    assert view["seat"] is None
    assert view["hand"] == []
    assert view["shown_to_me"] == []
    assert view["turn"] == "Colonel Mustard"
    assert view["solution"] is None
    assert view["eliminated"] == []
    assert carried_cards(view) == set()
    assert [e for e in view["record"] if e["type"] == "card_shown"] == [
        {"type": "card_shown", "by": "Colonel Mustard", "to": "Miss Scarlet"}]


def test_final_view_as_the_last_line_of_the_sample(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SAMPLE), "--final-view", "--view", "Mrs. White"]) == 0
    lines = capsys.readouterr().out.splitlines()
    view = json.loads(lines[-1])
    assert FINAL_KEYS <= set(view)
    assert view["seat"] == "Mrs. White"
    assert sorted(view["hand"]) == sorted(["Conservatory", "Professor Plum", "Ballroom", "Mrs. White"])
    assert view["solution"] == {"suspect": "Mrs. Peacock", "weapon": "Knife", "room": "Lounge"}
    assert all(set(s) == {"by", "card"} for s in view["shown_to_me"])
    assert all(json.loads(line)["ok"] for line in lines[:-1])


# --- standard input ----------------------------------------------------------------------------


def test_reads_the_record_from_stdin_with_dash() -> None:
    done = run_cli("replay", "-", stdin=SAMPLE.read_bytes())
    from_file = run_cli("replay", str(SAMPLE))
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout == from_file.stdout
    assert len(done.stdout.splitlines()) == 82


# --- an unusable file or setup line: exit 2, one line on stderr ----------------------------------


def test_missing_file_exits_2_with_one_line(tmp_path: Path) -> None:
    done = run_cli("replay", str(tmp_path / "nowhere.jsonl"))
    assert_one_line_error(done.returncode, done.stdout, done.stderr)
    assert b"nowhere.jsonl" in done.stderr


def test_empty_stdin_exits_2_with_one_line() -> None:
    done = run_cli("replay", "-", stdin=b"")
    assert_one_line_error(done.returncode, done.stdout, done.stderr)


def test_bad_setup_line_through_the_console_script() -> None:
    done = run_cli("replay", "-", stdin=b'{"type": "setup", "edition": "classic", "seats": [\n')
    assert_one_line_error(done.returncode, done.stdout, done.stderr)


def _deal(**changes: Any) -> dict[str, Any]:
    deal: dict[str, Any] = {"envelope": list(ENVELOPE), "hands": {s: list(c) for s, c in HANDS.items()},
                            "face_up": []}
    deal.update(changes)
    return deal


def _hands(moves: dict[str, list[str]]) -> dict[str, list[str]]:
    hands = {s: list(c) for s, c in HANDS.items()}
    hands.update(moves)
    return hands


SWAPPED = dict(HANDS, **{"Miss Scarlet": HANDS["Miss Scarlet"][:-1] + ["Wrench"]})

BAD_SETUPS: dict[str, Any] = {
    "empty file": b"",
    "only blank lines": b"\n   \n\t\n",
    "not JSON": b"setup: classic\n",
    "truncated JSON": b'{"type": "setup", "edition": "classic"\n',
    "a JSON array": json.dumps([setup()]).encode() + b"\n",
    "not UTF-8": b'{"type": "setup", "edition": "cl\xffssic"}\n',
    "not a setup line": jsonl([{"type": "roll", "seat": "Miss Scarlet"}]),
    "no type": jsonl([{k: v for k, v in setup().items() if k != "type"}]),
    "unknown edition": jsonl([setup(edition="monopoly")]),
    "edition not a string": jsonl([setup(edition=3)]),
    "variant the edition lacks": jsonl([{"type": "setup", "edition": "classic", "variant": "two_player",
                                         "seats": ["Miss Scarlet", "Mrs. White"]}]),
    "unknown seat name": jsonl([setup(seats=["Miss Scarlet", "Sherlock Holmes", "Mrs. White"], deal=None)]),
    "too few seats": jsonl([setup(seats=["Miss Scarlet", "Mrs. White"], deal=None)]),
    "too many seats": jsonl([setup(seats=["Miss Scarlet", "Colonel Mustard", "Mrs. White", "Mr. Green",
                                          "Mrs. Peacock", "Professor Plum", "Miss Scarlet"], deal=None)]),
    "seat twice": jsonl([setup(seats=["Miss Scarlet", "Miss Scarlet", "Mrs. White"], deal=None)]),
    "seats not a list": jsonl([setup(seats="Miss Scarlet", deal=None)]),
    "seed a string": jsonl([setup(seed="7")]),
    "seed NaN": b'{"type": "setup", "edition": "classic", "seats": ["Miss Scarlet", "Mrs. White", "Mr. Green"], '
                b'"seed": NaN}\n',
    "unknown setup field": jsonl([setup(players=3)]),
    "bonus_cards not a boolean": jsonl([setup(bonus_cards="no")]),
    "bonus_cards left out of an edition without any": jsonl([setup(bonus_cards=False)]),
    "missing seats": jsonl([{"type": "setup", "edition": "classic"}]),
    "bad deal: card twice": jsonl([setup(deal=_deal(hands=SWAPPED))]),
    "bad deal: envelope of two weapons": jsonl([setup(deal=_deal(envelope=["Rope", "Knife", "Kitchen"]))]),
    "bad deal: unknown card": jsonl([setup(deal=_deal(envelope=["Professor Plum", "Banana", "Kitchen"]))]),
    "bad deal: hand sizes": jsonl([setup(deal=_deal(hands=_hands({
        "Miss Scarlet": HANDS["Miss Scarlet"] + ["Mrs. Peacock"], "Mrs. White": HANDS["Mrs. White"][1:]})))]),
    "bad deal: a seat without a hand": jsonl([setup(deal=_deal(hands={
        "Miss Scarlet": HANDS["Miss Scarlet"] + HANDS["Mrs. White"][:3],
        "Colonel Mustard": HANDS["Colonel Mustard"] + HANDS["Mrs. White"][3:]}))]),
    "bad deal: face-up cards in Classic": jsonl([setup(deal=_deal(
        hands=_hands({"Mrs. White": HANDS["Mrs. White"][1:]}), face_up=[HANDS["Mrs. White"][0]]))]),
    "bad deal: hand for an unseated suspect": jsonl([setup(deal=_deal(hands={
        "Miss Scarlet": HANDS["Miss Scarlet"], "Colonel Mustard": HANDS["Colonel Mustard"],
        "Mr. Green": HANDS["Mrs. White"]}))]),
    "huge setup line": b'{"type": "setup", "pad": "' + b"x" * 2_000_000 + b'"}\n',
}


@pytest.mark.parametrize("content", BAD_SETUPS.values(), ids=BAD_SETUPS.keys())
def test_unusable_setup_exits_2_with_a_one_line_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes) -> None:
    code, out, err = run_main(tmp_path, capsys, content + jsonl([{"type": "roll", "seat": "Miss Scarlet"}]))
    assert_one_line_error(code, "\n".join(out), err)


@pytest.mark.parametrize("content", [b"", b"\n\n  \n"], ids=["empty", "blank lines"])
def test_empty_record_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes) -> None:
    code, out, err = run_main(tmp_path, capsys, content)
    assert_one_line_error(code, "\n".join(out), err)


def test_directory_instead_of_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert_one_line_error(2, out, err)


def test_view_of_a_seat_not_playing_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(tmp_path, capsys, SCENARIO, "--view", "Mr. Green")
    assert_one_line_error(code, "\n".join(out), err)


def test_message_with_a_newline_in_the_input_stays_on_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(tmp_path, capsys, [setup(edition="class\nic\r\nx")])
    assert_one_line_error(code, "\n".join(out), err)


# --- malformed action lines: a clear error each, and the game goes on -----------------------------

ROLL = '{"type": "roll", "seat": "Miss Scarlet", "dice": %s}'

MALFORMED: dict[str, tuple[bytes | str, str]] = {
    "truncated JSON": ('{"type": "roll", "seat": "Miss Sc', "bad_input"),
    "truncated object": ('{"type": "roll", "seat": "Miss Scarlet"', "bad_input"),
    "not JSON at all": ("roll Miss Scarlet 6", "bad_input"),
    "seat as number": ('{"type": "roll", "seat": 3}', "bad_input"),
    "seat as null": ('{"type": "roll", "seat": null}', "bad_input"),
    "seat as list": ('{"type": "roll", "seat": ["Miss Scarlet"]}', "bad_input"),
    "seat empty": ('{"type": "roll", "seat": ""}', "bad_input"),
    "seat overlong": ('{"type": "roll", "seat": "%s"}' % ("S" * 5000), "bad_input"),
    "dice as string": (ROLL % '"6"', "bad_input"),
    "dice as number": (ROLL % "6", "bad_input"),
    "dice [7]": (ROLL % "[7]", "bad_input"),
    "dice [0]": (ROLL % "[0]", "bad_input"),
    "dice [-1]": (ROLL % "[-1]", "bad_input"),
    "dice []": (ROLL % "[]", "bad_input"),
    "two dice in Classic": (ROLL % "[3, 3]", "bad_input"),
    "dice [true]": (ROLL % "[true]", "bad_input"),
    "dice [2.5]": (ROLL % "[2.5]", "bad_input"),
    "dice [\"6\"]": (ROLL % '["6"]', "bad_input"),
    "dice with a 5000-digit number": (ROLL % ("[" + "9" * 5000 + "]"), "bad_input"),
    "NaN": (ROLL % "[NaN]", "bad_input"),
    "Infinity": (ROLL % "[Infinity]", "bad_input"),
    "-Infinity": (ROLL % "[-Infinity]", "bad_input"),
    "unknown action type": ('{"type": "teleport", "seat": "Miss Scarlet"}', "bad_input"),
    "type as number": ('{"type": 1, "seat": "Miss Scarlet"}', "bad_input"),
    "no type": ('{"seat": "Miss Scarlet"}', "bad_input"),
    "a second setup line": (json.dumps(setup()), "bad_input"),
    "unknown field": ('{"type": "roll", "seat": "Miss Scarlet", "speed": 3}', "bad_input"),
    "missing seat": ('{"type": "roll"}', "bad_input"),
    "missing field": ('{"type": "accuse", "seat": "Miss Scarlet", "suspect": "Mr. Green", "weapon": "Rope"}',
                      "bad_input"),
    "a JSON array": ('[{"type": "roll", "seat": "Miss Scarlet"}]', "bad_input"),
    "a JSON string": ('"roll"', "bad_input"),
    "a JSON number": ("6", "bad_input"),
    "JSON null": ("null", "bad_input"),
    "empty object": ("{}", "bad_input"),
    "invalid UTF-8": (b'{"type": "roll", "seat": "Miss Sc\xe9rlet"}', "bad_input"),
    "lone continuation bytes": (b"\x80\x80\x80", "bad_input"),
    "deeply nested arrays": ('{"type": "roll", "seat": "Miss Scarlet", "dice": ' + "[" * 20000 + "]" * 20000 + "}",
                             "bad_input"),
    "deeply nested objects": ('{"a":' * 10000 + "1" + "}" * 10000, "bad_input"),
    "unknown seat": ('{"type": "roll", "seat": "Sherlock Holmes"}', "unknown_seat"),
    "suspect not seated": ('{"type": "roll", "seat": "Mr. Green"}', "unknown_seat"),
    "weapon as seat": ('{"type": "roll", "seat": "Rope"}', "unknown_seat"),
    "unknown room": ('{"type": "move", "seat": "Miss Scarlet", "to": "Garage"}', "unknown_card"),
    "unknown weapon": ('{"type": "accuse", "seat": "Miss Scarlet", "suspect": "Mr. Green", "weapon": "Banana", '
                       '"room": "Hall"}', "unknown_card"),
    "weapon named as suspect": ('{"type": "accuse", "seat": "Miss Scarlet", "suspect": "Rope", "weapon": "Knife", '
                                '"room": "Hall"}', "unknown_card"),
}


@pytest.mark.parametrize("line, code", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_line_gets_its_code_and_the_next_line_still_plays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], line: bytes | str, code: str) -> None:
    lines: list[Any] = [setup(), line, {"type": "roll", "seat": "Miss Scarlet", "dice": [6]}]
    results = replay_json(tmp_path, capsys, lines)
    assert [r["line"] for r in results] == [1, 2, 3]
    assert results[1]["ok"] is False
    assert results[1]["error"]["code"] == code
    message = results[1]["error"]["message"]
    assert isinstance(message, str) and 0 < len(message) < 2000 and "Traceback" not in message
    assert results[2] == {"line": 3, "ok": True,
                          "events": [{"type": "rolled", "seat": "Miss Scarlet", "dice": [6], "total": 6}]}


def test_unknown_names_in_a_suggestion_are_unknown_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines: list[Any] = SCENARIO[:3] + [
        {"type": "suggest", "seat": "Miss Scarlet", "suspect": "Sherlock Holmes", "weapon": "Rope"},
        {"type": "suggest", "seat": "Miss Scarlet", "suspect": "Mrs. White", "weapon": "Banana"},
        {"type": "suggest", "seat": "Miss Scarlet", "suspect": "Mrs. White", "weapon": "Rope", "room": "Hall"},
        {"type": "suggest", "seat": "Miss Scarlet", "suspect": "mrs white", "weapon": "ROPE"},
        {"type": "show", "seat": "Colonel Mustard", "card": "Banana"},
        {"type": "show", "seat": "Colonel Mustard", "card": "Mrs. White"},
    ]
    results = replay_json(tmp_path, capsys, lines)
    assert [r["ok"] for r in results[3:]] == [False, False, False, True, False, True]
    assert [r["error"]["code"] for r in results[3:] if not r["ok"]] == ["unknown_card", "unknown_card",
                                                                         "bad_input", "unknown_card"]
    assert "Rope" in results[4]["error"]["message"]  # the error lists the valid names


def test_huge_line_does_not_crash_and_the_next_line_is_processed() -> None:
    huge = b'{"type": "roll", "seat": "Miss Scarlet", "note": "' + b"x" * (5 * 1024 * 1024) + b'"}'
    record = jsonl([setup(), huge, {"type": "roll", "seat": "Miss Scarlet", "dice": [6]},
                    {"type": "move", "seat": "Miss Scarlet", "to": "Lounge"}])
    done = run_cli("replay", "-", stdin=record)
    assert done.returncode == 0
    assert done.stderr == b""
    assert len(done.stdout) < 10_000  # the huge line is not echoed back
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["line"] for r in results] == [1, 2, 3, 4]
    assert results[1]["ok"] is False and results[1]["error"]["code"] == "bad_input"
    assert results[2]["ok"] and results[3]["ok"]
    assert results[3]["events"] == [{"type": "moved", "seat": "Miss Scarlet", "to": "Lounge", "via": "roll"}]


def test_huge_last_line_without_newline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = jsonl([setup()]) + b"[" * (3 * 1024 * 1024)
    results = replay_json(tmp_path, capsys, record)
    assert [r["line"] for r in results] == [1, 2]
    assert results[1]["error"]["code"] == "bad_input"


def test_every_malformed_line_in_one_file_through_the_console_script() -> None:
    """All the bad lines at once, in a child process: exit 0, no traceback, one result each."""
    lines: list[Any] = [setup()]
    for line, _ in MALFORMED.values():
        lines.append(line)
    lines.append({"type": "roll", "seat": "Miss Scarlet", "dice": [6]})
    done = run_cli("replay", "-", stdin=jsonl(lines))
    assert done.returncode == 0
    assert done.stderr == b""
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["line"] for r in results] == list(range(1, len(lines) + 1))
    assert [r["error"]["code"] for r in results[1:-1]] == [code for _, code in MALFORMED.values()]
    assert all(r["error"]["code"] in CODES for r in results[1:-1])
    assert results[-1]["ok"] is True


def test_non_ascii_input_on_a_non_utf8_console_gets_an_error_not_a_traceback() -> None:
    """A misspelt seat ("Mrs. Whité") echoed in the error must not crash an ASCII-only stdout."""
    record = jsonl([setup(), '{"type": "roll", "seat": "Mrs. Whit\u00e9 \u2603"}',
                    {"type": "roll", "seat": "Miss Scarlet", "dice": [6]}])
    done = run_cli("replay", "-", stdin=record, env={"PYTHONIOENCODING": "ascii"})
    assert b"Traceback" not in done.stderr, done.stderr.decode("utf-8", "replace")[-300:]
    assert done.returncode == 0
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["line"] for r in results] == [1, 2, 3]
    assert results[1]["error"]["code"] == "unknown_seat"
    assert results[2]["ok"] is True


def test_windows_line_endings_replay_the_same(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = replay_json(tmp_path, capsys, SAMPLE.read_bytes())
    crlf = replay_json(tmp_path, capsys, SAMPLE.read_bytes().replace(b"\n", b"\r\n"))
    assert crlf == plain


def test_narrated_view_of_a_third_seat_keeps_the_card_secret(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(tmp_path, capsys, SCENARIO, "--narrate", "--view", "Mrs. White")
    assert (code, err) == (0, "")
    assert "Colonel Mustard shows Miss Scarlet a card." in out
    assert not any("Colonel Mustard shows Miss Scarlet" in line and "Mrs. White" in line for line in out)
    code, out, err = run_main(tmp_path, capsys, SCENARIO, "--narrate", "--view", "Miss Scarlet")
    assert "Colonel Mustard shows Miss Scarlet: Mrs. White." in out
