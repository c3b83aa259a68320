"""What ``clue-companion doctor`` found: one finding per check, with the fix in words.

>>> print(Finding("board", "fail", "no board found", "plug the Pico in by USB").lines()[0])
✗ board: no board found
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

Status = Literal["ok", "warn", "fail"]
MARKS: dict[Status, str] = {"ok": "✓", "warn": "!", "fail": "✗"}


@dataclass(frozen=True)
class Finding:
    """One check's result: ``text`` says what was seen, ``fix`` what to do about a problem."""

    check: str
    status: Status
    text: str
    fix: str = ""
    details: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """The finding as the doctor prints it: a marked line, then indented details and the fix."""
        lines = [f"{MARKS[self.status]} {self.check}: {self.text}"]
        lines += [f"    {detail}" for detail in self.details]
        if self.fix:
            lines.append(f"    fix: {self.fix}")
        return lines

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "details": list(self.details)}


def ok(check: str, text: str, *details: str) -> Finding:
    return Finding(check, "ok", text, details=details)


def warn(check: str, text: str, fix: str = "", *details: str) -> Finding:
    return Finding(check, "warn", text, fix, details)


def fail(check: str, text: str, fix: str = "", *details: str) -> Finding:
    return Finding(check, "fail", text, fix, details)
