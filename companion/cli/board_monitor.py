"""``clue-companion board-monitor`` and ``clue-companion virtual-board``.

board-monitor is the maker's wiring check: it prints every event of the board
link as one JSON line. virtual-board runs the mock twin over a pty and takes
driving commands on standard input.
"""

from __future__ import annotations

import argparse
import json
import queue
import signal
import sys
import threading
import time
from typing import IO, Any

from hardware.board_core import BoardTiming
from hardware.board_link import BoardLink
from hardware.link_core import LinkTiming
from hardware.link_events import LinkEvent
from hardware.protocol import PROTOCOL, parse_uid
from hardware.virtual_board import VirtualBoard


def add_parsers(commands: Any) -> None:
    monitor = commands.add_parser(
        "board-monitor", help="connect to the board and print every event as a JSON line (wiring check)")
    monitor.add_argument("--port", help="serial port or pyserial URL (default: $CLUE_BOARD_PORT, "
                                        "else the first USB device with the Pico's vendor ID 0x2E8A)")
    monitor.add_argument("--settle", type=_seconds, default=LinkTiming.settle, metavar="SECONDS",
                         help=f"how long a tag must stay before it counts (default {LinkTiming.settle})")
    monitor.add_argument("--duration", type=_seconds, metavar="SECONDS", help="stop after this long (default: Ctrl-C)")
    monitor.set_defaults(command=_monitor)

    board = commands.add_parser(
        "virtual-board", help="run the mock board on a pty and print its path; drive it from standard input",
        description="Commands on standard input: " + "; ".join(HELP))
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
    return monitor(args.port, LinkTiming(settle=args.settle), args.duration, sys.stdout, sys.stderr)


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

HELP = (
    "place UID READER", "remove UID", "snapshot", "fail READER", "heal READER", "unplug", "replug",
    "reboot", "freeze", "thaw", "garbage N", "drop N", "corrupt N", "slow BYTES_PER_SECOND (0: full speed)",
    "leds", "quit",
)


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
              f"commands: {', '.join(HELP)}", file=sys.stderr, flush=True)
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
        if line.split()[0] == "quit":
            stop.set()
            return
        try:
            reply = drive(board, line)
        except (ValueError, IndexError) as err:
            reply = f"error: {err}"
        print(reply, file=out, flush=True)


def drive(board: VirtualBoard, line: str) -> str:
    """Carry out one console command; returns what to print. Raises ValueError."""
    word, *rest = line.split()
    number = int(rest[0]) if rest and rest[0].isdigit() else 0
    actions: dict[str, Any] = {
        "place": lambda: board.place(parse_uid(rest[0]), _reader(board, rest[1])),
        "remove": lambda: board.remove(parse_uid(rest[0])),
        "snapshot": board.press_snapshot, "unplug": board.unplug, "replug": board.replug,
        "reboot": board.reboot, "freeze": board.freeze, "thaw": board.thaw,
        "fail": lambda: board.fail_reader(_reader(board, rest[0])),
        "heal": lambda: board.heal_reader(_reader(board, rest[0])),
        "garbage": lambda: board.send_garbage(number), "drop": lambda: board.drop_frames(number),
        "corrupt": lambda: board.corrupt_frames(number), "slow": lambda: board.slow(float(rest[0]) or None),
    }
    if word == "leds":
        return json.dumps({str(k): [m, list(c)] for k, (m, c) in sorted(board.leds().items())})
    if word not in actions:
        raise ValueError(f"unknown command {word!r}; try: {', '.join(HELP)}")
    if word in ("place", "remove", "fail", "heal", "slow") and not rest:
        raise ValueError(f"{word} needs {next(h for h in HELP if h.startswith(word))}")
    actions[word]()
    return board.port if word == "replug" else "ok"


def _reader(board: VirtualBoard, text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) < board.core.readers:
        raise ValueError(f"reader {text!r} is not one of 0..{board.core.readers - 1}")
    return int(text)
