"""``clue-companion host-login``: a single-use link into the host page, for whoever has a shell on the companion.

The host PIN's limits are strict (per address and for everyone together), so
someone guessing it from several addresses keeps every PIN login out while the
guessing lasts. This command is the owner's way in that does not depend on the
PIN: run on the companion's machine, as the service's user or root, it finds
the store as ``run`` and ``doctor`` do (``--db``, ``--config``, ``--mock``;
:mod:`companion.cli.where`), stores a new login link there (only its SHA-256
and when it expires: :func:`web.host_sessions.issue_link`), and prints the
link and its QR code. The first browser that opens it within five minutes is
logged in as host; the link is used up then, and a newer one replaces it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from companion.rules.errors import ClueError
from companion.table.store import Store, StoreError

from .where import CONFIG_VARIABLE, SYSTEM_CONFIG, resolve, web_port

AS_SERVICE = "sudo -u clue clue-companion host-login"


class HostLoginError(ClueError, ValueError):
    code = "host_login"


def add_parser(commands: Any) -> None:
    login = commands.add_parser(
        "host-login", help="print a single-use host login link and its QR code, valid for 5 minutes (run it on "
                           "the companion's machine: the way into /host without the PIN)")
    login.add_argument("--config", help=f"hardware config (TOML), as for run: default ${CONFIG_VARIABLE}, then "
                                        f"{SYSTEM_CONFIG} if it exists")
    login.add_argument("--db", metavar="PATH", help="the store, as for run: default $CLUE_COMPANION_DB, then the "
                                                    "config's [store] path, then the default")
    login.add_argument("--mock", action="store_true", help="the store of run --mock (mock.db)")
    login.add_argument("--host", default="0.0.0.0",
                       help="the address the companion serves its page on, as given to run --host (default: every "
                            "interface, so the link uses this machine's network address)")
    login.add_argument("--port", type=web_port, help="the web page's port, as given to run --port (default: the "
                                                "config's [web] port, 8000)")
    login.add_argument("--no-qr", action="store_true", help="print the link only, without its QR code")
    login.set_defaults(command=_host_login)


def _host_login(args: argparse.Namespace) -> int:
    if args.port is not None and not 1 <= args.port <= 65535:
        raise HostLoginError(f"--port must be from 1 to 65535, not {args.port}")
    _, config, store_at = resolve(args.config, args.db, os.environ, mock=args.mock)
    print(store_at.line(), flush=True)
    secret = issue(store_at.path)
    from web.host_sessions import LINK_PATH, LINK_SECONDS
    from web.serve import page_url, print_qr

    url = page_url(args.host, args.port if args.port is not None else config.web_port, name=config.web_name)
    link = f"{url}{LINK_PATH}{secret}"
    until = time.strftime("%H:%M", time.localtime(time.time() + LINK_SECONDS))
    print(f"clue-companion: host login link for one browser, until {until} ({LINK_SECONDS // 60} minutes; "
          "a newer link replaces it):")
    print(link, flush=True)
    if not args.no_qr:
        print_qr(link, sys.stdout)
    if _running(store_at.path) is None:
        print("clue-companion: no companion is using this store now: the link works once one runs with it "
              "(sudo systemctl start clue-companion)")
    return 0


def issue(store: Path) -> str:
    """A new login link's secret, stored in ``store`` (as the store's owner when run as root)."""
    from web.host_sessions import issue_link

    from .doctor import as_owner  # root writes as the store's owner: SQLite's -wal and -shm must stay the owner's

    if not store.exists():
        raise HostLoginError("there is no store at {path}: start the companion once (it makes it), or name "
                             "the one it uses with --db or --config", path=store)
    if not os.access(store, os.W_OK) and os.geteuid() != 0:
        raise HostLoginError(f"cannot write the store {store} as this user: run it as the service's user "
                             f"({AS_SERVICE}) or with sudo")

    def write() -> str:
        with Store(store, exclusive=False) as opened:  # beside the running companion, which holds the store
            return issue_link(opened)

    try:
        secret: str = as_owner(store, write)
    except StoreError as err:
        raise HostLoginError(f"{err}; run it as the service's user ({AS_SERVICE}) or with sudo") from None
    return secret


def _running(store: Path) -> int | str | None:
    from .doctor import lock_holder

    return lock_holder(store)
