"""Build every circuit: ERC, KiCad netlists and the BOM into one directory."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hardware.circuits.board import build_board
from hardware.circuits.bom import Assembly, bom_lines, to_csv, to_markdown
from hardware.circuits.handheld import build_handheld
from hardware.circuits.hub import build_hub
from hardware.circuits.pinout import BoardSpec
from hardware.circuits.skidl_session import Messages, SkidlObject, netlist, run_erc


@dataclass(frozen=True)
class CircuitResult:
    """One circuit's checks and outputs."""

    name: str
    erc: Messages
    netlist: Path
    netlist_warnings: tuple[str, ...]
    assembly: Assembly


@dataclass(frozen=True)
class BuildResult:
    """Everything one build wrote."""

    circuits: tuple[CircuitResult, ...]
    bom_csv: Path
    bom_md: Path

    @property
    def erc_errors(self) -> list[str]:
        return [f"{c.name}: {e}" for c in self.circuits for e in c.erc.errors]


def circuits(spec: BoardSpec, handhelds: int) -> list[tuple[str, SkidlObject, int]]:
    """(name, circuit, copies the table needs) for the board, the hub and a handheld."""
    board = f"board ({spec.readers} readers)"
    return [(board, build_board(spec), 1), ("handheld hub", build_hub(handhelds), 1),
            ("handheld", build_handheld(), handhelds)]


def build(outdir: Path, spec: BoardSpec, handhelds: int) -> BuildResult:
    """Check and write every circuit into ``outdir`` (created if missing)."""
    outdir.mkdir(parents=True, exist_ok=True)
    results = []
    for name, circuit, copies in circuits(spec, handhelds):
        erc = run_erc(circuit)
        text, messages = netlist(circuit)
        path = outdir / f"{name.split(' (')[0].replace(' ', '_')}.net"
        path.write_text(text, encoding="utf-8")
        results.append(CircuitResult(name, erc, path, tuple(messages.errors + messages.warnings),
                                     Assembly(name, bom_lines(name, circuit), copies)))
    assemblies = [r.assembly for r in results]
    bom_csv, bom_md = outdir / "bom.csv", outdir / "bom.md"
    bom_csv.write_text(to_csv(assemblies), encoding="utf-8")
    title = f"Bill of materials: {spec.readers} readers, {handhelds} handhelds"
    bom_md.write_text(to_markdown(assemblies, title), encoding="utf-8")
    return BuildResult(tuple(results), bom_csv, bom_md)
