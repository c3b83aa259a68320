"""``clue-companion doctor``: check the companion's set-up and say how to fix what is wrong.

Like ``flutter doctor``: one line per check, marked ✓ (good), ! (a warning) or
✗ (a problem), each problem with its fix in words. The checks: the config
file, the board, the game store, I2C and SPI and the handhelds, the web port
and the addresses phones will use, the systemd service, and the host PIN
(shown, since whoever runs this has a shell on the Pi; never logged). Exit 0
when nothing failed (warnings do not fail), else 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import fcntl
import json
import os
import pickle
import shutil
import socket
import sqlite3
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar, cast

from companion.table.store import Store, StoreError
from hardware.hardware_config import HardwareConfig, HardwareConfigError, load_hardware_config

from .doctor_board import check_board, check_buses
from .findings import Finding, fail, ok, warn
from .first_boot import PROBLEMS_FILE as FIRST_BOOT_PROBLEMS
from .where import (
    CONFIG_VARIABLE,
    PIN_FILE,
    STORE_VARIABLE,
    SYSTEM_CONFIG,
    Chosen,
    add_serial_option,
    checked_port,
    find_config,
    find_store,
    web_port,
)

SERVICE = "clue-companion"
AS_SERVICE = f"sudo -u clue {SERVICE} doctor"
SYSTEMD_RUNNING = Path("/run/systemd/system")  # sd_booted(3): present only when systemd is PID 1
T = TypeVar("T")
EXAMPLE_CONFIG_NAME = "hardware/clue-companion.example.toml"  # in the checkout: every key, as wired in the docs
# Where first-boot leaves the boot file's problems (companion/cli/first_boot.py); tests point the variable elsewhere.
FIRST_BOOT_VARIABLE = "CLUE_COMPANION_FIRST_BOOT_PROBLEMS"


def add_parser(commands: Any) -> None:
    doctor = commands.add_parser("doctor", help="check the board, store, buses, web page and service; say how "
                                                "to fix what is wrong")
    doctor.add_argument("--config", help="hardware config (TOML), as for run: default $CLUE_COMPANION_CONFIG, "
                                         f"then {SYSTEM_CONFIG} if it exists")
    doctor.add_argument("--db", metavar="PATH", help="the store, as for run: default $CLUE_COMPANION_DB, then the "
                                                     "config's [store] path, then the default")
    add_serial_option(doctor, "the board's serial device (default: as run finds it)", refuse_port=False)
    doctor.add_argument("--port", type=web_port, help="the web page's port to check, as for run (default: the "
                                                      "config's [web] port, 8000)")
    doctor.add_argument("--wait", type=float, default=5.0, metavar="SECONDS",
                        help="how long to wait for the board's handshake (default 5)")
    doctor.add_argument("--json", action="store_true", help="one JSON object: every finding and the exit status")
    doctor.set_defaults(command=_doctor)


def _doctor(args: argparse.Namespace) -> int:
    findings = examine(args.config, args.db, args.serial, environ=os.environ, wait=args.wait, web_port=checked_port(args.port))
    failed = any(finding.status == "fail" for finding in findings)
    if args.json:
        print(json.dumps({"ok": not failed, "findings": [finding.as_dict() for finding in findings]}, indent=2))
    else:
        for finding in findings:
            print("\n".join(finding.lines()))
        problems = sum(finding.status == "fail" for finding in findings)
        print(f"\n{problems} problem{'s' if problems != 1 else ''} found." if problems else "\nNo problems found.")
    return 1 if failed else 0


def examine(given_config: str | None, given_db: str | None, serial: str | None, *, environ: Mapping[str, str],
            wait: float = 5.0, web_port: int | None = None) -> list[Finding]:
    """Every check, in the order they are printed (``serial``: the board's device; ``web_port``: run's --port)."""
    config_at = find_config(given_config, environ)
    config, config_finding = _config(config_at)
    if web_port is not None:  # --port, as run's: the companion serves (or will serve) the page there
        config = dataclasses.replace(config, web_port=web_port)
    store_at = find_store(given_db, config_at.path if config_at else None, config.store, environ=environ)
    holder = lock_holder(store_at.path)
    running = holder if isinstance(holder, int) else None
    store, pin = as_owner(store_at.path, lambda: (check_store(store_at, holder),
                                                  check_pin(config, config_at, store_at, holder)))
    if config_finding.status == "fail" and given_db is None and not environ.get(STORE_VARIABLE):
        # The config names the store and may set the PIN: without it, the defaults would mislead.
        store = fail("store", "not checked: the config that names it could not be read", config_finding.fix)
        pin = fail("host PIN", "not checked: the config that may set it could not be read", config_finding.fix)
    return [
        config_finding,
        check_board(config, serial, running, wait=wait, environ=environ),
        store,
        *check_buses(config, running),
        check_web(config.web_port, running, config.web_name),
        check_service(),
        pin,
        *check_first_boot(Path(environ.get(FIRST_BOOT_VARIABLE) or FIRST_BOOT_PROBLEMS)),
    ]


def check_first_boot(path: Path) -> list[Finding]:
    """The problems ``first-boot`` found in the card's boot file at this boot (the card image only; none: [])."""
    try:
        with path.open("rb") as handle:
            found = json.loads(handle.read(64 * 1024))
        listed = found["problems"]
        messages = [str(problem["message"]) for problem in listed]
        boot_file = str(found.get("boot_file") or "clue-companion.toml")
    except FileNotFoundError:
        return []
    except (OSError, ValueError, KeyError, TypeError) as err:
        return [warn("boot file", f"cannot read {path}: {getattr(err, 'strerror', None) or err}",
                     "restart the Pi: first-boot writes it again at every boot")]
    if not messages:
        return []
    return [warn("boot file", f"{len(messages)} problem{'s' if len(messages) != 1 else ''} in {boot_file}: "
                              "the last good settings are used",
                 "edit clue-companion.toml on the card's boot partition (docs/first-boot.md), then restart the Pi",
                 *messages)]


def _config(config_at: Chosen | None) -> tuple[HardwareConfig, Finding]:
    if config_at is None:
        return HardwareConfig(), warn("config", f"none: the defaults (the service reads {SYSTEM_CONFIG})",
                                      f"copy tools/pi/clue-companion.toml to {SYSTEM_CONFIG}, or pass --config")
    if not config_at.path.exists():
        return HardwareConfig(), fail("config", f"{config_at.path} ({config_at.source}) does not exist",
                                      f"make it: cp {EXAMPLE_CONFIG_NAME} {config_at.path} (the wiring of "
                                      "docs/hardware.md; tools/pi/clue-companion.toml on a Pi), then edit it; or "
                                      + ("leave out --config" if config_at.source == "from --config" else
                                         f"unset ${CONFIG_VARIABLE}") + " for the defaults")
    try:
        config = load_hardware_config(config_at.path)
    except HardwareConfigError as err:
        fix = f"edit {config_at.path}: docs/hardware.md, \"The hardware config file\", lists every key"
        if isinstance(err.__cause__, PermissionError):
            fix = f"run it as the service's user: {AS_SERVICE}"
        return HardwareConfig(), fail("config", str(err), fix)
    return config, ok("config", f"{config_at.path} ({config_at.source})")


# ---- the store ------------------------------------------------------------------------------------


def as_owner(store: Path, checks: Callable[[], T]) -> T:
    """``checks()`` run as the store's owner when the doctor runs as root (``sudo clue-companion doctor``).

    Opening a store creates SQLite's ``-wal`` and ``-shm`` files beside it; made by
    root they would be root's, and the service's user could no longer write its store.
    A child process that has dropped to the owner's user and group runs the checks and
    sends back their (picklable) result.
    """
    try:
        owner = store.stat()
    except OSError:
        return checks()
    if os.geteuid() != 0 or owner.st_uid == 0:
        return checks()
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's coverage is not collected
        os.close(reader)
        try:
            os.setgroups([])
            os.setgid(owner.st_gid)
            os.setuid(owner.st_uid)
            sent = pickle.dumps(checks())
        except BaseException as err:  # the parent raises it, as if the checks had run here
            sent = pickle.dumps(err if isinstance(err, Exception) else RuntimeError(str(err)))
        with os.fdopen(writer, "wb") as out:
            out.write(sent)
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as answer:
        data = answer.read()
    os.waitpid(child, 0)
    result = pickle.loads(data) if data else RuntimeError("the check as the store's owner stopped")
    if isinstance(result, Exception):
        raise result
    return cast(T, result)


def lock_holder(store: Path) -> int | str | None:
    """The PID holding the store's lock (a companion is using it), None if free, or why it cannot be told.

    A shared lock taken and dropped at once: a companion starting in that
    instant would be refused, and its service restarts it two seconds later.
    """
    try:
        fd = os.open(f"{store}.lock", os.O_RDONLY)
    except FileNotFoundError:
        return None
    except OSError as err:
        return f"cannot read {store}.lock: {err.strerror}"
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            text = os.read(fd, 32).decode(errors="replace").strip()
            return int(text) if text.isdigit() else -1
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def check_store(store_at: Chosen, holder: int | str | None) -> Finding:
    """The store: where it is and why, writable, who holds it, intact, its games."""
    path = store_at.path
    where = f"{path} ({store_at.source})"
    if not path.exists():
        return _no_store(path, where)
    if not os.access(path, os.R_OK) or isinstance(holder, str):
        return fail("store", f"{where}: cannot read it as this user", f"run it as the service's user: {AS_SERVICE}")
    if not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        return fail("store", f"{where}: not writable by this user (the store and its folder must be)",
                    f"run the companion as the store's owner ({AS_SERVICE}), or fix its owner: "
                    f"sudo chown -R clue: {path.parent}")
    try:
        with Store(path, exclusive=False) as store:
            games, unfinished = store.games(), store.unfinished()
        problem = _integrity(path)
    except StoreError as err:
        problem = str(err)
    if problem:
        return fail("store", f"{where}: {problem}",
                    f"stop the companion, keep the damaged file aside (mv {path} {path}.damaged) and start again "
                    "with a new store (tags are enrolled again), or restore a copy")
    used = "not in use" if holder is None else "in use by " + (f"process {holder}" if holder != -1 else
                                                               "another process")
    details = [f"{len(games)} game{'s' if len(games) != 1 else ''}; integrity ok; {used}"]
    details += [f"unfinished: game {game.id} ({game.edition}, {game.actions} actions, last played {game.updated})"
                for game in unfinished[:3]]
    return ok("store", where, *details)


def _no_store(path: Path, where: str) -> Finding:
    folder = next((p for p in (path.parent, *path.parent.parents) if p.exists()), Path("/"))
    if os.access(folder, os.W_OK):
        return warn("store", f"{where}: not made yet", "nothing to do: run or enroll makes it")
    return fail("store", f"{where}: not made yet, and this user cannot make it in {folder}",
                f"run as the service's user ({AS_SERVICE}), or choose another --db")


def _integrity(path: Path) -> str | None:
    """PRAGMA integrity_check (the full check; opening the store runs only the quick one)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        rows = [row[0] for row in db.execute("PRAGMA integrity_check").fetchall()]
    except sqlite3.Error as err:
        return f"damaged: {err}"
    finally:
        db.close()
    return None if rows == ["ok"] else f"damaged: {'; '.join(rows[:3])}"


# ---- the web page, the service, the PIN ----------------------------------------------------------


def check_web(port: int, holder: int | None, name: str | None = None) -> Finding:
    """The web port free (or the companion's), and the addresses and name phones will use."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("0.0.0.0", port))
        except OSError as err:
            in_use = err.errno == errno.EADDRINUSE
            if not (in_use and holder is not None):
                why = "in use by another program" if in_use else err.strerror
                return fail("web", f"port {port}: {why}",
                            f"choose another [web] port in the config, or stop that program (sudo ss -ltnp "
                            f"'sport = :{port}' names it)")
    state = f"served by the companion (process {holder})" if holder is not None else "free"
    from web.reach import mdns_name, phone_addresses

    try:
        host = mdns_name(name)
    except ValueError as err:
        return fail("web", f"[web] name: {err}", "set [web] name to one word such as clue, or leave it out")
    addresses = phone_addresses()  # what join URLs use: real interfaces before docker or VPN ones
    urls = [f"http://{host}:{port}/", *(f"http://{address}:{port}/" for address in addresses)]
    if not addresses:
        return warn("web", f"port {port}: {state}; no network address phones can reach",
                    "join the Pi to the family's Wi-Fi or make it a hotspot (docs/install.md)", *urls)
    return ok("web", f"port {port}: {state}; phones use {urls[0]} or {urls[1]}", *urls[2:])


def check_service() -> Finding:
    """The systemd unit's state, where there is systemd."""
    if shutil.which("systemctl") is None:
        return warn("service", "no systemd here: start the companion by hand with clue-companion run")
    enabled = _systemctl("is-enabled")
    if enabled in ("", "not-found") or "No such file" in enabled:
        return warn("service", f"{SERVICE}.service is not installed", "sudo tools/install-pi.sh installs it")
    if not SYSTEMD_RUNNING.is_dir():  # a chroot or container: systemctl can say enabled, never active
        return warn("service", f"{SERVICE}.service {enabled}; systemd is not running here (a chroot or container)",
                    "it starts when the Pi boots with systemd")
    active = _systemctl("is-active")
    text = f"{SERVICE}.service {enabled}, {active}"
    if active == "failed":
        return fail("service", text, f"journalctl -u {SERVICE} -e says why; then sudo systemctl restart {SERVICE}")
    if enabled != "enabled":
        return warn("service", text, f"to start it at boot: sudo systemctl enable --now {SERVICE}")
    if active != "active":
        return warn("service", text, f"sudo systemctl start {SERVICE}")
    return ok("service", text)


def _systemctl(verb: str) -> str:
    try:
        done = subprocess.run(["systemctl", verb, SERVICE], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"unknown ({err})"
    said = (done.stdout.strip() or done.stderr.strip()).splitlines()
    return said[0] if said else "unknown"


def check_pin(config: HardwareConfig, config_at: Chosen | None, store_at: Chosen,
              holder: int | str | None) -> Finding:
    """The host PIN, as the companion will use it: the config's, else the stored one, else host-pin's."""
    from web.guard import pin_problem

    if config.web_pin is not None and config_at is not None:
        problem = pin_problem(config.web_pin)
        if problem:
            return fail("host PIN", f"{config_at.path} [web] pin: {problem}", "set 6 to 12 digits, in quotes")
        return ok("host PIN", f"{config.web_pin} (from {config_at.path} [web] pin)")
    path, pin_file = store_at.path, store_at.path.parent / PIN_FILE
    try:
        stored = _stored_pin(path) if path.exists() and not isinstance(holder, str) else None
        if stored is None and pin_file.exists():
            stored, path = pin_file.read_text(encoding="utf-8").strip(), pin_file
    except (OSError, StoreError):
        return warn("host PIN", f"cannot read it as this user (in {path})", f"run {AS_SERVICE}")
    if stored is None:
        return warn("host PIN", "none yet: the companion makes one when it first runs",
                    "or choose one: [web] pin in the config, or run --pin")
    return ok("host PIN", f"{stored} (from {path})")


def _stored_pin(path: Path) -> str | None:
    from web.context import PIN_SETTING  # the store setting the web page keeps its PIN in

    if not os.access(path, os.R_OK):
        raise PermissionError(errno.EACCES, "permission denied", str(path))
    with Store(path, exclusive=False) as store:
        return store.setting(PIN_SETTING)
