"""The config's ``[table]``: the table's language and edition when ``run`` is not told (first-boot writes them).

``run --locale`` and ``--edition`` win; without them a config's ``[table] locale``
is this run's language (as ``--locale``), and ``[table] edition`` the edition of a
new game (never a reason not to resume the unfinished one).

>>> TableSettings.read('[table]\\nlocale = "de"\\nedition = "classic"\\n', "c.toml")
TableSettings(locale='de-DE', edition='classic')
>>> TableSettings.read('[web]\\nport = 8000\\n', "c.toml")
TableSettings(locale=None, edition=None)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from companion.language import parse_locale
from companion.rules.edition import load_edition
from companion.rules.errors import BadInput, ClueError

KEYS = ("locale", "edition")


@dataclass(frozen=True)
class TableSettings:
    locale: str | None = None
    edition: str | None = None

    @classmethod
    def load(cls, path: Path | None) -> TableSettings:
        """The ``[table]`` of the config at ``path`` (None: none); BadInput naming the file and key."""
        if path is None:
            return cls()
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return cls()  # the hardware config's reader says what is wrong with the file
        return cls.read(text, str(path))

    @classmethod
    def read(cls, text: str, name: str) -> TableSettings:
        try:
            table = tomllib.loads(text).get("table", {})
        except tomllib.TOMLDecodeError:
            return cls()  # as above
        if not isinstance(table, dict):
            raise BadInput(f"{name}: table must be a table, [table]")
        unknown = sorted(set(table) - set(KEYS))
        if unknown:
            raise BadInput(f"{name}: unknown key table.{unknown[0]}; expected one of {', '.join(KEYS)}")
        values = {key: table.get(key) for key in KEYS}
        for key, value in values.items():
            if value is not None and not isinstance(value, str):
                raise BadInput(f"{name}: table.{key} must be text in quotes, not {value!r}")
        try:
            locale = parse_locale(values["locale"]).tag if values["locale"] else None
        except ClueError as err:
            raise BadInput(f"{name}: table.locale: {err}") from None
        edition = values["edition"] or None
        if edition is not None:
            try:
                edition = load_edition(edition).id
            except ClueError as err:
                raise BadInput(f"{name}: table.edition: {err}") from None
        return cls(locale, edition)
