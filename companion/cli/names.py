"""Names as people type them at the console: any unique part of a name, by whole words.

A name matches when the typed words start consecutive words of it, so "scarlet",
"miss sc" and "col must" name Miss Scarlet and Colonel Mustard. The exact names
and an edition's aliases (``Deck.resolve``, ``resolve_place``) are tried first by
the callers; this is the fallback, and its completions use the same rule.

>>> suspects = ("Miss Scarlet", "Colonel Mustard", "Mrs. White", "Mrs. Peacock")
>>> match_name("scarlet", suspects, "suspect"), match_name("COL MUST", suspects, "suspect")
('Miss Scarlet', 'Colonel Mustard')
>>> match_name("mrs", suspects, "suspect")
Traceback (most recent call last):
companion.cli.names.UnclearName: 'mrs' could be Mrs. White or Mrs. Peacock: type more of the name
>>> completions(["miss", "sc"], suspects), completions(["m"], suspects)
(['Scarlet'], ['Miss Scarlet', 'Mrs. Peacock', 'Mrs. White', 'Mustard'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.rules.cards import normalise
from companion.rules.errors import ClueError


class UnclearName(ClueError, ValueError):
    """A typed name that names no piece, or (``ambiguous``) more than one."""

    def __init__(self, message: str, *, ambiguous: bool = False) -> None:
        super().__init__(message)
        self.ambiguous = ambiguous

    code = "unknown_name"


def match_name(text: str, names: Iterable[str], what: str) -> str:
    """The one name in ``names`` that ``text`` names; raises :class:`UnclearName` naming the
    candidates when there are several, or the valid names when there is none."""
    names = tuple(dict.fromkeys(names))
    typed = _words(text)
    exact = [name for name in names if _words(name) == typed]
    found = exact or [name for name in names if typed and _start(typed, _words(name)) is not None]
    if len(found) == 1:
        return found[0]
    if found:
        listed = ", ".join(found[:-1]) + " or " + found[-1]
        raise UnclearName(f"{text.strip()!r} could be {listed}: type more of the name", ambiguous=True)
    raise UnclearName(f"unknown {what} {text.strip()!r}; valid: {', '.join(names)}")


def completions(typed: Sequence[str], names: Iterable[str]) -> list[str]:
    """How to complete the last of the ``typed`` words (the one under the cursor) to a name:
    the rest of each name from that word on. Earlier words count when they continue into it."""
    names = tuple(dict.fromkeys(names))
    for count in range(len(typed), 0, -1):  # the most typed words that still lead into a name
        tail = [normalise(word) for word in typed[-count:]]
        if tail == [""]:
            return sorted(names)  # nothing typed yet: whole names
        found = {" ".join(name.replace(".", ". ").split()[at + count - 1:]) for name in names
                 if (at := _start(tail, _words(name))) is not None}
        if found:
            return sorted(found)
    return []


def _words(name: str) -> list[str]:
    return normalise(name).split(" ") if normalise(name) else []


def _start(typed: Sequence[str], words: Sequence[str]) -> int | None:
    """Where the typed words begin consecutive words of a name (each a prefix of its word)."""
    for at in range(len(words) - len(typed) + 1):
        if all(words[at + n].startswith(part) for n, part in enumerate(typed)):
            return at
    return None
