"""The costed bill of materials of the circuits: lines, totals, CSV and Markdown."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from hardware.circuits.catalogue import PRICE_DATE, Price, price_of
from hardware.circuits.skidl_session import SkidlObject

CSV_FIELDS = (
    "circuit", "references", "quantity", "value", "description", "footprint", "manufacturer",
    "mpn", "supplier", "supplier_pn", "unit_usd", "line_usd", "price_source", "price_date",
)


@dataclass(frozen=True)
class BomLine:
    """One kind of part in one circuit, with its references and price."""

    circuit: str
    references: tuple[str, ...]
    value: str
    description: str
    footprint: str
    price: Price

    @property
    def quantity(self) -> int:
        return len(self.references)

    @property
    def line_usd(self) -> float:
        return self.quantity * self.price.unit_usd


@dataclass(frozen=True)
class Assembly:
    """A circuit's BOM and how many of it the table needs (10 handhelds, 1 board)."""

    name: str
    lines: tuple[BomLine, ...]
    copies: int = 1

    @property
    def unit_usd(self) -> float:
        return sum(line.line_usd for line in self.lines)

    @property
    def parts(self) -> int:
        return sum(line.quantity for line in self.lines)


def _ref_key(ref: str) -> tuple[str, int]:
    digits = ref.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return ref[: len(ref) - len(digits)], int(digits or 0)


def bom_lines(circuit_name: str, circuit: SkidlObject) -> tuple[BomLine, ...]:
    """Group a circuit's parts by kind and value, each group priced from the catalogue."""
    groups: dict[tuple[str, str, str], list[SkidlObject]] = {}
    for part in circuit.parts:
        key = (part.kind.name, str(part.value), part.footprint)
        groups.setdefault(key, []).append(part)
    lines = []
    for (kind_name, value, footprint), members in sorted(groups.items()):
        refs = tuple(sorted((str(p.ref) for p in members), key=_ref_key))
        lines.append(BomLine(circuit_name, refs, value, members[0].kind.description, footprint,
                             price_of(kind_name, value)))
    return tuple(sorted(lines, key=lambda line: _ref_key(line.references[0])))


def to_csv(assemblies: Iterable[Assembly]) -> str:
    """One row per BOM line; prices in US dollars."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for assembly in assemblies:
        for line in assembly.lines:
            p = line.price
            writer.writerow((
                line.circuit, " ".join(line.references), line.quantity, line.value,
                line.description, line.footprint, p.manufacturer, p.mpn, p.supplier,
                p.supplier_pn, f"{p.unit_usd:.3f}", f"{line.line_usd:.2f}", p.source, PRICE_DATE,
            ))
    return out.getvalue()


def compact_refs(refs: Sequence[str]) -> str:
    """References with consecutive runs shortened.

    >>> compact_refs(["C1", "C2", "C3", "C5", "R1"])
    'C1-C3, C5, R1'
    """
    runs: list[list[str]] = []
    for ref in refs:
        prefix, number = _ref_key(ref)
        if runs and _ref_key(runs[-1][-1]) == (prefix, number - 1):
            runs[-1].append(ref)
        else:
            runs.append([ref])
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


def to_markdown(assemblies: Sequence[Assembly], title: str) -> str:
    """Tables per circuit, then what the whole table costs."""
    out = [f"# {title}", "", f"Approximate prices in US dollars, noted on {PRICE_DATE} without "
           "a live look-up: check them (and the supplier numbers) before ordering.", ""]
    for assembly in assemblies:
        out += [f"## {assembly.name}", "",
                "| References | Qty | Value | Part number | Supplier | Unit $ | Line $ |",
                "|---|---:|---|---|---|---:|---:|"]
        for line in assembly.lines:
            p = line.price
            out.append(f"| {compact_refs(line.references)} | {line.quantity} | {line.value} | "
                       f"{p.manufacturer} {p.mpn} | {p.supplier} {p.supplier_pn} | "
                       f"{p.unit_usd:.3f} | {line.line_usd:.2f} |")
        out += [f"| **total per {assembly.name}** | {assembly.parts} | | | | | "
                f"**{assembly.unit_usd:.2f}** |", ""]
    out += ["## Total", "", "| Assembly | Copies | Each $ | Total $ |", "|---|---:|---:|---:|"]
    for assembly in assemblies:
        out.append(f"| {assembly.name} | {assembly.copies} | {assembly.unit_usd:.2f} | "
                   f"{assembly.unit_usd * assembly.copies:.2f} |")
    grand = sum(a.unit_usd * a.copies for a in assemblies)
    out += [f"| **all** | | | **{grand:.2f}** |", ""]
    return "\n".join(out)
