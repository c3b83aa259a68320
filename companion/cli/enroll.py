"""``clue-companion enroll``: guided tag enrolment on the board.

The flow itself is :class:`companion.table.enrolment.Enrolment` (pure); this module
opens the store and the board link, feeds the link's events to the flow,
prints what it says one line at a time, and saves each piece in the store as
soon as its vote is decided, so stopping half-way loses nothing done.
"""

from __future__ import annotations

import argparse
import os
import queue
import sys
import threading
import time
from collections.abc import Sequence
from typing import IO, Any

from companion.rules.edition import Edition, load_edition
from companion.rules.errors import BadInput
from companion.table.enrolment import Enrolment, Message, find_piece, pieces_of
from companion.table.store import Store
from companion.table.tags import Kind, Piece, TagError, TagMap
from hardware.board_link import PICO_VID, PORT_VARIABLE, BoardLink
from hardware.link_core import LinkTiming
from hardware.link_events import LinkDown, LinkEvent, LinkUp, ReadersChanged, TagPlaced, TagRemoved

from .where import add_serial_option, resolve

ONLY: dict[str, Kind] = {"cards": "card", "movers": "mover", "weapons": "weapon", "tokens": "weapon"}
SKIP = "skip"  # put on the event queue when the player presses Enter
Event = LinkEvent | str


def add_parser(commands: Any) -> None:
    enroll = commands.add_parser(
        "enroll", help="enrol the tags of every card, mover and weapon token",
        description="Tap each piece on any reader when asked; each is read several times and the UID read "
                    "most (more than half the time) is saved in the store at once.")
    enroll.add_argument("--edition", default="classic", help="edition id or name (default classic)")
    enroll.add_argument("--config", help="hardware config (TOML), as for run: default $CLUE_COMPANION_CONFIG, "
                                         "then /etc/clue-companion.toml if it exists")
    enroll.add_argument("--db", metavar="PATH", help="the store, as for run: default $CLUE_COMPANION_DB, then the "
                                                     "config's [store] path, then "
                                                     "$XDG_DATA_HOME/clue-companion/companion.db")
    add_serial_option(enroll)
    enroll.add_argument("--reads", type=_reads, default=3, help="reads per piece, 1 to 9 (default 3)")
    enroll.add_argument("--only", action="append", choices=sorted(ONLY), help="only these pieces (repeatable)")
    what = enroll.add_mutually_exclusive_group()
    what.add_argument("--spare", metavar="NAME", help="add a spare tag to one piece: Rope, 'mover:Miss Scarlet', "
                                                      "token:Rope")
    what.add_argument("--redo", metavar="NAME", help="re-enrol one piece: its old tags are replaced")
    what.add_argument("--list", action="store_true", help="print the edition's tags and the pieces without one")
    what.add_argument("--forget", metavar="UID", help="remove one tag")
    enroll.add_argument("--kind", choices=("card", "mover", "token"), help="what --spare/--redo NAME is "
                                                                          "(default card)")
    enroll.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                        help="stop after this long without progress (default: wait until Ctrl-C)")
    # Hidden: tests run the board fast.
    enroll.add_argument("--settle", type=_seconds, default=LinkTiming.settle, help=argparse.SUPPRESS)
    enroll.set_defaults(command=_enroll)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: seconds cannot be negative")
    return value


def _reads(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 9:
        raise argparse.ArgumentTypeError(f"{text!r}: reads per piece is a whole number from 1 to 9")
    return int(text)


def _enroll(args: argparse.Namespace) -> int:
    edition = load_edition(args.edition)
    kinds = sorted({ONLY[only] for only in args.only}) if args.only else None
    if args.kind and not (args.spare or args.redo):
        raise BadInput("--kind says what --spare or --redo NAME is; use --only to choose kinds of pieces")
    named = args.spare or args.redo
    piece = find_piece(edition, named, args.kind) if named else None  # a bad name stops before the store opens
    out = sys.stdout
    _, config, store_at = resolve(args.config, args.db, os.environ)
    # On standard error: standard output stays the listing or the guided flow.
    print(store_at.line(), file=sys.stderr, flush=True)
    port = args.serial or config.board_port
    with Store(store_at.path) as store:
        if args.list:
            list_tags(edition, store.tag_map(edition.id), kinds, out)
            return 0
        if args.forget:
            return forget_tag(store, edition, args.forget, out)
        flow = _flow(args, edition, store.tag_map(edition.id), kinds, piece)
        if flow.done:
            _say(out, f"Every piece already has a tag in {edition.name}: add a spare with --spare NAME, "
                      f"replace one with --redo NAME, see them with --list")
            return 0
        skips = sys.stdin if sys.stdin is not None and sys.stdin.isatty() else None
        return enrol_on_board(flow, store, port, out, timing=LinkTiming(settle=args.settle),
                              timeout=args.timeout, skips=skips)


def _flow(args: argparse.Namespace, edition: Edition, tags: TagMap, kinds: Sequence[str] | None,
          piece: Piece | None) -> Enrolment:
    if piece is not None:
        mode = "spare" if args.spare else "redo"
        return Enrolment(edition.id, tags, [piece], reads=args.reads, mode=mode)
    have = tags.pieces()
    todo = [piece for piece in pieces_of(edition, kinds or ("card", "mover", "weapon")) if piece not in have]
    return Enrolment(edition.id, tags, todo, reads=args.reads)


# ---- --list and --forget ------------------------------------------------------------------------


def list_tags(edition: Edition, tags: TagMap, kinds: Sequence[str] | None, out: IO[str]) -> None:
    """Print each tag (UID, piece) in piece order, then the pieces that have none."""
    pieces = pieces_of(edition, kinds or ("card", "mover", "weapon"))
    missing = [piece for piece in pieces if not tags.uids(piece)]
    _say(out, f"{edition.name}: {len(pieces) - len(missing)} of {len(pieces)} pieces have a tag")
    for piece in pieces:
        for number, uid in enumerate(tags.uids(piece)):
            _say(out, f"{uid}  {piece.describe()}{' (spare)' if number else ''}")
    strays = sorted((piece, uid) for uid, piece in tags.items() if piece not in pieces_of(edition))
    for piece, uid in strays:
        _say(out, f"{uid}  {piece.describe()} (not a piece of {edition.name}; --forget it)")
    if missing:
        _say(out, f"No tag yet ({len(missing)}): {', '.join(piece.describe() for piece in missing)}")


def forget_tag(store: Store, edition: Edition, uid: str, out: IO[str]) -> int:
    """Remove one tag from the store; a tag that is not enrolled is a :class:`TagError`."""
    piece = store.forget(edition.id, uid)
    if piece is None:
        raise TagError(f"{uid} is not enrolled in {edition.name}; clue-companion enroll --list shows the tags")
    _say(out, f"Forgot {uid.strip().upper()}: it was {piece.describe()}")
    return 0


# ---- the guided flow on the board ---------------------------------------------------------------


def enrol_on_board(flow: Enrolment, store: Store, port: str | None, out: IO[str], *,
                   timing: LinkTiming = LinkTiming(), timeout: float | None = None,
                   skips: IO[str] | None = None) -> int:
    """Run ``flow`` on the board at ``port`` (as :class:`BoardLink` finds it), saving as it goes.

    Returns 0 once every piece is done, 1 after ``timeout`` seconds without
    progress, 130 after Ctrl-C. A line on ``skips`` skips the current piece.
    """
    events: queue.Queue[Event] = queue.Queue()  # the link's events and the skips, in order
    where = port or os.environ.get(PORT_VARIABLE) or f"the first USB device with vendor ID 0x{PICO_VID:04X}"
    _say(out, f"Waiting for the board on {where}…")
    saver = _Saver(flow, store)
    try:
        with BoardLink(port, events.put, timing=timing):
            if skips is not None:
                _watch(skips, events)
                _say(out, "Press Enter to skip a piece; Ctrl-C to stop (what is done stays saved).")
            finished = _loop(flow, events, saver, out, timeout)
    except KeyboardInterrupt:
        _say(out, "Stopped.")
        finished = False
        code = 130
    else:
        code = 0 if finished else 1
    _summary(flow, out)
    return code


def _loop(flow: Enrolment, events: queue.Queue[Event], saver: _Saver, out: IO[str], timeout: float | None) -> bool:
    last = time.monotonic()
    while not flow.done:
        waited = time.monotonic() - last
        if timeout is not None and waited >= timeout:
            _say(out, f"No progress for {timeout:g} s: stopping.")
            return False
        try:
            event = events.get(timeout=0.5 if timeout is None else min(0.5, timeout - waited))
        except queue.Empty:
            continue
        lines = _handle(flow, event)
        saver.save_new()  # before saying so: what was announced is on disk
        # Only the player's doing is progress: a board that keeps dropping out does not hold the timeout off.
        if lines and isinstance(event, (TagPlaced, TagRemoved, str)):
            last = time.monotonic()
        for line in lines:
            _say(out, str(line))
    return True


def _handle(flow: Enrolment, event: Event) -> list[Message | str]:
    """What to print for one event (after feeding it to the flow)."""
    match event:
        case TagPlaced(reader, uid):
            return list(flow.tag_placed(reader, uid))
        case TagRemoved(reader, uid):
            return list(flow.tag_removed(reader, uid))
        case LinkUp(info):
            failed = f" (not answering: {', '.join(map(str, sorted(info.failed)))})" if info.failed else ""
            return [f"Board ready: {info.readers} readers{failed}", flow.prompt()]
        case LinkDown(reason):
            return [f"Board lost: {reason.rstrip('.')}{'' if reason.endswith('?') else '.'} Waiting for it…"]
        case ReadersChanged(_, failed) if failed:
            return [f"Readers not answering: {', '.join(map(str, sorted(failed)))}; use another one"]
        case str():
            return list(flow.skip())
    return []


class _Saver:
    """Saves each decided piece once, as soon as the flow decides it."""

    def __init__(self, flow: Enrolment, store: Store) -> None:
        self._flow = flow
        self._store = store
        self._saved: set[Piece] = set()

    def save_new(self) -> None:
        edition = self._flow.edition.id
        for piece, uid in self._flow.results.items():
            if piece in self._saved:
                continue
            if self._flow.mode == "redo":
                self._store.forget_piece(edition, piece)
            self._store.enrol(edition, uid, piece)
            self._saved.add(piece)


def _summary(flow: Enrolment, out: IO[str]) -> None:
    verb = {"enrol": "Enrolled", "spare": "Added a spare tag to", "redo": "Re-enrolled"}[flow.mode]
    total = len(flow.pieces)
    _say(out, f"{verb} {len(flow.results)} of {total} piece{'s' if total != 1 else ''}")
    if flow.skipped:
        _say(out, f"Skipped: {', '.join(piece.describe() for piece in flow.skipped)}")
    left = flow.pieces[flow.progress()[0]:]
    named = ", ".join(piece.describe() for piece in left) if len(left) <= 5 else f"{len(left)} pieces"
    if left and flow.mode == "enrol":
        _say(out, f"Still without a tag: {named}; run clue-companion enroll again to carry on")
    elif left:
        _say(out, f"Not done: {named}")


def _watch(lines: IO[str], events: queue.Queue[Event]) -> None:
    """Turn each line typed on ``lines`` into a skip, in a daemon thread."""
    def read() -> None:
        try:
            for _ in lines:
                events.put(SKIP)
        except (OSError, ValueError):
            pass  # closed under us: no more skips
    threading.Thread(target=read, name="enroll-skips", daemon=True).start()


def _say(out: IO[str], text: str) -> None:
    print(text, file=out, flush=True)
