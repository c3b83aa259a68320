"""A game record rewritten in other names: every card and seat as a locale or a box writes it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def written_as(record: Path, names: dict[str, str], out: Path) -> Path:
    """``record`` with every card and seat written as ``names`` says (identity -> name), saved as ``out``."""
    def local(value: Any) -> Any:
        if isinstance(value, str):
            return names.get(value, value)
        if isinstance(value, list):
            return [local(item) for item in value]
        if isinstance(value, dict):
            return {local(key): local(item) for key, item in value.items()}
        return value
    lines = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines() if line.strip()]
    out.write_text("".join(json.dumps({k: v if k in ("type", "edition") else local(v) for k, v in line.items()},
                                      ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return out
