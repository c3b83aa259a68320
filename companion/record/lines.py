"""The game record: JSON Lines, a setup line then one action per line.

Parsing is strict, because the record is a public interface shared by the
store, bots and exports: unknown fields, missing fields and wrong types are
:class:`~companion.rules.errors.BadInput` with a sentence saying which.

>>> parse_action('{"type": "move", "seat": "Miss Scarlet", "to": "Lounge"}')
Move(seat='Miss Scarlet', to='Lounge')
>>> parse_action('{"type": "move", "seat": "Miss Scarlet"}')
Traceback (most recent call last):
...
companion.rules.errors.BadInput: move needs 'to'
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import MISSING, fields
from typing import IO, Any

from companion.rules.actions import ACTIONS, Action, DealSpec, Setup
from companion.rules.errors import BadInput

MAX_LINE = 64 * 1024  # bytes; a real action is under 200
MAX_NAME = 200
SETUP_FIELDS = {"type", "edition", "seats", "seed", "deal", "first", "variant", "bonus_cards"}
DEAL_FIELDS = {"envelope", "hands", "face_up", "aside"}
OPTIONAL = {"dice", "room", "target"}  # may be null, meaning absent


def read_lines(stream: IO[bytes]) -> Iterator[tuple[int, str | BadInput]]:
    """Number each line of a byte stream; overlong or undecodable lines become errors.

    Reads at most :data:`MAX_LINE` bytes of a line into memory, so a huge line
    costs nothing but the time to skip it. Blank lines are skipped.
    """
    number = 0
    while True:
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):
                raw = stream.readline(MAX_LINE)
            yield number, BadInput("line is longer than {limit} bytes", limit=MAX_LINE)
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            yield number, BadInput("line is not UTF-8 text ({why} at byte {byte})", why=err.reason, byte=err.start)
            continue
        if text.strip():
            yield number, text


def parse_object(text: str) -> dict[str, Any]:
    """One line's JSON object."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise BadInput("JSON nested too deeply") from None
    except ValueError as err:
        raise BadInput("not valid JSON: {why}", why=str(err)) from None
    if not isinstance(value, dict):
        raise BadInput("each line must be a JSON object, not {kind}", kind=type(value).__name__)
    return value


def parse_action(text: str) -> Action:
    """An action line; the setup line is parsed by :func:`parse_setup`."""
    data = parse_object(text)
    kind = data.get("type")
    by_type = {action.type: action for action in ACTIONS}
    if kind == "setup":
        raise BadInput("a setup line may only be the first line")
    if not isinstance(kind, str) or kind not in by_type:
        raise BadInput("unknown action type {kind!r}; valid: {valid}", kind=kind, valid=", ".join(by_type))
    cls = by_type[kind]
    names = [item.name for item in fields(cls)]
    _check_keys(kind, data, {"type", *names}, [item.name for item in fields(cls) if item.default is MISSING])
    values: dict[str, Any] = {name: _field(kind, name, data[name]) for name in names if name in data}
    return cls(**values)


def parse_setup(text: str) -> Setup:
    """The setup line: edition, seats clockwise, seed, optional deal and first player."""
    data = parse_object(text)
    if data.get("type") != "setup":
        raise BadInput("the first line must be a setup line, not type {kind!r}", kind=data.get("type"))
    _check_keys("setup", data, SETUP_FIELDS, ["edition", "seats"])
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BadInput("setup seed must be an integer, not {seed!r}", seed=seed)
    first, variant = data.get("first"), data.get("variant")
    bonus_cards = data.get("bonus_cards", True)
    if not isinstance(bonus_cards, bool):
        raise BadInput("setup bonus_cards must be true or false, not {value!r}", value=bonus_cards)
    return Setup(
        edition=_name("setup", "edition", data["edition"]),
        seats=_names("setup", "seats", data["seats"]),
        seed=seed,
        deal=_deal(data["deal"]) if data.get("deal") is not None else None,
        first=_name("setup", "first", first) if first is not None else None,
        variant=_name("setup", "variant", variant) if variant is not None else None,
        bonus_cards=bonus_cards,
    )


def _deal(value: object) -> DealSpec:
    if not isinstance(value, dict):
        raise BadInput("setup deal must be an object with envelope, hands and face_up")
    _check_keys("deal", value, DEAL_FIELDS, ["envelope", "hands"])
    hands = value["hands"]
    if not isinstance(hands, dict):
        raise BadInput("deal hands must map each seat to a list of cards")
    return DealSpec(
        envelope=_names("deal", "envelope", value["envelope"]),
        hands={_name("deal", "hands", seat): _names("deal", f"hand of {seat}", cards) for seat, cards in hands.items()},
        face_up=_names("deal", "face_up", value.get("face_up", []), allow_empty=True),
        aside=_names("deal", "aside", value.get("aside", []), allow_empty=True),
    )


def _check_keys(kind: str, data: Mapping[str, object], allowed: set[str], required: list[str]) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise BadInput("{kind} has unknown field(s) {fields}", kind=kind, fields=", ".join(map(repr, unknown)))
    missing = [name for name in required if name not in data]
    if missing:
        raise BadInput("{kind} needs {fields}", kind=kind, fields=", ".join(map(repr, missing)))


def _field(kind: str, name: str, value: object) -> object:
    if value is None and name in OPTIONAL:
        return None
    if name == "dice":
        if not isinstance(value, list) or not all(type(face) is int or face == "?" for face in value):
            raise BadInput('{kind} dice must be a list of whole numbers (or "?"), not {value}', kind=kind, value=_short(value))
        return tuple(value)
    return _name(kind, name, value)


def _name(kind: str, name: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadInput("{kind} {name} must be a non-empty string, not {value}", kind=kind, name=name, value=_short(value))
    if len(value) > MAX_NAME:
        raise BadInput("{kind} {name} is longer than {limit} characters", kind=kind, name=name, limit=MAX_NAME)
    return value


def _names(kind: str, name: str, value: object, allow_empty: bool = False) -> tuple[str, ...]:
    if not isinstance(value, list) or (not value and not allow_empty):
        raise BadInput("{kind} {name} must be a list of names, not {value}", kind=kind, name=name, value=_short(value))
    return tuple(_name(kind, name, item) for item in value)


def _short(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _no_constant(name: str) -> object:
    raise BadInput("{name} is not allowed in a game record", name=name)
