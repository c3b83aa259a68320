"""`clue-companion enroll` end to end: the real BoardLink, a VirtualBoard over a pty, the real store.

A `Hand` stands in for the person at the board: it reads each line the
command prints and taps or lifts tags as the prompt says.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator

import pytest

from companion.cli.enroll import enrol_on_board
from companion.cli.main import main
from companion.rules.edition import load_edition
from companion.table.enrolment import Enrolment
from companion.table.store import Store
from companion.table.tags import Piece, TagMap
from hardware.board_core import BoardTiming
from hardware.link_core import LinkTiming
from hardware.virtual_board import VirtualBoard

MOVERS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White", "Mr. Green", "Mrs. Peacock", "Professor Plum")
UIDS = {name: f"04:10:00:{n:02X}" for n, name in enumerate(MOVERS)}
ROPE = Piece("card", "Rope")
OLD, NEW = "04:AA:00:01", "04:BB:00:02"
FAST = ["--settle", "0.03", "--timeout", "5"]


class Hand(io.TextIOBase):
    """Reads what `enroll` prints; on "Tap X" puts X's next tag on a reader, on "Lift" lifts every tag.

    ``taps`` maps what a prompt names ("Miss Scarlet's mover") to the tags to
    use in turn (the last one again and again); a prompt it has no tag for is
    left unanswered, like a player who walked away.
    """

    def __init__(self, board: VirtualBoard, taps: dict[str, list[str]], on_prompt=None) -> None:
        super().__init__()
        self.board = board
        self.taps = {what: list(uids) for what, uids in taps.items()}
        self.on_prompt = on_prompt
        self.lines: list[str] = []
        self._partial = ""
        self._lying: list[str] = []
        self._taps = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._partial += text
        while "\n" in self._partial:
            line, self._partial = self._partial.split("\n", 1)
            self.lines.append(line)
            self._act(line)
        return len(text)

    def _act(self, line: str) -> None:
        if line.startswith("Tap "):
            what = line[len("Tap "):line.index(" on any reader")]
            if self.on_prompt:
                self.on_prompt(what)
            uids = self.taps.get(what)
            if uids and not self._lying:  # the prompt again after the board came back: it is already there
                uid = uids.pop(0) if len(uids) > 1 else uids[0]
                self.board.place(uid, self._taps % 4)  # any reader will do
                self._taps += 1
                self._lying.append(uid)
        elif line.startswith("Lift "):
            for uid in self._lying:
                self.board.remove(uid)
            self._lying = []


@pytest.fixture
def board() -> Iterator[VirtualBoard]:
    with VirtualBoard(readers=4, timing=BoardTiming(debounce=0.015)) as vb:
        yield vb


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "companion.db")


def tags(db: str, edition: str = "classic") -> TagMap:
    with Store(db) as store:
        return store.tag_map(edition)


def enroll(monkeypatch, hand: Hand, *args: str) -> int:
    monkeypatch.setattr(sys, "stdout", hand)
    return main(["enroll", *args])


def mover_taps() -> dict[str, list[str]]:
    return {f"{name}'s mover": [uid] for name, uid in UIDS.items()}


def test_the_movers_are_enrolled_three_reads_each_then_listed(monkeypatch, capsys, board, db):
    hand = Hand(board, mover_taps())
    assert enroll(monkeypatch, hand, "--db", db, "--serial", board.port, "--only", "movers", *FAST) == 0
    assert hand.lines[0] == f"Waiting for the board on {board.port}…"
    assert hand.lines[1:3] == ["Board ready: 4 readers", "Tap Miss Scarlet's mover on any reader (read 1 of 3)"]
    assert "Miss Scarlet's mover is 04:10:00:00 (3 of 3 reads)" in hand.lines
    assert hand.lines[-1] == "Enrolled 6 of 6 pieces"
    assert dict(tags(db).items()) == {uid: Piece("mover", name) for name, uid in UIDS.items()}

    monkeypatch.undo()
    assert main(["enroll", "--db", db, "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0] == "Classic CLUE: 6 of 33 pieces have a tag"
    assert listed[1:7] == [f"{uid}  {name}'s mover" for name, uid in UIDS.items()]
    assert listed[7].startswith("No tag yet (27): the Miss Scarlet card, ") and listed[7].endswith("the Wrench token")


def test_each_piece_is_saved_as_soon_as_its_vote_is_decided(monkeypatch, board, db):
    taps = {what: uids for what, uids in mover_taps().items() if "Scarlet" in what or "Mustard" in what}
    hand = Hand(board, taps)
    code = enroll(monkeypatch, hand, "--db", db, "--serial", board.port, "--only", "movers", "--reads", "1",
                  "--settle", "0.03", "--timeout", "0.5")
    assert code == 1
    assert hand.lines[-3:] == [
        "No progress for 0.5 s: stopping.", "Enrolled 2 of 6 pieces",
        "Still without a tag: Mrs. White's mover, Mr. Green's mover, Mrs. Peacock's mover, Professor Plum's mover; "
        "run clue-companion enroll again to carry on"]
    assert len(tags(db)) == 2


def test_ctrl_c_keeps_every_piece_already_decided(monkeypatch, board, db):
    def ctrl_c_at_mrs_white(what: str) -> None:
        if "White" in what:
            raise KeyboardInterrupt

    hand = Hand(board, mover_taps(), on_prompt=ctrl_c_at_mrs_white)
    code = enroll(monkeypatch, hand, "--db", db, "--serial", board.port, "--only", "movers", "--reads", "1", *FAST)
    assert code == 130
    assert hand.lines[-3:-1] == ["Stopped.", "Enrolled 2 of 6 pieces"]
    assert len(tags(db)) == 2


def test_a_tag_that_is_already_the_rope_card_is_refused(monkeypatch, board, db):
    with Store(db) as store:
        store.enrol("classic", OLD, ROPE)
    taps = mover_taps() | {"Miss Scarlet's mover": [OLD, UIDS["Miss Scarlet"]]}
    hand = Hand(board, taps)
    assert enroll(monkeypatch, hand, "--db", db, "--serial", board.port, "--only", "movers", "--reads", "1", *FAST) == 0
    assert ("04:AA:00:01 is already the Rope card. Use another tag, or re-enrol the Rope card first "
            "(clue-companion enroll --redo Rope).") in hand.lines
    enrolled = tags(db)
    assert enrolled.piece(OLD) == ROPE and enrolled.piece(UIDS["Miss Scarlet"]) == Piece("mover", "Miss Scarlet")


def test_redo_replaces_the_old_tag_in_the_store(monkeypatch, board, db):
    with Store(db) as store:
        store.enrol("classic", OLD, ROPE)
    hand = Hand(board, {"the Rope card": [NEW]})
    assert enroll(monkeypatch, hand, "--db", db, "--serial", board.port, "--redo", "rope", "--reads", "2", *FAST) == 0
    assert "The Rope card is now 04:BB:00:02 (2 of 2 reads); it replaces 04:AA:00:01" in hand.lines
    assert hand.lines[-1] == "Re-enrolled 1 of 1 piece"
    assert tags(db).uids(ROPE) == (NEW,) and OLD not in tags(db)


def test_a_spare_tag_is_added_for_a_mover(monkeypatch, board, db):
    scarlet = Piece("mover", "Miss Scarlet")
    with Store(db) as store:
        store.enrol("classic", OLD, scarlet)
    hand = Hand(board, {"a spare tag for Miss Scarlet's mover": [OLD, NEW]})
    code = enroll(monkeypatch, hand, "--db", db, "--serial", board.port, "--spare", "mover:Miss Scarlet",
                  "--reads", "1", *FAST)
    assert code == 0
    assert "04:AA:00:01 is already a tag of Miss Scarlet's mover: tap a new tag for the spare." in hand.lines
    assert tags(db).uids(scarlet) == (OLD, NEW)


def test_enter_skips_a_piece(board, db, tmp_path):
    read, write = os.pipe()
    with open(read, encoding="utf-8") as skips, open(write, "w", encoding="utf-8") as keyboard:
        def press_enter_for_mustard(what: str) -> None:
            if "Mustard" in what:
                keyboard.write("\n")
                keyboard.flush()

        hand = Hand(board, mover_taps(), on_prompt=press_enter_for_mustard)
        movers = [Piece("mover", name) for name in MOVERS[:3]]
        with Store(db) as store:
            flow = Enrolment("classic", TagMap(), movers, reads=1)
            code = enrol_on_board(flow, store, board.port, hand, timing=LinkTiming(settle=0.03), timeout=5,
                                  skips=skips)
    assert code == 0
    assert "Skipped Colonel Mustard's mover" in hand.lines
    assert hand.lines[-2:] == ["Enrolled 2 of 3 pieces", "Skipped: Colonel Mustard's mover"]
    assert len(tags(db)) == 2


def test_forget_removes_one_tag(capsys, db):
    with Store(db) as store:
        store.enrol("classic", OLD, ROPE)
    assert main(["enroll", "--db", db, "--forget", "04:aa:00:01"]) == 0
    assert capsys.readouterr().out == "Forgot 04:AA:00:01: it was the Rope card\n"
    assert len(tags(db)) == 0
    assert main(["enroll", "--db", db, "--forget", OLD]) == 2
    assert capsys.readouterr().err == (
        f"clue-companion: store {db} (from --db)\n"
        "clue-companion: 04:AA:00:01 is not enrolled in Classic CLUE; clue-companion enroll --list shows the tags\n")


def test_nothing_to_do_says_so_without_a_board(capsys, db):
    with Store(db) as store:
        for name, uid in UIDS.items():
            store.enrol("classic", uid, Piece("mover", name))
    assert main(["enroll", "--db", db, "--only", "movers", "--serial", "/nonexistent"]) == 0
    assert capsys.readouterr().out.startswith("Every piece already has a tag in Classic CLUE")


@pytest.mark.parametrize("args, message", [
    (["--spare", "Ropee"], "no card 'Ropee' in Classic CLUE (did you mean Rope?); cards are: "),
    (["--redo", "mover:Rope"], "no mover 'Rope' in Classic CLUE (did you mean Rope or token:Rope?)"),
    (["--redo", "Dalek", "--kind", "mover", "--edition", "doctor_who"], "no mover 'Dalek' in CLUE Doctor Who"),
    (["--kind", "mover"], "--kind says what --spare or --redo NAME is"),
    (["--edition", "monopoly", "--list"], "monopoly"),
])
def test_bad_names_exit_2_with_one_clear_line(capsys, db, args, message):
    assert main(["enroll", "--db", db, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("clue-companion: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_list_of_another_edition_is_its_own(capsys, db):
    with Store(db) as store:
        store.enrol("classic", OLD, ROPE)
    assert main(["enroll", "--db", db, "--edition", "master_detective", "--list", "--only", "weapons"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "CLUE Master Detective: 0 of 8 pieces have a tag"
    assert len(load_edition("master_detective").deck.weapons) == 8
