"""``clue-companion enroll``: guided tag enrolment (being written)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(commands: Any) -> None:
    enroll = commands.add_parser("enroll", help="enrol the tags of every card, mover and weapon token")
    enroll.set_defaults(command=_enroll)


def _enroll(args: argparse.Namespace) -> int:
    raise SystemExit("clue-companion enroll: not written yet")
