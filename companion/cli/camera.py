"""``clue-companion camera``: print the markers for a camera table, or read a photo of the board.

``camera markers EDITION --out FILE.svg|FILE.pdf [--json] [--locale L] [--paper a4|letter]`` writes
the sticker sheet (1:1) and, with ``--json``, prints where every marker is on the board;
``camera read PHOTO --edition EDITION [--config FILE] --json`` prints
``{"board_found", "pieces", "unseen", "ms"}``. A photo that cannot be read prints
``{"error": CODE, "message": ...}`` and exits 2.

OpenCV is loaded inside the commands: the companion itself is pure Python (docs/camera.md).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from companion.language import DEFAULT, parse_locale
from companion.rules.edition import load_edition
from companion.rules.errors import ClueError
from companion.rules.spelling import spelling


class UsageError(ClueError):
    code = "usage"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``camera markers`` and ``camera read`` on the ``clue-companion`` sub-command parser."""
    camera = commands.add_parser("camera", help="markers for a camera over the board, and reading a photo of it",
                                 description="camera markers EDITION --out FILE  |  camera read PHOTO --edition ID")
    actions = camera.add_subparsers(required=True, metavar="ACTION")
    markers = actions.add_parser("markers", help="write the printable marker sheet (SVG or PDF, 1:1)")
    markers.add_argument("edition", help="an edition id or name")
    markers.add_argument("--out", metavar="FILE", help="FILE.svg or FILE.pdf")
    markers.add_argument("--json", action="store_true", help="print every marker's place on the board as JSON")
    markers.add_argument("--locale", default=DEFAULT, metavar="LOCALE", help="the names' language (default en-US)")
    markers.add_argument("--paper", choices=("a4", "letter"), default="a4", help="the page size (the sheet fits both)")
    markers.add_argument("--square-mm", type=float, default=21.0, metavar="MM",
                         help="one square of your board in mm (default 21, a Classic board)")
    markers.set_defaults(command=_markers)
    read = actions.add_parser("read", help="read a photo of the board: each piece's place, as JSON")
    read.add_argument("photo", help="a photo (JPEG, PNG...) of the board with its markers")
    read.add_argument("--edition", required=True, help="the edition on the table")
    read.add_argument("--config", metavar="FILE", help="a TOML file whose [camera] table calibrates the camera")
    read.add_argument("--json", action="store_true", help="print JSON (the only output)")
    read.set_defaults(command=_read)


def _markers(args: argparse.Namespace) -> int:
    from hardware.camera.layout import layout
    from hardware.camera.markers import SheetError, sheet

    if args.out is None and not args.json:
        raise UsageError("camera markers needs --out FILE.svg|FILE.pdf, --json, or both")
    if args.out is not None and not args.out.lower().endswith((".svg", ".pdf")):
        raise UsageError(f"--out {args.out}: the sheet is written as .svg or .pdf")
    if not 5 <= args.square_mm <= 60:
        raise UsageError(f"--square-mm {args.square_mm:g}: expected 5 to 60 mm")
    try:
        locale = parse_locale(args.locale)
    except ClueError as err:
        raise UsageError(f"--locale: {err}") from None
    edition = load_edition(args.edition)
    edition.require_board()
    data = layout(edition, args.square_mm)
    if args.out is not None:
        names = spelling(edition, locale.tag)
        try:
            page = sheet(data, names, f"{names.get(edition.name, edition.name)}: camera markers", args.paper)
        except SheetError as err:
            raise UsageError(str(err)) from None
        content = page.pdf() if args.out.lower().endswith(".pdf") else page.svg().encode("utf-8")
        try:
            with open(args.out, "wb") as handle:
                handle.write(content)
        except OSError as err:
            raise UsageError(f"cannot write {args.out}: {err.strerror}") from None
    if args.json:
        print(json.dumps(data))
    else:
        print(f"wrote {args.out}")
    return 0


def _read(args: argparse.Namespace) -> int:
    try:
        print(json.dumps(_reading(args)))
        return 0
    except ClueError as err:
        print(json.dumps({"error": err.code, "message": str(err)}))
        return 2


def _reading(args: argparse.Namespace) -> dict[str, Any]:
    import cv2

    from hardware.camera.calibration import Calibration, load_calibration
    from hardware.camera.layout import layout
    from hardware.camera.read import ReadError, load_image, read

    calibration = load_calibration(args.config) if args.config else Calibration()
    edition = load_edition(args.edition)
    edition.require_board()
    plan = layout(edition, calibration.square_mm)
    image = load_image(args.photo)
    start = time.perf_counter()
    try:
        reading = read(image, plan, calibration.lens(image.shape[1], image.shape[0]))
    except (cv2.error, ValueError) as err:  # numpy's LinAlgError (a degenerate pose) is a ValueError
        raise ReadError(f"{args.photo}: the board's markers give no camera pose ({err})", "unreadable") from None
    ms = (time.perf_counter() - start) * 1000
    return reading.check().to_json(ms)

