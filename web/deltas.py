"""A stream's next view as what changed since the last one it sent, not the whole view again.

A view carries the game's whole record (and its sentences): sent whole on
every change, a 10-player game's streams carried megabytes a minute. After the
first message (the whole view, ``event: view``), a stream sends ``event:
delta`` with a list of operations that turn the view it sent last into the new
one; a page that (re)connects gets the whole view again. Operations, each a
JSON array with a path of keys into the view:

- ``["s", path, value]``: set the value at ``path``;
- ``["d", path]``: delete the key at ``path``;
- ``["a", path, items]``: append ``items`` to the list at ``path`` (the record and the log only grow).

Objects are compared key by key (a few levels down, so one changed chance in
the notebook does not resend the notebook); any other changed value is set
whole. ``web/static/common.js`` applies them in the page, :func:`apply` here.

>>> old = {"turn": "Miss Scarlet", "record": [{"type": "rolled"}], "board": {"link": "up", "waiting": False}}
>>> new = {"turn": "Mr. Green", "record": [{"type": "rolled"}, {"type": "moved"}], "board": {"link": "up"}}
>>> ops = changes(old, new)
>>> ops
[['s', ['turn'], 'Mr. Green'], ['a', ['record'], [{'type': 'moved'}]], ['d', ['board', 'waiting']]]
>>> apply(old, ops) == new
True
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

DEPTH = 4  # objects nested deeper than this are set whole when they change
Op = list[Any]


def changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Op]:
    """The operations that turn ``old`` into ``new`` (empty if they are equal)."""
    ops: list[Op] = []
    _diff(old, new, [], ops)
    return ops


def _diff(old: Mapping[str, Any], new: Mapping[str, Any], path: list[str], ops: list[Op]) -> None:
    for key, value in new.items():
        here = [*path, key]
        if key not in old:
            ops.append(["s", here, value])
            continue
        before = old[key]
        if before is value or before == value:
            continue
        if isinstance(before, dict) and isinstance(value, dict) and len(here) < DEPTH:
            _diff(before, value, here, ops)
        elif isinstance(before, list) and isinstance(value, list) and _grown(before, value):
            ops.append(["a", here, value[len(before):]])
        else:
            ops.append(["s", here, value])
    ops.extend(["d", [*path, key]] for key in old if key not in new)


def _grown(before: list[Any], after: list[Any]) -> bool:
    """True if ``after`` is ``before`` with items appended (identical items compare at pointer speed)."""
    return 0 < len(before) < len(after) and after[:len(before)] == before


def apply(view: Mapping[str, Any], ops: list[Op]) -> dict[str, Any]:
    """``view`` with ``ops`` applied; ``view`` itself is left as it was."""
    result = dict(view)
    for op in ops:
        kind, path = op[0], op[1]
        parent = result
        for key in path[:-1]:
            parent[key] = dict(parent[key])  # copied on the way down: the caller's objects stay untouched
            parent = parent[key]
        last = path[-1]
        if kind == "s":
            parent[last] = op[2]
        elif kind == "d":
            parent.pop(last, None)
        elif kind == "a":
            parent[last] = [*parent[last], *op[2]]
        else:
            raise ValueError(f"unknown delta operation {kind!r}")
    return result


class Messages:
    """SSE messages for the views a stream sends: the whole view first, then deltas; each made once.

    Streams that send the same view after the same one (every table screen)
    share one encoding. ``prepare`` turns a published view into what is sent
    (the view plus its sentences).
    """

    def __init__(self, prepare: Callable[[dict[str, Any]], dict[str, Any]], size: int = 64) -> None:
        self._prepare = prepare
        self._size = size
        self._views: OrderedDict[int, tuple[object, dict[str, Any]]] = OrderedDict()
        self._texts: OrderedDict[tuple[int, int], tuple[object, object, str]] = OrderedDict()
        self._lock = threading.Lock()

    def message(self, last: dict[str, Any] | None, view: dict[str, Any]) -> str:
        """The SSE message for ``view`` on a stream that sent ``last`` (None: nothing yet)."""
        key = (id(last), id(view))
        with self._lock:
            hit = self._texts.get(key)
            if hit is not None and hit[0] is last and hit[1] is view:
                return hit[2]
        text = self._make(last, view)
        with self._lock:
            self._texts[key] = (last, view, text)  # holding both keeps their ids from being reused
            while len(self._texts) > self._size:
                self._texts.popitem(last=False)
        return text

    def whole(self, view: dict[str, Any]) -> dict[str, Any]:
        """The view as sent (prepared once per view object)."""
        with self._lock:
            hit = self._views.get(id(view))
            if hit is not None and hit[0] is view:
                return hit[1]
        prepared = self._prepare(view)
        with self._lock:
            self._views[id(view)] = (view, prepared)
            while len(self._views) > self._size:
                self._views.popitem(last=False)
        return prepared

    def _make(self, last: dict[str, Any] | None, view: dict[str, Any]) -> str:
        whole = json.dumps(self.whole(view), separators=(",", ":"))
        if last is None:
            return f"event: view\ndata: {whole}\n\n"
        delta = json.dumps(changes(self.whole(last), self.whole(view)), separators=(",", ":"))
        if len(delta) >= len(whole):  # a new game, say: the whole view is no bigger
            return f"event: view\ndata: {whole}\n\n"
        return f"event: delta\ndata: {delta}\n\n"
