"""A state's diff applied, as docs/live-protocol.md ("Frames that carry what changed")
describes the format: the client's own copy of the rules, written from the page and not
from the server's code (a client lives outside the site).

A diff is a list of operations: ``[path, value]`` sets the value at ``path`` (at the index
just past a list's end it appends), ``[path]`` removes the object key at ``path``; a path
is a list of object keys (strings) and list indexes (integers), ``[]`` the whole state.
The state a diff starts from is never changed: every object or list on an operation's path
is copied first.
"""

from __future__ import annotations

from typing import Any


class DiffError(ValueError):
    """An operation that does not fit the state (the client then asks for a whole state)."""


def apply(state: Any, ops: Any) -> Any:
    """`state` with the operations of `ops` applied; `state` itself is left as it was."""
    if not isinstance(ops, list):
        raise DiffError(f"a diff is a list of operations, not {type(ops).__name__}")
    for op in ops:
        state = _apply_one(state, op)
    return state


def _apply_one(state: Any, op: Any) -> Any:
    if not isinstance(op, list) or len(op) not in (1, 2) or not isinstance(op[0], list):
        raise DiffError(f"not an operation: {op!r}")
    path = op[0]
    if not path:
        if len(op) == 1:
            raise DiffError("the whole state cannot be removed")
        return op[1]
    out = _copy(state)
    parent = out
    for key in path[:-1]:
        child = _copy(_child(parent, key))
        parent[key] = child
        parent = child
    if len(op) == 2:
        _set(parent, path[-1], op[1])
    else:
        _remove(parent, path[-1])
    return out


def _is_index(key: Any) -> bool:
    return isinstance(key, int) and not isinstance(key, bool)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    raise DiffError(f"a path goes through {value!r}, which is neither an object nor a list")


def _child(parent: Any, key: Any) -> Any:
    if isinstance(parent, list) and _is_index(key) and 0 <= key < len(parent):
        return parent[key]
    if isinstance(parent, dict) and isinstance(key, str) and key in parent:
        return parent[key]
    raise DiffError(f"no {key!r} on the path")


def _set(parent: Any, key: Any, value: Any) -> None:
    if isinstance(parent, list):
        if not _is_index(key) or not 0 <= key <= len(parent):
            raise DiffError(f"no item {key!r} to set in a list of {len(parent)}")
        if key == len(parent):
            parent.append(value)
        else:
            parent[key] = value
    elif isinstance(key, str):
        parent[key] = value
    else:
        raise DiffError(f"an object's key is a string, not {key!r}")


def _remove(parent: Any, key: Any) -> None:
    if not isinstance(parent, dict) or not isinstance(key, str) or key not in parent:
        raise DiffError(f"no key {key!r} to remove")
    del parent[key]
