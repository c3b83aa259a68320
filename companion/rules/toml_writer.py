"""Write the TOML of an edition file: tables of strings, integers, booleans and lists of them.

The standard library reads TOML but does not write it; editions need only this
small subset, so it is written here, with every string escaped the way TOML's
basic strings require.

>>> print(toml_text({"id": "our_board", "board": {"rooms": {"K": "Kitchen"}, "pairs": [["A", "B"]]}}))
id = "our_board"
<BLANKLINE>
[board]
pairs = [["A", "B"]]
<BLANKLINE>
[board.rooms]
K = "Kitchen"
<BLANKLINE>
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from .errors import BadInput

BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
ONE_LINE = 100  # a longer array is written one item per line
ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def toml_text(data: Mapping[str, object], comments: Sequence[str] = ()) -> str:
    """``data`` as TOML, after ``comments`` (one ``# `` line each); BadInput for a value TOML here cannot hold."""
    lines = [f"# {line}" for line in comments]
    _table(lines, (), data)
    return "\n".join(lines).lstrip("\n") + "\n"


def quote(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    return '"' + "".join(ESCAPES.get(char, _control(char)) for char in text) + '"'


def key(name: str) -> str:
    return name if BARE_KEY.fullmatch(name) else quote(name)


def _control(char: str) -> str:
    return f"\\u{ord(char):04X}" if ord(char) < 0x20 or ord(char) == 0x7F else char


def _is_table_array(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)


def _table(lines: list[str], path: tuple[str, ...], table: Mapping[str, object], array: bool = False) -> None:
    if path:
        header = ".".join(key(part) for part in path)
        lines += ["", f"[[{header}]]" if array else f"[{header}]"]
    for name, value in table.items():
        if not isinstance(value, dict) and not _is_table_array(value):
            lines.append(f"{key(name)} = {_value(value, (*path, name))}")
    for name, value in table.items():
        if isinstance(value, dict):
            _table(lines, (*path, name), value)
        elif _is_table_array(value):
            assert isinstance(value, list)
            for item in value:
                _table(lines, (*path, name), item, array=True)


def _value(value: object, path: tuple[str, ...]) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, list):
        items = [_value(item, path) for item in value]
        one_line = "[" + ", ".join(items) + "]"
        if len(one_line) <= ONE_LINE:
            return one_line
        return "[\n" + "".join(f"    {item},\n" for item in items) + "]"
    raise BadInput(f"{'.'.join(path)}: a value of type {type(value).__name__} has no place in an edition file")
