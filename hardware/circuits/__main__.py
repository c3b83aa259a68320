"""``python -m hardware.circuits build OUTDIR``: netlists, BOM and ERC of the circuits."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from hardware.circuits.build import build
from hardware.circuits.pinout import BoardSpec


def _seats(text: str) -> tuple[int, ...]:
    if text == "none":
        return ()
    try:
        first, _, last = text.partition("-")
        return tuple(range(int(first), int(last or first) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"seats must look like 10-15 or none, got {text!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.circuits")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("build", help="check the circuits and write netlists and the BOM")
    run.add_argument("outdir", type=Path)
    run.add_argument("--readers", type=int, default=16, help="readers on the board (1-32)")
    run.add_argument("--seats", type=_seats, default=(10, 11, 12, 13, 14, 15),
                     help="the seat pads' readers, on SPI1: FIRST-LAST or none (default 10-15)")
    run.add_argument("--handhelds", type=int, default=10, help="handhelds behind the hub (1-16)")
    args = parser.parse_args(argv)
    try:
        result = build(args.outdir, BoardSpec(args.readers, args.seats), args.handhelds)
    except (ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for circuit in result.circuits:
        print(f"{circuit.name}: {len(circuit.erc.errors)} ERC errors, "
              f"{len(circuit.erc.warnings)} warnings -> {circuit.netlist}")
        for message in circuit.erc.errors + circuit.erc.warnings:
            print(f"  {message}")
    print(f"BOM: {result.bom_csv}, {result.bom_md}")
    return 1 if result.erc_errors else 0


if __name__ == "__main__":
    sys.exit(main())
