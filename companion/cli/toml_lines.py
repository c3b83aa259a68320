"""Set one string key in a TOML file's text, leaving every other byte as it was.

tomllib only reads; writing the data back would drop the comments a family or
an installer wrote. So a key's line is edited in place (its indentation,
trailing comment and line ending kept), added at the end of its table, or the
table added at the end of the file. The result is read back with tomllib and
must hold exactly the old data with that one change, or :class:`EditError`.

>>> set_string('[web]\\r\\nport = 8000  # the page\\r\\npin = "111111" # mine\\r\\n', "web", "pin", "204868")
'[web]\\r\\nport = 8000  # the page\\r\\npin = "204868" # mine\\r\\n'
>>> set_string("[web]\\nport = 8000\\n\\n# zones\\n[zones]\\n", "web", "pin", "204868")
'[web]\\nport = 8000\\npin = "204868"\\n\\n# zones\\n[zones]\\n'
>>> set_string("[web]\\n", "table", "edition", "classic")
'[web]\\n\\n[table]\\nedition = "classic"\\n'
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

_HEADER = re.compile(r"[ \t]*\[\[?[ \t]*([^\]]*?)[ \t]*\]\]?[ \t]*(#.*)?")
_VALUE = r"""("(?:[^"\\\r\n]|\\.)*"|'[^'\r\n]*'|[^ \t#\r\n]*)"""


class EditError(ValueError):
    """The key could not be changed without touching something else (a dotted key, an inline table...)."""


def set_string(text: str, table: str, key: str, value: str | None) -> str:
    """``text`` with ``[table] key = "value"`` (None: the key's line removed); EditError if it cannot be."""
    try:
        before = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise EditError(f"it is not valid TOML: {err}") from None
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if "\r\n" in text else "\n"
    start, end = _table_lines(lines, table)
    line = re.compile(rf"(?P<lead>[ \t]*{re.escape(key)}[ \t]*=[ \t]*){_VALUE}(?P<tail>[ \t]*(#[^\r\n]*)?)"
                      r"(?P<nl>\r?\n?)")
    found = next((i for i in range(start, end) if line.fullmatch(lines[i])), None) if start is not None else None
    match = line.fullmatch(lines[found]) if found is not None else None
    if found is not None and match is not None:
        if value is None:
            del lines[found]
        else:
            lines[found] = f"{match['lead']}{_quoted(value)}{match['tail']}{match['nl'] or newline}"
    elif value is not None:
        lines = _added(lines, start, end, table, f"{key} = {_quoted(value)}{newline}", newline)
    edited = "".join(lines)
    _check(before, edited, table, key, value)
    return edited


def _table_lines(lines: list[str], table: str) -> tuple[int | None, int]:
    """The lines of ``[table]``'s keys: from after its header to the next header (start None: no such table)."""
    start: int | None = None
    for number, line in enumerate(lines):
        header = _HEADER.fullmatch(line.rstrip("\r\n"))
        if header is None:
            continue
        if start is not None:
            return start, number
        if header[1] == table and not line.lstrip().startswith("[["):
            start = number + 1
    return start, len(lines)


def _added(lines: list[str], start: int | None, end: int, table: str, entry: str, newline: str) -> list[str]:
    """``entry`` after the table's last key line (comments below it may introduce the next table)."""
    if start is None:
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += newline
        return [*lines, *([newline] if lines else []), f"[{table}]{newline}", entry]
    last = start
    for number in range(start, end):
        stripped = lines[number].strip()
        if stripped and not stripped.startswith("#"):
            last = number + 1
    if last > 0 and not lines[last - 1].endswith("\n"):
        lines[last - 1] += newline
    return [*lines[:last], entry, *lines[last:]]


def _quoted(value: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's (\\", \\\\, \\n, \\uXXXX)."""
    return json.dumps(value, ensure_ascii=False)


def _check(before: dict[str, Any], text: str, table: str, key: str, value: str | None) -> None:
    try:
        after = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise EditError(f"{table}.{key} could not be written in place: {err}") from None
    expected = {name: dict(content) if isinstance(content, dict) else content for name, content in before.items()}
    section = expected.get(table) if value is None else expected.setdefault(table, {})
    if section is not None and not isinstance(section, dict):
        raise EditError(f"{table} is not a table")
    if section is not None:
        if value is None:
            section.pop(key, None)
        else:
            section[key] = value
    if after != expected:
        raise EditError(f"{table}.{key} is written in a way this edit cannot follow (a dotted key or an inline "
                        "table): write it as a plain key under its table")
