"""The project's exceptions: one root, narrow subclasses, each with a stable code.

Every rejection the engine or a loader can make is a :class:`ClueError`. Its
``code`` is part of the public game-record interface (``replay`` prints it), so
codes never change once published; messages are for people and may.

A message may be a template with ``{placeholders}`` filled from keyword
arguments: ``str(err)`` is the English sentence, and :meth:`ClueError.told`
says it in another language (the catalogues list each class name as a
gettext keyword, so the template itself is the message id).

>>> try:
...     raise IllegalMove("h23 is not reachable with a 3")
... except ClueError as err:
...     print(err.code, "-", err)
illegal_move - h23 is not reachable with a 3
"""

from __future__ import annotations

from collections.abc import Callable


class ClueError(Exception):
    """Root of every error this project raises on purpose."""

    code = "error"

    def __init__(self, message: str = "", /, **args: object) -> None:
        super().__init__(message.format(**args) if args else message)
        self.template = message
        self.params: dict[str, object] = args

    def told(self, translate: Callable[[str], str], spell: Callable[[object], object] = lambda value: value) -> str:
        """The message in another language: ``translate`` the template, fill it with ``spell``-ed arguments.

        >>> err = IllegalMove("{square} is not reachable with a {roll}", square="h23", roll=3)
        >>> err.told(lambda text: {"{square} is not reachable with a {roll}": "{square}: keine {roll}"}[text])
        'h23: keine 3'
        """
        if not self.template:
            return str(self)
        text = translate(self.template)
        try:
            return text.format(**{key: spell(value) for key, value in self.params.items()}) if self.params else text
        except (KeyError, IndexError, ValueError):  # a broken translation: the English sentence, never an error
            return str(self)

    def as_dict(self) -> dict[str, str]:
        """The error as the record's ``{"code", "message"}`` object."""
        return {"code": self.code, "message": str(self)}


class BadInput(ClueError, ValueError):
    """Malformed input: bad JSON, a missing or unknown field, a wrong type."""

    code = "bad_input"


class UnknownCard(ClueError, ValueError):
    """A card, suspect, weapon or room name the edition does not have."""

    code = "unknown_card"


class UnknownSeat(ClueError, ValueError):
    """A seat name that is not one of the suspects being played."""

    code = "unknown_seat"


class BadDeal(ClueError, ValueError):
    """A given deal that is not a legal deal for the edition and seats."""

    code = "bad_deal"


class EditionError(ClueError, ValueError):
    """A malformed edition or board map file; the message names file and line.

    ``key`` names the legend entry of the edition file behind a map problem
    that sits on no one line of the map, so the edition loader can point there.
    """

    code = "bad_edition"

    def __init__(self, path: str, line: int | None, problem: str, key: str | None = None) -> None:
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {problem}")
        self.template = ""  # a maker's diagnostic, in English
        self.path = path
        self.line = line
        self.problem = problem
        self.key = key
        self.column: int | None = None  # set for a map problem at one character


class RuleError(ClueError, ValueError):
    """An action the rules do not allow right now."""

    code = "rule"


class NotYourTurn(RuleError):
    code = "not_your_turn"


class WrongPhase(RuleError):
    code = "wrong_phase"


class IllegalMove(RuleError):
    code = "illegal_move"


class NotInRoom(RuleError):
    code = "not_in_room"


class MustShow(RuleError):
    code = "must_show"


class CannotShow(RuleError):
    code = "cannot_show"


class MustSuggest(RuleError):
    """Big Bang Theory, Doctor Who: "If you entered a room, you must stop and ask a CLUE question"."""

    code = "must_suggest"


class AccusationLocation(RuleError):
    code = "accusation_location"


class Eliminated(RuleError):
    code = "eliminated"


class GameOver(RuleError):
    code = "game_over"
