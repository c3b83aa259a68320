"""``clue-companion run``: the companion at a table, on real or mock hardware.

``run --mock`` starts everything on a laptop: a virtual board over a pty, the
board link, the session with its store, and emulated handhelds, with a seeded
game and a console to play it (see :mod:`companion.cli.console`). Without
``--mock`` the hardware config file says where the board and handhelds are.

After a crash or power loss the store still holds the unfinished game:
``run`` offers to resume it (``--resume`` / ``--new`` answer in advance; a
non-interactive start, such as the systemd service, resumes). Options that
describe a new game (``--edition`` of another edition, ``--seats``...) are
never dropped: ``run`` asks whether to start that game instead, and without a
terminal it does, leaving the unfinished one in the store.

A setting given as an option lasts this run (``--locale``, ``--names``);
``--remember`` keeps it for later starts, as choosing it on the host page does.
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from companion.language import DEFAULT, parse_locale
from companion.language.boxes import add_names_argument, resolve_variant
from companion.language.locales import LOCALES
from companion.rules.edition import Edition, load_edition
from companion.rules.errors import ClueError
from companion.rules.setup import check_seats
from companion.rules.spelling import spelling
from companion.table.announcer import Announcer
from companion.table.commands import Configure
from companion.table.pairing import SETTING as TOKENS_SETTING
from companion.table.pairing import Pairing
from companion.table.store import GameSummary, Store

from .log_lines import setup_logging
from .names import UnclearName, match_name
from .table_settings import TableSettings
from .terminal import is_terminal
from .where import (
    CONFIG_VARIABLE,
    PIN_FILE,
    STORE_VARIABLE,
    SYSTEM_CONFIG,
    Chosen,
    checked_port,
    find_config,
    find_store,
    web_port,
)

if TYPE_CHECKING:  # the handheld stack loads only when ``run`` runs
    from hardware.hardware_config import HardwareConfig

    from .mock_table import MockTable

# The companion's threads (link reader, session, one renderer per handheld) each do
# a little work per event; CPython's default 5 ms GIL switch interval let a woken
# thread wait several intervals. 1 ms keeps tag-to-screen latency low.
SWITCH_INTERVAL = 0.001
DEFAULT_SEATS = 4  # without --seats: the edition's first suspects
DEFAULT_EDITION = "classic"
# The options that describe a new game: resuming another game would drop them.
NEW_GAME_OPTIONS = {"edition": "--edition", "seats": "--seats", "deal": "--deal", "dice": "--dice",
                    "no_bonus_cards": "--no-bonus-cards", "seed": "--seed"}


class RunError(ClueError, ValueError):
    code = "run"


def add_parser(commands: Any) -> None:
    run = commands.add_parser("run", help="run the companion at a table (--mock: on mock hardware)")
    run.add_argument("--mock", action="store_true", help="virtual board and emulated handhelds")
    run.add_argument("--camera", action="store_true",
                     help="a camera over the board reads the pieces instead of the NFC board (the config's [camera]; "
                          "with --mock, a rendered camera filming the virtual table; docs/camera.md)")
    run.add_argument("--config", help=f"hardware config (TOML); default ${CONFIG_VARIABLE}, then {SYSTEM_CONFIG} "
                     "if it exists (not with --mock)")
    run.add_argument("--db", help=f"the game store (SQLite); default ${STORE_VARIABLE}, then the config's [store] "
                     "path, then $XDG_DATA_HOME/clue-companion/companion.db (mock.db with --mock)")
    run.add_argument("--edition", help="the new game's edition, an id or name (default: the config's [table] edition, "
                     f"else {DEFAULT_EDITION}; "
                     "clue-companion edition lists them). With an unfinished game of another edition stored, "
                     "run asks whether to start this one instead; without a terminal it does")
    run.add_argument("--seats", help="seats clockwise, comma-separated, each any unique part of a suspect's name "
                     "(default: the first 4 suspects)")
    run.add_argument("--deal", choices=("virtual", "physical"),
                     help="virtual: the companion deals, each hand shown on its handheld (the default); "
                     "physical: deal real cards and scan each hand")
    run.add_argument("--dice", choices=("companion", "physical"),
                     help="companion: the companion rolls (the default); physical: roll real dice and enter them")
    run.add_argument("--no-bonus-cards", action="store_true",
                     help="leave the edition's bonus cards (Sheldon, Intrigue) in the box: original CLUE rules")
    run.add_argument("--seed", type=int, help="the game's seed (default: 1 with --mock, else random)")
    choice = run.add_mutually_exclusive_group()
    choice.add_argument("--resume", action="store_true", help="resume the unfinished game without asking (options for a new game are "
                        "then not used)")
    choice.add_argument("--new", action="store_true", help="start a new game even if one is unfinished")
    run.add_argument("--keep-phones", action="store_true",
                     help="phones joined before stay joined to the same seat names (default: a new game, or "
                     "another game resumed, issues new join URLs)")
    run.add_argument("--script", help="console commands to run from a file (- for stdin), then keep running")
    run.add_argument("--exit-after-script", action="store_true", help="stop once the script has run")
    run.add_argument("--no-console", action="store_true", help="no console: run until stopped")
    run.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"),
                     help="the least important log lines shown (default INFO)")
    run.add_argument("--log-json", action="store_true",
                     help="log one JSON line per event on standard error, also on a terminal (default: on a "
                     "terminal, short sentences for what needs attention; otherwise, as for a service's journal, "
                     "JSON lines)")
    run.add_argument("--port", type=web_port, help="the web page's port (default: the config's [web] port, 8000; 0: any free port)")
    run.add_argument("--host", default="0.0.0.0", help="the address to serve the web page on (default: every interface)")
    run.add_argument("--pin", help="the host PIN for /host, 6 to 12 digits (default: the config's [web] pin, "
                     "else the stored one, else a new one); shown on a terminal, else written to host-pin "
                     "beside the store")
    run.add_argument("--no-web", action="store_true", help="no web page")
    run.add_argument("--locale", help="the table's language and card names for this run, e.g. en-GB, de-DE "
                     "(default: the config's [table] locale, else as last chosen on the host page or kept with "
                     "--remember, else en-US)")
    add_names_argument(run)
    run.add_argument("--remember", action="store_true",
                     help="keep this run's --locale and --names for later starts (as choosing them on the host page "
                     "does)")
    run.add_argument("--speech", action="store_true",
                     help="speak the first game's announcements on the audio output (each game: the host page's "
                     "toggle; with --mock they are logged as 'say' events)")
    run.set_defaults(command=_run)


def _run(args: argparse.Namespace) -> int:
    from hardware.hardware_config import load_hardware_config

    from .mock_table import MockTable, mock_config

    # Everything a user typed or configured is checked before the store or the web port is touched.
    config_at = find_config(args.config, os.environ, mock=args.mock)
    seats = _checked(args, TableSettings.load(config_at.path if config_at else None))
    # The mock table wires its emulated handhelds like the example config, unless told otherwise.
    config = load_hardware_config(config_at.path if config_at else None) if config_at or not args.mock \
        else mock_config()
    pin = host_pin(args.pin, config.web_pin, config_at)
    _check_name(config.web_name, config_at)
    store_at = find_store(args.db, config_at.path if config_at else None, config.store, environ=os.environ,
                          mock=args.mock)
    setup_logging(args.log_level, sys.stderr, as_json=args.log_json or not is_terminal(sys.stderr))
    sys.setswitchinterval(SWITCH_INTERVAL)
    # Until the wait for a signal begins, SIGTERM (a service stopped early, or
    # one stopped right after the join URLs are printed) leaves through the
    # context managers below, so the table, web server and store still close.
    signal.signal(signal.SIGTERM, _leave)
    say(store_at.line())
    with Store(store_at.path).open() as store:
        pairing = _pairing(store)
        rig = MockTable(store, mock=args.mock, config=config, display="dummy" if args.mock else None,
                        join_url=pairing.join_url, log=logging.getLogger("clue_companion"), camera=args.camera)
        with rig:
            if args.camera:
                say(f"clue-companion: {rig.camera.camera.name} over the board")
            if args.mock and hasattr(rig, "board"):
                say(f"clue-companion: virtual board on {rig.board.port}")
            with _web(rig, pairing, config, args, store_at.path, pin), _announcer(rig, mock=args.mock):
                if args.locale is not None or args.names_variant is not None:
                    _set_locale(rig, args.locale, args.names_variant, remember=args.remember)
                _begin(rig, store, pairing, args, seats)
                if args.speech:  # a resumed game too (a new one opened with speech on already)
                    _check(rig.session.call(Configure(speech=True)), "turn speech on")
                if args.mock and not args.no_web:
                    _print_join_urls(rig, pairing)
                for problem in rig.problems:
                    say(f"clue-companion: {problem}")
                sys.stdout.flush()
                return _drive(rig, args)


def _checked(args: argparse.Namespace, table: TableSettings = TableSettings()) -> tuple[str, ...]:
    """The seats of a new game, once the edition, seats and options are known to be good (else ClueError).

    ``table``: the config's ``[table]`` locale and edition, used where --locale and --edition are not given.
    """
    _check_pin(args.pin)
    if args.remember and args.locale is None and args.names is None:
        raise RunError("--remember keeps this run's --locale: add --locale, e.g. --locale de-DE")
    # Which new-game options were typed, before their defaults fill in: resuming must not drop them unasked.
    args.new_game_options = [flag for name, flag in NEW_GAME_OPTIONS.items()
                             if getattr(args, name) is not None and getattr(args, name) is not False]
    # The config's edition is a default, not an option typed: it never stops the unfinished game resuming.
    args.edition = args.edition or table.edition or DEFAULT_EDITION
    if args.locale is None:
        args.locale = table.locale
    args.deal, args.dice = args.deal or "virtual", args.dice or "companion"
    edition = load_edition(args.edition)
    checked_port(args.port)
    if args.seed is not None and args.seed < 0:
        raise RunError(f"--seed must be 0 or more, not {args.seed}")
    if args.script and args.script != "-" and not os.access(args.script, os.R_OK):
        raise RunError(f"--script: cannot read {args.script}")
    if args.exit_after_script and not args.script:
        raise RunError("--exit-after-script needs --script FILE")
    if args.locale is not None:
        try:
            args.locale = parse_locale(args.locale).tag
        except ClueError as err:
            raise RunError("--locale: {problem}", problem=err) from None
    args.names_variant = _names_variant(edition, args.locale, args.names)
    if args.no_bonus_cards and edition.bonus is None:
        raise RunError(f"--no-bonus-cards: {edition.name} has no bonus cards to leave out")
    if not args.seats:
        return tuple(edition.deck.suspects[:DEFAULT_SEATS])
    names = spelling(edition, args.locale or DEFAULT, variant=args.names_variant or None)
    try:
        return check_seats(edition, tuple(_suspect(edition, typed, names) for typed in args.seats.split(",")))
    except ClueError as err:
        raise RunError(f"--seats: {err}") from None


def _names_variant(edition: Edition, locale: str | None, text: str | None) -> str | None:
    """``--names`` as the table takes it: a box's suffix, "" for the locale's own names, None when not given.

    Without --locale the table's stored locale decides, known only once the store is open: a box any
    locale has is let through here, and the table checks it against its locale then.
    """
    if text is None:
        return None
    try:
        return resolve_variant(edition, locale or DEFAULT, text) or ""
    except ClueError as err:
        problem = err
    if locale is None:
        for tag in LOCALES:
            try:
                return resolve_variant(edition, tag, text) or ""
            except ClueError:
                continue
    raise RunError("--names: {problem}", problem=problem)


def _suspect(edition: Edition, typed: str, names: dict[str, str]) -> str:
    """A seat as typed: a suspect's name or alias, else any unique part of the run's locale's name of it
    ("gloria"), else of its US name, as at the console ("scarlet"). ``names``: identity -> the locale's name."""
    try:
        return edition.deck.resolve(typed.strip(), "suspect")
    except ClueError:
        pass
    local = {names.get(suspect, suspect): suspect for suspect in edition.deck.suspects}
    for candidates in (local, {suspect: suspect for suspect in edition.deck.suspects}):
        try:
            return candidates[match_name(typed, candidates, "suspect")]
        except UnclearName as err:
            if err.ambiguous:
                raise
    raise UnclearName(f"unknown suspect {typed.strip()!r}; valid: {', '.join(local)}")


def _check_name(name: str | None, config_at: Chosen | None) -> None:
    """A bad ``[web] name`` (the mDNS name) is a usage error, found before anything is opened."""
    from web.reach import mdns_name

    try:
        mdns_name(name)
    except ValueError as err:
        raise RunError(f"{config_at.path if config_at else 'config'}: web.name: {err}") from None


def host_pin(given: str | None, configured: str | None, config_at: Chosen | None) -> str | None:
    """The host PIN to use: ``--pin``, else the config's ``[web] pin`` (checked, never repeated), else None.

    None lets the web page take the stored PIN, else make a new one.
    """
    if given is not None:
        return given
    from web.guard import pin_problem  # the web's rule, which its settings page applies too

    problem = pin_problem(configured) if configured is not None else None
    if problem and config_at is not None:
        raise RunError(f"{config_at.path}: web.pin: {problem[0].lower()}{problem[1:]}")
    return configured


def _pairing(store: Store) -> Pairing:
    """The seats' join tokens, kept in the store (phones stay joined across a restart)."""
    return Pairing.from_setting(store.setting(TOKENS_SETTING), save=lambda text: store.set_setting(TOKENS_SETTING, text))


@contextmanager
def _web(rig: MockTable, pairing: Pairing, config: HardwareConfig, args: argparse.Namespace,
         store_path: Path, pin: str | None) -> Iterator[None]:
    """Serve the web page (waitress) while the table runs; print its address, a QR code of it and the PIN."""
    if args.no_web:
        yield
        return
    from web import create_app
    from web.reach import announce, mdns_name
    from web.serve import ANY_HOST, WebServer, page_url, print_qr

    app = create_app(rig.session, {"PAIRING": pairing, "RIG": rig, "SIM": args.mock, "HOST_PIN": pin,
                                   "EDITIONS_DIR": os.environ.get("CLUE_COMPANION_EDITIONS", "").split(os.pathsep)[0]})
    port = args.port if args.port is not None else config.web_port
    try:
        server = WebServer(app, args.host, port).start()
    except OSError as err:
        raise RunError(_serve_problem(args.host, port, err)) from None
    url = page_url(args.host, server.port, name=config.web_name)
    pairing.base_url = url
    everywhere = args.host in ANY_HOST  # mDNS only then: a chosen --host is the user's own choice
    say(f"clue-companion: web page on {url}  (table: {url}/  host: {url}/host"
          + (f"  simulator: {url}/sim" if args.mock else "") + ")"
          + (f"; phones may also open http://{mdns_name(config.web_name)}:{server.port}/" if everywhere else ""))
    _show_pin(app.extensions["clue"].pin, store_path.parent / PIN_FILE)
    if sys.stdout.isatty():
        print_qr(url, sys.stdout)
    try:
        with announce(server.port, name=config.web_name) if everywhere else nullcontext():
            yield
    finally:
        server.close()


def _serve_problem(host: str, port: int, err: OSError) -> str:
    """Why the web page cannot be served, and for a port in use what to do about it."""
    problem = f"cannot serve the web page on {host}:{port}: {err.strerror or err}"
    if err.errno != errno.EADDRINUSE:
        return problem
    return (f"{problem}: another program (perhaps another companion) uses port {port}. Stop it, or choose another "
            f"port: --port N (make run PORT=N; --port 0 takes any free port)")


@contextmanager
def _announcer(rig: MockTable, *, mock: bool) -> Iterator[None]:
    """Announcements said aloud (when a game has speech on): espeak-ng or Piper, or logged ``say`` events on --mock."""
    from hardware.speech import MockSpeaker, Speaker

    speaker = MockSpeaker(logging.getLogger("clue_companion.speech")) if mock else Speaker()
    try:
        with Announcer(rig.session, speaker):
            yield
    finally:
        speaker.close()


def _check_pin(pin: str | None) -> None:
    """Refuse a guessable --pin as a usage error; the message does not repeat it (standard error may be a log)."""
    from web.guard import pin_problem  # the web's rule, which its settings page applies too

    problem = pin_problem(pin) if pin is not None else None
    if problem:
        raise RunError(f"--pin: {problem[0].lower()}{problem[1:]}")


def _show_pin(pin: str, path: Path) -> None:
    """The host PIN on a terminal only: a service's output goes to the journal, which others may read.

    Without a terminal the PIN goes to ``path``, readable by this user only, and its path is printed.
    """
    if sys.stderr.isatty():
        say(f"clue-companion: host PIN {pin}", sys.stderr)
        return
    try:
        _write_private(path, pin + "\n")
    except OSError as err:
        say(f"clue-companion: cannot write the host PIN to {path}: {err.strerror or err}; "
            "choose one with --pin", sys.stderr)
        return
    say(f"clue-companion: host PIN in {path} (readable by this user only)")


def _write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` with mode 0600, never through a symlink, even if the file was there."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        os.fchmod(fd, 0o600)  # a file left by someone's umask or chmod
        file.write(text)


def _print_join_urls(rig: MockTable, pairing: Pairing) -> None:
    """On mock hardware, each seat's join URL: open one in a browser to play that seat."""
    urls = rig.session.inspect(lambda table: [(seat, pairing.join_url(seat)) for seat in table.seats()])
    for seat, url in urls or []:
        say(f"clue-companion: join {seat}: {url}")


def _follow(rig: MockTable, pairing: Pairing, *, started: bool = False, keep: bool = False) -> None:
    """The join tokens belong to the game now at the table (on the session thread: they are saved)."""
    rig.session.inspect(lambda table: pairing.follow(table.game_id, table.seats(), started=started, keep=keep))


def _begin(rig: MockTable, store: Store, pairing: Pairing, args: argparse.Namespace,
           seats: tuple[str, ...]) -> None:
    """Resume the unfinished game if wanted, else open (and with a virtual deal start) a new one."""
    unfinished = store.unfinished()
    game = unfinished[0] if unfinished else None
    if game is not None and not args.new and (args.resume or _wants_resume(game, args)):
        _check(rig.resume(game.id), f"resume game {game.id}")
        _follow(rig, pairing, keep=args.keep_phones)
        say(f"clue-companion: resumed game {game.id} ({game.edition}, {game.actions} actions)")
        dropped = _dropped(game, args)
        if dropped:
            say(f"clue-companion: {', '.join(dropped)} not used for the resumed game (--new starts a new game)")
        return
    if game is not None and not args.new:
        say(f"clue-companion: game {game.id} ({_edition_name(game.edition)}, {game.actions} actions) stays "
              "stored unfinished: the host page can resume it later")
    seed = args.seed if args.seed is not None else (1 if args.mock else int.from_bytes(os.urandom(4), "big"))
    _check(rig.new_game(args.edition, seats, deal=args.deal, dice=args.dice, seed=seed,
                        bonus_cards=not args.no_bonus_cards, speech=args.speech), "open the table")
    # New players: last game's phones are not joined to this game's seats (kept, they follow it into play).
    rig.session.inspect(lambda table: pairing.open_lobby(table.seats(), keep=args.keep_phones))
    if args.deal == "virtual":
        _check(rig.start(), "start the game")
        _follow(rig, pairing, started=True, keep=args.keep_phones)
        say(f"clue-companion: new {args.edition} game, seed {seed}, seats {', '.join(rig.handhelds or seats)}")
    else:
        say("clue-companion: deal the cards and scan each hand on its seat's pad; the game starts when all "
              "cards are accounted for (choose 'Start game' on a handheld)")


def _wants_resume(game: GameSummary, args: argparse.Namespace) -> bool:
    """Whether to resume ``game``: asked on a terminal; options for a new game win without one.

    A plain start (the systemd service after a power cut) carries on with the game. A start
    that names a new game (``--edition`` of another edition, ``--seats``, ``--deal``...) asks
    whether to start that game instead, Enter saying yes, so the options typed are never
    dropped unasked; without a terminal to ask, the new game starts.
    """
    dropped = _dropped(game, args)
    if dropped:
        if not sys.stdin.isatty():
            return False
        answer = input(f"Game {game.id} ({_edition_name(game.edition)}, {len(game.seats)} seats, {game.actions} "
                       f"actions) is unfinished. Start a new {_edition_name(args.edition)} game instead? [Y/n] ")
        return answer.strip().lower() not in ("", "y", "yes")
    if not sys.stdin.isatty():
        return True  # a service after a power cut: carry on with the game
    answer = input(f"Resume game {game.id} ({_edition_name(game.edition)}: {', '.join(game.seats)}; "
                   f"{game.actions} actions, last played {game.updated})? [Y/n] ")
    return answer.strip().lower() in ("", "y", "yes")


def _dropped(game: GameSummary, args: argparse.Namespace) -> list[str]:
    """The options typed that resuming ``game`` would not use: --edition only when it names another edition."""
    same_edition = load_edition(args.edition).id == game.edition
    return [flag for flag in args.new_game_options if not (flag == "--edition" and same_edition)]


def _edition_name(edition: str) -> str:
    """An edition's name for a question ("Classic CLUE"), its id if it cannot be loaded now."""
    try:
        return load_edition(edition).name
    except ClueError:
        return edition


def _set_locale(rig: MockTable, locale: str | None, variant: str | None, *, remember: bool) -> None:
    """This run's locale and box of names (``variant``: "" for the locale's own); kept for later starts only with
    ``--remember`` (the store keeps the ones chosen on purpose)."""
    if variant is None:
        _check(rig.session.call(Configure(locale=locale, keep=remember)), "set the locale")
    else:
        _check(rig.session.call(Configure(locale=locale, names_variant=variant, keep=remember)),
               "set the locale and box of names")
    if remember and locale is not None:
        say(f"clue-companion: locale {locale} kept for later starts (--remember)")
    if remember and variant is not None:
        say(f"clue-companion: box of names {variant or 'the usual one'} kept for later starts (--remember)")


def say(line: str, stream: IO[str] | None = None) -> None:
    """A line for the person at the terminal, in one write: the log's lines come from other threads,
    and with PYTHONUNBUFFERED print() writes its text and its newline apart, so one could land between."""
    out = sys.stdout if stream is None else stream
    out.write(line + "\n")
    out.flush()


def _check(outcome: Any, what: str) -> None:
    if not outcome.ok:
        error = outcome.error or {}
        raise RunError(f"could not {what}: {error.get('message', error)}")


def _drive(rig: MockTable, args: argparse.Namespace) -> int:
    from .console import Console

    console = Console(rig, sys.stdout)
    if args.script:
        stream: IO[str] = sys.stdin if args.script == "-" else open(args.script, encoding="utf-8")
        with stream:
            console.run(stream)
        if args.exit_after_script:
            return 0
    if args.mock and not args.no_console and sys.stdin.isatty() and not args.script:
        say("Type help for the console's commands, quit to stop.")
        console.run(sys.stdin, prompt=lambda: print("> ", end="", flush=True))
        return 0
    _wait_for_signal()
    return 0


def _leave(*_: object) -> None:
    raise SystemExit(0)


def _wait_for_signal() -> None:
    stop = threading.Event()
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: stop.set())
    while not stop.wait(1.0):
        pass
