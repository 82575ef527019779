"""Frames that carry what changed (issue #45): a state's diff against the one a socket's
client holds, and what each socket's client holds.

A game socket sends its client a whole state once (on connect, after a catch-up, a
`stale_ply` refusal or a change of audience); each later frame of the game that a group
brings (`turn`, `resigned`, `ended`, `voided`, `rematch`) goes out with its `state`
replaced by `base` (the `rev` of the state the client holds) and `diff`: the operations
that turn that state into the frame's. The frame's state is its audience's own, built for
that viewer (games.frames.audiences); the diff is taken between two states of that same
audience as this socket passed them, so it holds nothing the viewer's full state would
not (docs/live-protocol.md, "Frames that carry what changed").

The diff is a list of operations, each `[path, value]` (set the value at `path`) or
`[path]` (remove the key at `path`), `path` a list of keys (strings: an object's key)
and indexes (integers: a list's item); `[[], value]` replaces the whole state. Objects are
compared key by key (a key gone is removed), lists of the same length item by item, a
list that grew at its end by its new items (a set at the index just past a list's end
appends), any other list whose length changed is set whole, and a part whose operations
would be longer than the part itself is set whole. Nulls are values like any other.

Pure but for `Told`'s per-process memo: the same frame diffed from the same base is
computed once per process, however many sockets of one audience pass it.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import orjson

Path = list[str | int]
Op = list[Any]  # [path, value] or [path]

WHOLE_AFTER = 3  # a part with at least this many operations is weighed against itself


def diff(old: Any, new: Any) -> list[Op]:
    """The operations that turn `old` into `new` (both JSON values, as decoded)."""
    ops: list[Op] = []
    _diff(old, new, [], ops)
    return ops


def _differ(a: Any, b: Any) -> bool:
    """Do two values differ? Their types, else Python's `==`, which walks lists and objects
    in C. Inside two otherwise equal lists or objects it takes True for 1 and 0 for False:
    no state of the site puts a flag and a number in the same place."""
    return type(a) is not type(b) or a != b


def _text(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _diff(old: Any, new: Any, path: Path, ops: list[Op]) -> None:
    start = len(ops)
    if type(old) is dict and type(new) is dict:
        for key, value in new.items():
            if key not in old:
                ops.append([[*path, key], value])
            elif _differ(old[key], value):
                _diff(old[key], value, [*path, key], ops)
        for key in old:
            if key not in new:
                ops.append([[*path, key]])
    elif type(old) is list and type(new) is list and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            if _differ(a, b):
                _diff(a, b, [*path, index], ops)
    elif type(old) is list and type(new) is list and len(old) < len(new) \
            and not _differ(old, new[:len(old)]):  # grown at its end: the items appended
        ops.extend([[*path, index], new[index]] for index in range(len(old), len(new)))
    else:
        ops.append([path, new])
        return
    if path and len(ops) - start >= WHOLE_AFTER:
        whole = [path, new]
        if len(_text(whole)) <= len(_text(ops[start:])):
            del ops[start:]
            ops.append(whole)


class DiffError(ValueError):
    """A diff that does not fit the state it was applied to."""


def apply(state: Any, ops: list[Op]) -> Any:
    """`state` with `ops` applied, leaving `state` as it was (each container on an
    operation's path is copied). Raises `DiffError` if an operation does not fit."""
    for op in ops:
        if not isinstance(op, list) or len(op) not in (1, 2) or not isinstance(op[0], list):
            raise DiffError(f"not an operation: {op!r}")
        path = op[0]
        if not path:
            if len(op) == 1:
                raise DiffError("the whole state cannot be removed")
            state = op[1]
            continue
        state = _copy(state)
        parent = state
        for key in path[:-1]:
            child = _copy(_child(parent, key))
            parent[key] = child
            parent = child
        last = path[-1]
        if len(op) == 2:
            if isinstance(parent, list):
                if not isinstance(last, int) or not 0 <= last <= len(parent):
                    raise DiffError(f"no item {last!r} to set in a list of {len(parent)}")
                if last == len(parent):  # just past the end: appended
                    parent.append(op[1])
                    continue
            elif not isinstance(last, str):
                raise DiffError(f"an object's key is a string, not {last!r}")
            parent[last] = op[1]
        else:
            if not isinstance(parent, dict) or last not in parent:
                raise DiffError(f"no key {last!r} to remove")
            del parent[last]
    return state


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    raise DiffError(f"a path goes through {type(value).__name__}")


def _child(parent: Any, key: Any) -> Any:
    if isinstance(parent, dict) and isinstance(key, str) and key in parent:
        return parent[key]
    if isinstance(parent, list) and isinstance(key, int) and 0 <= key < len(parent):
        return parent[key]
    raise DiffError(f"no {key!r} on the path")


# --- what a socket's client holds ----------------------------------------------------------


class _Memo:
    """Recent results by key, per process (the sockets' event loop: one thread)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Any, Any] = OrderedDict()

    def get(self, key: Any) -> Any:
        value = self.items.get(key)
        if value is not None:
            self.items.move_to_end(key)
        return value

    def put(self, key: Any, value: Any) -> None:
        self.items[key] = value
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)

    def clear(self) -> None:
        self.items.clear()


# (the base frame's text, the new frame's text) -> (the text to send, the new state's rev)
sent_texts = _Memo(512)
# a frame's text -> the frame decoded (its state is the base of the next diff of every
# socket it went to)
decoded = _Memo(64)


def _frame_of(text: str) -> dict[str, Any]:
    frame = decoded.get(text)
    if frame is None:
        frame = orjson.loads(text)
        if not isinstance(frame, dict):
            frame = {}
        decoded.put(text, frame)
    return frame


def _state_of(text: str) -> dict[str, Any] | None:
    state = _frame_of(text).get("state")
    return state if isinstance(state, dict) else None


class Told:
    """What one socket's client holds of the game's state: the last whole state it was
    sent, or the last frame's (as its text: sockets of one audience share it). The game
    socket asks it what to send for each group frame (`frame_text`)."""

    def __init__(self) -> None:
        self.text: str | None = None  # the frame whose state the client holds
        self.state: dict[str, Any] | None = None  # or the whole state it was sent
        self.rev: int | None = None  # that state's `rev` (None: none, or unknown)

    def whole(self, state: dict[str, Any] | None) -> None:
        """The client was sent this whole state (None: a frame without one, whose state
        is not known: the next frame goes whole)."""
        self.text, self.state = None, state
        rev = state.get("rev") if state is not None else None
        self.rev = rev if isinstance(rev, int) else None

    def frame_text(self, text: str) -> str:
        """The text to send for a group frame whose JSON is `text`: with a state, that
        state's diff against the one the client holds, if it has one and that is shorter;
        else `text` as it is. Either way the client holds the frame's state after it."""
        if self.text is not None:
            known = sent_texts.get((self.text, text))
            if known is not None:
                self.text, self.state, self.rev = text, None, known[1]
                return str(known[0])
        new = _state_of(text)
        if new is None:  # no state: nothing changes of what the client holds
            return text
        rev = new.get("rev")
        rev = rev if isinstance(rev, int) else None
        base = self.state if self.text is None else _state_of(self.text)
        out = text
        if base is not None and self.rev is not None and rev is not None:
            frame = {k: v for k, v in _frame_of(text).items() if k != "state"}
            frame.update(base=self.rev, diff=diff(base, new))
            made = orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
            if len(made) < len(text):
                out = made
        if self.text is not None:
            sent_texts.put((self.text, text), (out, rev))
        self.text, self.state, self.rev = text, None, rev
        return out
