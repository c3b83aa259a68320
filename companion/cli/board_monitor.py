"""``clue-companion board-monitor`` and ``clue-companion virtual-board``.

board-monitor is the maker's wiring check: it prints every event of the board
link as one JSON line. virtual-board runs the mock twin over a pty and takes
driving commands on standard input.
"""

from __future__ import annotations

import argparse
import json
import queue
import re
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from companion.rules.errors import ClueError
from hardware.board_core import BoardTiming
from hardware.board_link import BoardLink
from hardware.link_core import LinkTiming
from hardware.link_events import BoardStats, LinkDown, LinkEvent, LinkUp
from hardware.protocol import PROTOCOL, parse_uid
from hardware.virtual_board import VirtualBoard

from .where import add_serial_option


def add_parsers(commands: Any) -> None:
    monitor = commands.add_parser(
        "board-monitor", help="connect to the board and print every event as a JSON line (wiring check)")
    add_serial_option(monitor, "the board's serial device or pyserial URL (default: $CLUE_BOARD_PORT, else the "
                               "first USB device with the Pico's vendor ID 0x2E8A)")
    monitor.add_argument("--settle", type=_seconds, default=LinkTiming.settle, metavar="SECONDS",
                         help=f"how long a tag must stay before it counts (default {LinkTiming.settle})")
    monitor.add_argument("--duration", type=_seconds, metavar="SECONDS", help="stop after this long (default: Ctrl-C)")
    monitor.add_argument("--survey", type=_seconds, metavar="SECONDS",
                         help="bench survey: count each reader's reads of each tag for this long, then print "
                              "the read rates (docs/hardware.md) and stop")
    monitor.add_argument("--json", action="store_true", help="with --survey: one JSON line instead of the table")
    monitor.add_argument("--edition", default="classic",
                         help="with --survey: name the tags enrolled for this edition (default classic)")
    monitor.add_argument("--config", help="with --survey: the config naming the store, as for run")
    monitor.add_argument("--db", metavar="PATH", help="with --survey: the store holding the enrolled tags, as for run")
    monitor.set_defaults(command=_monitor)

    board = commands.add_parser(
        "virtual-board", help="run the mock board on a pty and print its path; drive it from standard input",
        description="Commands on standard input (help lists them with examples): " + "; ".join(HELP))
    board.add_argument("--readers", type=_reader_count, default=16, help="how many readers, 1 to 255 (default 16)")
    board.add_argument("--link", metavar="PATH", help="keep a symlink here pointing at the current pty")
    board.add_argument("--firmware", default="1.0.0", type=_version(3), help="firmware version to report")
    board.add_argument("--protocol", default="%d.%d" % PROTOCOL, type=_version(2),
                       help="protocol version to speak (another major is refused by the host)")
    board.set_defaults(command=_virtual_board)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: seconds cannot be negative")
    return value


def _reader_count(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 255:
        raise argparse.ArgumentTypeError(f"{text!r}: a board has 1 to 255 readers")
    return int(text)


def _version(parts: int) -> Any:
    def parse(text: str) -> tuple[int, ...]:
        try:
            numbers = tuple(int(p) for p in text.split("."))
        except ValueError:
            numbers = ()
        if len(numbers) != parts or not all(0 <= n <= 255 for n in numbers):
            raise argparse.ArgumentTypeError(f"{text!r} is not a version like {'.'.join(['1'] * parts)}")
        return numbers
    return parse


# ---- board-monitor ---------------------------------------------------------------------------


def _monitor(args: argparse.Namespace) -> int:
    if args.survey is not None:
        return survey(args.serial, args.survey, sys.stdout, sys.stderr, as_json=args.json,
                      names=_enrolled_names(args, sys.stderr))
    return monitor(args.serial, LinkTiming(settle=args.settle), args.duration, sys.stdout, sys.stderr)


def _enrolled_names(args: argparse.Namespace, err: IO[str]) -> Callable[[str], str | None]:
    """Each enrolled tag's piece, from the store run would use (read only); none if there is no store yet."""
    import os

    from companion.rules.edition import load_edition
    from companion.table.store import Store
    from hardware.hardware_config import load_hardware_config

    from .where import find_config, find_store

    config_at = find_config(args.config, os.environ)
    config = load_hardware_config(config_at.path if config_at else None)
    store_at = find_store(args.db, config_at.path if config_at else None, config.store, environ=os.environ)
    edition = load_edition(args.edition)
    if not store_at.path.exists():
        print(f"survey: no store at {store_at.path} yet: tags are shown by UID only", file=err)
        return lambda uid: None
    with Store(store_at.path, exclusive=False) as store:
        tags = store.tag_map(edition.id)
    print(f"survey: piece names from {store_at.path} ({edition.name})", file=err)
    return lambda uid: piece.describe() if (piece := tags.piece(uid)) is not None else None


SURVEY_WAIT = 10.0  # seconds for the link to come up, and for the board to answer STATS_REQUEST


def survey(port: str | None, seconds: float, out: IO[str], err: IO[str], *, as_json: bool = False,
           names: Callable[[str], str | None] = lambda uid: None, wait: float = SURVEY_WAIT) -> int:
    """Count reads for ``seconds`` and print each reader's read rate per tag; 1 if the board never answered.

    ``names`` gives an enrolled tag's piece name (None: not enrolled).
    """
    events: queue.Queue[LinkEvent] = queue.Queue()
    with BoardLink(port, events) as link:
        up = _wait_for(events, LinkUp, wait)
        if not isinstance(up, LinkUp):
            print(f"clue-companion: survey: {up.reason if isinstance(up, LinkDown) else 'no board'}", file=err)
            return 1
        link.request_stats(restart=True)
        if _wait_for(events, BoardStats, wait) is None:
            print("clue-companion: survey: the board does not answer STATS_REQUEST (firmware older than "
                  "protocol 1.1? copy firmware/*.py to the Pico, see docs/hardware.md)", file=err)
            return 1
        print(f"survey: counting reads for {seconds:g} s; place the tags now", file=err, flush=True)
        time.sleep(seconds)
        link.request_stats()
        stats = _wait_for(events, BoardStats, wait)
        if not isinstance(stats, BoardStats):
            print("clue-companion: survey: the board did not send its counts", file=err)
            return 1
    rows = survey_rows(stats, up.info.readers, names)
    if as_json:
        print(json.dumps({"seconds": seconds, "readers": rows}), file=out)
    else:
        out.write(survey_table(rows))
    return 0


def _wait_for(events: queue.Queue[LinkEvent], kind: type[Any], wait: float) -> LinkEvent | None:
    """The first event of ``kind`` within ``wait`` seconds; else the last LinkDown seen, or None."""
    deadline = time.monotonic() + wait
    down: LinkEvent | None = None
    while (left := deadline - time.monotonic()) > 0:
        try:
            event = events.get(timeout=left)
        except queue.Empty:
            break
        wanted = isinstance(event, kind)  # kept apart: isinstance with type[Any] would make event Any
        if wanted:
            return event
        if isinstance(event, LinkDown):
            down = event
    return down


def survey_rows(stats: BoardStats, readers: int, names: Callable[[str], str | None]) -> list[dict[str, Any]]:
    """Per reader: its scans and, per tag it saw, the read rate in % (the JSON form)."""
    rows: list[dict[str, Any]] = [{"reader": r, "scans": 0, "tags": []} for r in range(readers)]
    for reader, uid, seen, scans in stats.counts:
        if reader >= readers:
            continue
        rows[reader]["scans"] = max(rows[reader]["scans"], scans)
        rate = round(100.0 * seen / scans, 1) if scans else 0.0
        rows[reader]["tags"].append({"uid": uid, "piece": names(uid), "seen": seen, "rate": rate})
    for row in rows:
        row["tags"].sort(key=lambda tag: -tag["rate"])
    return rows


def survey_table(rows: list[dict[str, Any]]) -> str:
    """The survey as a table per reader: uid, piece (if enrolled), read rate."""
    lines = []
    for row in rows:
        lines.append(f"reader {row['reader']} ({row['scans']} scans)")
        if not row["tags"]:
            lines.append("  no tag seen")
        for tag in row["tags"]:
            lines.append(f"  {tag['uid']:<29} {tag['piece'] or '(not enrolled)':<24} {tag['rate']:5.1f} %")
    return "\n".join(lines) + "\n"


def monitor(port: str | None, timing: LinkTiming, duration: float | None, out: IO[str], err: IO[str]) -> int:
    """Print the link's events as JSON lines until ``duration`` or Ctrl-C."""
    events: queue.Queue[LinkEvent] = queue.Queue()
    start = time.monotonic()
    print(f"board-monitor: {'watching ' + port if port else 'looking for the board'}; Ctrl-C to stop",
          file=err, flush=True)
    try:
        with BoardLink(port, events, timing=timing):
            while duration is None or time.monotonic() - start < duration:
                wait = 0.2 if duration is None else max(0.0, min(0.2, duration - (time.monotonic() - start)))
                try:
                    event = events.get(timeout=wait)
                except queue.Empty:
                    continue
                _print_event(event, start, out)
            while not events.empty():
                _print_event(events.get(), start, out)
    except KeyboardInterrupt:
        pass
    return 0


def _print_event(event: LinkEvent, start: float, out: IO[str]) -> None:
    line = event.as_dict()
    line["t"] = round(time.monotonic() - start, 3)
    print(json.dumps(line), file=out, flush=True)


# ---- virtual-board -------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """One virtual-board console command: its arguments, an example and what it does."""

    arguments: tuple[str, ...]
    example: str
    does: str

    def usage(self, word: str) -> str:
        return " ".join((word, *self.arguments))


COMMANDS: dict[str, Command] = {
    "place": Command(("UID", "READER"), "place 04:A2:1B:3C 2", "put a tag on a reader"),
    "remove": Command(("UID",), "remove 04:A2:1B:3C", "lift a tag off its reader"),
    "snapshot": Command((), "snapshot", "press the board's snapshot button"),
    "fail": Command(("READER",), "fail 3", "a reader stops answering"),
    "heal": Command(("READER",), "heal 3", "a failed reader works again"),
    "unplug": Command((), "unplug", "pull the USB cable"),
    "replug": Command((), "replug", "plug it back in (prints the new port)"),
    "reboot": Command((), "reboot", "what the watchdog does: boot afresh"),
    "freeze": Command((), "freeze", "hang: no scanning, no heartbeat"),
    "thaw": Command((), "thaw", "end a freeze"),
    "garbage": Command(("N",), "garbage 20", "write N random bytes into the stream"),
    "drop": Command(("N",), "drop 2", "lose the next N frames"),
    "corrupt": Command(("N",), "corrupt 1", "spoil the CRC of the next N frames"),
    "slow": Command(("BYTES_PER_SECOND",), "slow 200", "throttle the board's output (0: full speed)"),
    "leds": Command((), "leds", "print the LEDs as JSON"),
    "help": Command((), "help", "this list"),
    "quit": Command((), "quit", "stop the virtual board"),
}
HELP = tuple(command.usage(word) for word, command in COMMANDS.items())
UID_TEXT = re.compile(r"[0-9A-Fa-f]{2}(?::?[0-9A-Fa-f]{2})*")


class BoardCommandError(ClueError, ValueError):
    code = "virtual_board"


def help_text() -> str:
    """Every command, with what it does and an example."""
    width = max(len(usage) for usage in HELP)
    return "\n".join(f"{usage:<{width}}  {command.does}; e.g. {command.example}"
                     for usage, command in zip(HELP, COMMANDS.values()))


def _virtual_board(args: argparse.Namespace) -> int:
    board = VirtualBoard(args.readers, link=args.link, firmware=args.firmware, protocol=args.protocol,
                         timing=BoardTiming())
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        board.open()
    except OSError as err:
        print(f"clue-companion: cannot start the virtual board: {err}", file=sys.stderr)
        return 2
    try:
        print(board.port, flush=True)
        print(f"virtual board: {args.readers} readers, firmware {'.'.join(map(str, args.firmware))}; "
              f"commands: {', '.join(COMMANDS)} (help: with examples)", file=sys.stderr, flush=True)
        _console(board, sys.stdin, sys.stdout, stop)
    except KeyboardInterrupt:
        pass
    finally:
        board.close()
    return 0


def _console(board: VirtualBoard, lines: IO[str], out: IO[str], stop: threading.Event) -> None:
    reader = threading.Thread(target=_read_lines, args=(board, lines, out, stop), daemon=True)
    reader.start()
    # Standard input may close at once (run in the background): keep the board
    # up until "quit", SIGTERM or Ctrl-C.
    while not stop.wait(0.2):
        pass


def _read_lines(board: VirtualBoard, lines: IO[str], out: IO[str], stop: threading.Event) -> None:
    for line in lines:
        if not line.strip():
            continue
        if line.split()[0].lower() == "quit":
            stop.set()
            return
        try:
            reply = drive(board, line)
        except ValueError as err:
            reply = f"error: {err}"
        except OSError as err:  # the pty gone under a command: say so and keep taking commands
            reply = f"error: the virtual board cannot do that now: {err.strerror or err}"
        print(reply, file=out, flush=True)


def drive(board: VirtualBoard, line: str) -> str:
    """Carry out one console command; returns what to print. Raises :class:`BoardCommandError`
    (a ValueError) with a one-line reason for a line it cannot carry out.
    """
    word, *rest = line.split()
    command = COMMANDS.get(word.lower())
    if command is None:
        raise BoardCommandError(f"unknown command {word!r}; try help, or one of: {', '.join(COMMANDS)}")
    word = word.lower()
    if len(rest) != len(command.arguments):
        problem = f"{word} needs" if len(rest) < len(command.arguments) else "too many words for"
        raise BoardCommandError(f"{problem} {command.usage(word)}, e.g. {command.example}")
    if word == "help":
        return help_text()
    if word == "leds":
        return json.dumps({str(k): [m, list(c)] for k, (m, c) in sorted(board.leds().items())})
    action = _ACTIONS.get(word)
    if action is None:  # quit: the console's, not the board's
        raise BoardCommandError(f"{word} ends the console; the board itself has nothing to do")
    action(board, rest)
    return board.port if word == "replug" else "ok"


_ACTIONS: dict[str, Callable[[VirtualBoard, list[str]], None]] = {
    "place": lambda board, rest: board.place(_uid(rest[0]), _reader(board, rest[1])),
    "remove": lambda board, rest: board.remove(_uid(rest[0])),
    "snapshot": lambda board, _: board.press_snapshot(),
    "fail": lambda board, rest: board.fail_reader(_reader(board, rest[0])),
    "heal": lambda board, rest: board.heal_reader(_reader(board, rest[0])),
    "unplug": lambda board, _: board.unplug(),
    "replug": lambda board, _: board.replug(),
    "reboot": lambda board, _: board.reboot(),
    "freeze": lambda board, _: board.freeze(),
    "thaw": lambda board, _: board.thaw(),
    "garbage": lambda board, rest: board.send_garbage(_count(rest[0])),
    "drop": lambda board, rest: board.drop_frames(_count(rest[0])),
    "corrupt": lambda board, rest: board.corrupt_frames(_count(rest[0])),
    "slow": lambda board, rest: board.slow(_rate(rest[0]) or None),
}


def _uid(text: str) -> bytes:
    if not UID_TEXT.fullmatch(text):
        raise BoardCommandError(f"{text!r} is not a tag UID: hex bytes like 04:A2:1B:3C")
    try:
        return parse_uid(text)
    except ValueError as err:
        raise BoardCommandError(str(err)) from None


def _reader(board: VirtualBoard, text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) < board.core.readers:
        raise BoardCommandError(f"reader {text!r} is not one of 0..{board.core.readers - 1}")
    return int(text)


def _count(text: str) -> int:
    if not text.isdigit():
        raise BoardCommandError(f"{text!r} is not a count: a whole number like 3")
    return int(text)


def _rate(text: str) -> float:
    try:
        rate = float(text)
    except ValueError:
        rate = -1.0
    if not 0 <= rate < float("inf"):
        raise BoardCommandError(f"{text!r} is not a speed: bytes per second like 200, or 0 for full speed")
    return rate
