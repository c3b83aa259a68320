"""Where each catalogue's messages come from, and keeping the ``.po`` files in step with the code.

An *area* is a part of the project with a catalogue of its own
(``companion/locales/LANG/LC_MESSAGES/AREA.po``), so that work on the seat
page and work on the handhelds never edit the same file. Messages are found
by Babel's extractors: ``_()``/``N_()``/``gettext()`` calls in Python and
JavaScript, ``_()`` and ``{% trans %}`` in templates, and the message of every
:class:`~companion.rules.errors.ClueError` raised with a literal template.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract

from .catalogues import LANGUAGES, ROOT

PROJECT = ROOT.parent.parent
STAMP = datetime(2026, 1, 1, tzinfo=timezone.utc)  # fixed, so that an update with no new message changes no file
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
# Calls whose message is not their first argument: TableError(code, message), ApiError(status, code, message),
# and companion/rules/whereabouts.py's _said(english_words, template) (the rules import nothing of the project).
ERROR_KEYWORDS: dict[str, tuple[int, ...]] = {"TableError": (2,), "ApiError": (3,), "_said": (2,)}


@dataclass(frozen=True)
class Area:
    """One catalogue: the Python, template and script files (globs from the project root) it covers."""

    name: str
    python: tuple[str, ...] = ()
    templates: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()  # files another area covers


# The page modules of web/: each is in its page's area, not in "web".
PAGE_MODULES = ("web/player.py", "web/table.py", "web/board_data.py", "web/host.py", "web/host_sessions.py",
                "web/editor.py", "web/editor_page.py", "web/photo.py", "web/board_photo.py", "web/sim.py")
AREAS: tuple[Area, ...] = (
    Area("rules", python=("companion/rules/**/*.py", "companion/deduction/**/*.py")),
    Area("record", python=("companion/record/**/*.py", "companion/cli/**/*.py", "companion/language/**/*.py")),
    Area("handheld", python=("companion/table/**/*.py", "hardware/**/*.py")),
    Area("web", python=("web/*.py",), templates=("web/templates/base.html", "web/templates/errors/*.html"),
         scripts=("web/static/common.js",), exclude=PAGE_MODULES),
    Area("seat", python=("web/player.py",), templates=("web/templates/player/*.html",),
         scripts=("web/static/seat.js", "web/static/joined.js")),
    Area("table", python=("web/table.py", "web/board_data.py"), templates=("web/templates/table/*.html",),
         scripts=("web/static/table.js", "web/static/board.js")),
    Area("host", python=("web/host.py", "web/host_sessions.py", "web/editor.py", "web/editor_page.py", "web/photo.py",
                         "web/board_photo.py", "web/sim.py"),
         templates=("web/templates/host/*.html", "web/templates/sim/*.html"),
         scripts=("web/static/host.js", "web/static/editor.js", "web/static/sim.js")),
)
WEB_AREAS = ("web", "seat", "table", "host")  # what a page's scripts may ask for
# What a page loads: the table's notices (companion/table, the handheld area) come to the pages as
# {template, args} too; the page areas come last, so a page's own wording wins over a handheld's.
PAGE_AREAS = ("handheld", *WEB_AREAS)


def area(name: str) -> Area:
    for found in AREAS:
        if found.name == name:
            return found
    raise KeyError(f"no area {name!r}; areas: {', '.join(a.name for a in AREAS)}")


def _keywords() -> dict[str, object]:
    from companion.rules.errors import ClueError

    _import_everything()  # an error class is found only once its module is imported
    keywords: dict[str, object] = dict(DEFAULT_KEYWORDS)
    pending = [ClueError]
    while pending:
        cls = pending.pop()
        keywords.setdefault(cls.__name__, None)
        pending.extend(cls.__subclasses__())
    keywords.update(ERROR_KEYWORDS)
    return keywords


def _import_everything() -> None:
    """Import every module of the project, so that each error class is known (only when extracting: the
    catalogues cover hardware/ and web/ too, which the companion's running code never imports from here)."""
    import importlib
    import pkgutil

    for name in ("companion", "hardware", "web"):
        package = importlib.import_module(name)
        for module in pkgutil.walk_packages(package.__path__, f"{name}."):
            if not module.name.endswith("__main__"):
                importlib.import_module(module.name)


def _files(globs: tuple[str, ...]) -> list[Path]:
    return sorted({path for pattern in globs for path in PROJECT.glob(pattern) if "__pycache__" not in path.parts})


def template(which: Area) -> Catalog:
    """Every message of ``which`` as found in the code today."""
    catalog = Catalog(project="clue-companion", msgid_bugs_address="", fuzzy=False, creation_date=STAMP)
    keywords = _keywords()
    methods = (("python", which.python), ("jinja2.ext:babel_extract", which.templates), ("javascript", which.scripts))
    skip = set(_files(which.exclude))
    for method, globs in methods:
        for path in _files(globs):
            if path in skip:
                continue
            with path.open("rb") as handle:
                found = extract(method, handle, keywords=keywords,  # type: ignore[arg-type]
                                comment_tags=("Translators:",))
                for line, text, comments, context in found:
                    if text and (text[0] if isinstance(text, tuple) else text):
                        where = (path.relative_to(PROJECT).as_posix(), line)
                        catalog.add(text, None, [where], auto_comments=comments, context=context)
    return catalog


def po_path(which: Area, language: str) -> Path:
    return ROOT / language / "LC_MESSAGES" / f"{which.name}.po"


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a message fills (a translation must keep the same ones)."""
    return {match.group(1) for match in PLACEHOLDER.finditer(text)}


def problems(which: Area, language: str, catalog: Catalog | None = None) -> Iterator[str]:
    """What is missing or wrong in ``which``'s catalogue for ``language``, one line each."""
    from babel.messages.pofile import read_po

    wanted = template(which)
    path = po_path(which, language)
    if not path.exists():
        yield f"{path.relative_to(PROJECT)}: missing (run: python -m companion.language update)"
        return
    with path.open("rb") as handle:
        have = catalog or read_po(handle, locale=language)
    for message in wanted:
        if not message.id:
            continue
        found: Message | None = have.get(message.id, message.context)
        where = f"{which.name}/{language}"
        if found is None or not _translated(found):
            yield f"{where}: untranslated {_show(message.id)} ({_origin(message)})"
        elif found.fuzzy:
            yield f"{where}: fuzzy {_show(message.id)}"
        else:
            ids = _texts(message.id)
            expected = set().union(*(placeholders(text) for text in ids))
            for text in _texts(found.string):
                if placeholders(text) != expected:
                    yield f"{where}: {_show(message.id)} has placeholders {sorted(placeholders(text))}, " \
                          f"expected {sorted(expected)}"


def _texts(value: object) -> list[str]:
    return [str(text) for text in value] if isinstance(value, (tuple, list)) else [str(value or "")]


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return bool(strings) and all(bool(text) for text in strings)


def _show(message_id: object) -> str:
    text = message_id[0] if isinstance(message_id, tuple) else str(message_id)
    return repr(text if len(text) <= 70 else text[:67] + "...")


def _origin(message: Message) -> str:
    return ", ".join(f"{path}:{line}" for path, line in message.locations[:2])


def update(which: Area) -> dict[str, int]:
    """Bring every language's ``.po`` of ``which`` in step with the code; the count of untranslated per language."""
    from babel.messages.pofile import read_po, write_po

    wanted = template(which)
    counts: dict[str, int] = {}
    for language in LANGUAGES:
        if language == "en":
            continue
        path = po_path(which, language)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=language)
        else:
            catalog = Catalog(locale=language, project="clue-companion", fuzzy=False, creation_date=STAMP,
                              revision_date=STAMP)
        catalog.update(wanted, no_fuzzy_matching=True, update_header_comment=False)
        with path.open("wb") as handle:
            write_po(handle, catalog, width=0, ignore_obsolete=True, sort_output=False, include_previous=False,
                     omit_header=False)
        counts[language] = sum(1 for message in catalog if message.id and not _translated(message))
    return counts
