"""The bill of materials of the circuits: lines, totals, CSV and Markdown.

A line without a dated price (catalogue.NO_PRICE) stays in the BOM with an
empty price; totals add up the priced lines only and say how many lines
have no price, so no total passes for the cost of the whole table.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from hardware.circuits.catalogue import Price, price_of
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
    def line_usd(self) -> float | None:
        unit = self.price.unit_usd
        return None if unit is None else self.quantity * unit


@dataclass(frozen=True)
class Assembly:
    """A circuit's BOM and how many of it the table needs (10 handhelds, 1 board)."""

    name: str
    lines: tuple[BomLine, ...]
    copies: int = 1

    @property
    def unit_usd(self) -> float:
        """The priced lines' sum: a lower bound while ``unpriced`` is not 0."""
        return sum(line.line_usd or 0.0 for line in self.lines)

    @property
    def unpriced(self) -> int:
        """Lines with no dated price."""
        return sum(1 for line in self.lines if line.line_usd is None)

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
                p.supplier_pn, _usd(p.unit_usd, 3), _usd(line.line_usd, 2), p.source, p.date,
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


def _usd(amount: float | None, places: int) -> str:
    """A price, or nothing when there is none.

    >>> _usd(4, 2), _usd(None, 2)
    ('4.00', '')
    """
    return "" if amount is None else f"{amount:.{places}f}"


def _total(usd: float, unpriced: int) -> str:
    return f"{usd:.2f}" if not unpriced else f"{usd:.2f} + {unpriced} unpriced"


_PRICE_NOTE = (
    "Prices only where a dated public source gives one (each line's source and date are in "
    "bom.csv); \"no price\" lines were not looked up, so every total below counts the priced "
    "lines only and says how many lines it leaves out. Check part numbers and prices before "
    "ordering.")


def to_markdown(assemblies: Sequence[Assembly], title: str) -> str:
    """Tables per circuit, then what the priced lines of the whole table add up to."""
    out = [f"# {title}", "", _PRICE_NOTE, ""]
    for assembly in assemblies:
        out += [f"## {assembly.name}", "",
                "| References | Qty | Value | Part number | Supplier | Unit $ | Line $ |",
                "|---|---:|---|---|---|---:|---:|"]
        for line in assembly.lines:
            p = line.price
            unit = _usd(p.unit_usd, 3) or "no price"
            out.append(f"| {compact_refs(line.references)} | {line.quantity} | {line.value} | "
                       f"{p.manufacturer} {p.mpn} | {p.supplier} {p.supplier_pn} | "
                       f"{unit} | {_usd(line.line_usd, 2)} |")
        total = _total(assembly.unit_usd, assembly.unpriced)
        out += [f"| **total per {assembly.name}** | {assembly.parts} | | | | | **{total}** |", ""]
    out += ["## Total of the priced lines", "",
            "| Assembly | Copies | Each $ | Total $ | Lines without a price |",
            "|---|---:|---:|---:|---:|"]
    for assembly in assemblies:
        out.append(f"| {assembly.name} | {assembly.copies} | {assembly.unit_usd:.2f} | "
                   f"{assembly.unit_usd * assembly.copies:.2f} | {assembly.unpriced} |")
    grand = sum(a.unit_usd * a.copies for a in assemblies)
    missing = sum(a.unpriced for a in assemblies)
    out += [f"| **all** | | | **{grand:.2f}** | {missing} |", ""]
    return "\n".join(out)
