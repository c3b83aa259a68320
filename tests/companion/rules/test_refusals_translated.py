"""Every refusal of the rules engine and the deduction code can be said in every language.

Babel extracts the first argument of each :class:`ClueError` constructor as a
message, so that argument must be a literal template (``"{seat} has ..."``
with keyword arguments): an f-string or a sentence glued together at run time
has no entry in the catalogues and would reach a German player in English.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from games import MUSTARD, SCARLET, game, play
from house_games import BBT, HOWARD, PENNY, table

import companion.deduction
import companion.rules
from companion import Accuse, ClueError, EndTurn, GameState, Move, Roll, Show, Suggest, apply
from companion.language import translations
from companion.rules.actions import Action

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = (companion.rules, companion.deduction)
# Constructors whose message may be built at run time, each with why.
ALLOWED_CLASSES = {
    "EditionError",  # a maker's diagnostic naming file and line: kept in English (its template is empty)
}
# Files whose messages are an edition maker's diagnostics (loading, exporting, saving an edition file), not a
# player's refusals; kept as they are until the editor's messages are translated.
ALLOWED_FILES = {
    "companion/rules/edition.py",
    "companion/rules/edition_files.py",
    "companion/rules/toml_writer.py",
    "companion/rules/user_editions.py",
}


def _error_classes() -> set[str]:
    """The names of every ClueError subclass the two packages define (each module imported, so all are known)."""
    for package in PACKAGES:
        for module in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            importlib.import_module(module.name)
    names, pending = set(), [ClueError]
    while pending:
        cls = pending.pop()
        names.add(cls.__name__)
        pending.extend(cls.__subclasses__())
    return names


def _sources() -> Iterator[Path]:
    for package in PACKAGES:
        yield from sorted(Path(package.__path__[0]).glob("*.py"))


def _built_messages(source: str, name: str, classes: set[str]) -> Iterator[str]:
    """``name:line Class`` for each error constructed with a message that is not one literal string."""
    for node in ast.walk(ast.parse(source, name)):
        if not isinstance(node, ast.Call):
            continue
        called = node.func.id if isinstance(node.func, ast.Name) else \
            node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if called not in classes or called in ALLOWED_CLASSES or not node.args:
            continue
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            yield f"{name}:{node.lineno} {called}"


def test_every_refusal_is_a_literal_template() -> None:
    classes = _error_classes()
    names = {path: path.relative_to(ROOT).as_posix() for path in _sources()}
    found = [where for path, name in names.items() if name not in ALLOWED_FILES
             for where in _built_messages(path.read_text(encoding="utf-8"), name, classes)]
    assert found == []


def test_the_scan_sees_a_message_built_at_run_time() -> None:
    """The scan itself: an f-string, a joined message and a variable are caught; a template is not."""
    source = ('raise WrongPhase(f"{seat} may not")\nraise BadInput("a" + b)\nraise IllegalMove(text)\n'
              'raise NotYourTurn("{seat} may not", seat=seat)\nraise EditionError(path, 1, f"{x}")\n'
              'return errors.CannotShow("%s" % card)\n')
    found = [where.split()[1] for where in _built_messages(source, "sample.py", _error_classes())]
    assert found == ["WrongPhase", "BadInput", "IllegalMove", "CannotShow"]


# -- a few real refusals, said in each language ---------------------------------------------------


def _refusal(state: GameState, action: Action) -> ClueError:
    with pytest.raises(ClueError) as refusal:
        apply(state, action)
    return refusal.value


def _out_of_turn() -> ClueError:
    return _refusal(game(), Roll(MUSTARD, (3,)))


def _unreachable() -> ClueError:
    state, _ = play(game(), Roll(SCARLET, (2,)))
    return _refusal(state, Move(SCARLET, "Lounge"))


def _owed_suggestion() -> ClueError:
    state, _ = play(table(BBT, PENNY, {PENNY: "Kitchen"}), Move(PENNY, "Roof"))
    return _refusal(state, EndTurn(PENNY))


def _owed_before_accusing() -> ClueError:
    # An edition that owes the question but lets one accuse anywhere (in Big Bang Theory the place is refused first).
    state, _ = play(table(BBT, PENNY, {PENNY: "Kitchen"}), Move(PENNY, "Roof"))
    state = state.evolve(edition=replace(state.edition, accuse="anywhere"))
    return _refusal(state, Accuse(PENNY, HOWARD, "Wiped Hard Drive", "Kitchen"))


CASES = {
    "out of turn": (_out_of_turn, "not_your_turn", {
        "en": "it is Miss Scarlet's turn, not Colonel Mustard's",
        "de": "Miss Scarlet ist am Zug, nicht Colonel Mustard",
        "fr": "c'est à Miss Scarlet de jouer, pas à Colonel Mustard",
        "es": "es el turno de Miss Scarlet, no de Colonel Mustard",
    }),
    "unreachable": (_unreachable, "illegal_move", {
        "en": "Miss Scarlet cannot reach Lounge from h25 with 2 to move",
        "de": "Miss Scarlet kann Lounge von h25 aus mit 2 Schritten nicht erreichen",
        "fr": "Miss Scarlet ne peut pas atteindre Lounge depuis h25 avec 2 à parcourir",
        "es": "Miss Scarlet no puede llegar a Lounge desde h25 con 2 para moverse",
    }),
    "owed suggestion": (_owed_suggestion, "must_suggest", {
        "en": "Penny must make a suggestion in the room just entered (Roof) before ending the turn",
        "de": "Penny muss im gerade betretenen Raum (Roof) einen Verdacht äußern, bevor der Zug endet",
        "fr": "Penny doit formuler une hypothèse dans la pièce tout juste atteinte (Roof) avant de finir son tour",
        "es": "Penny debe hacer una sospecha en la habitación en la que acaba de entrar (Roof) antes de terminar el"
              " turno",
    }),
    "owed before accusing": (_owed_before_accusing, "must_suggest", {
        "en": "Penny must make a suggestion in the room just entered (Roof) before accusing",
        "de": "Penny muss im gerade betretenen Raum (Roof) einen Verdacht äußern, bevor angeklagt wird",
        "fr": "Penny doit formuler une hypothèse dans la pièce tout juste atteinte (Roof) avant d'accuser",
        "es": "Penny debe hacer una sospecha en la habitación en la que acaba de entrar (Roof) antes de acusar",
    }),
}


@pytest.mark.parametrize("case", CASES)
def test_a_refusal_is_said_in_every_language(case: str) -> None:
    make, code, said = CASES[case]
    err = make()
    assert (err.code, str(err)) == (code, said["en"])
    for language in ("de", "fr", "es"):
        assert err.told(translations(language).gettext) == said[language], language


def test_the_cards_in_a_refusal_are_spelled_by_the_reader() -> None:
    """Arguments stay identities, so the page can spell each card its own way."""
    spelling = {SCARLET: "Fräulein Gloria", MUSTARD: "Oberst von Gatow"}
    told = _out_of_turn().told(translations("de").gettext, lambda value: spelling.get(str(value), value))
    assert told == "Fräulein Gloria ist am Zug, nicht Oberst von Gatow"


def test_each_card_of_a_suggestion_is_spelled_on_its_own() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), Suggest(SCARLET, MUSTARD, "Knife"))
    err = _refusal(state, Show(MUSTARD, "Rope"))
    assert err.code == "cannot_show"
    assert str(err) == "Rope was not named; the suggestion was Colonel Mustard, Knife, Lounge"
    spelling = {MUSTARD: "Oberst von Gatow", "Knife": "Dolch", "Lounge": "Salon", "Rope": "Seil"}
    told = err.told(translations("de").gettext, lambda value: spelling.get(str(value), value))
    assert told == "Seil wurde nicht genannt; der Verdacht lautete Oberst von Gatow, Dolch, Salon"
