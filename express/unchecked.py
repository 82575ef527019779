"""Applying a turn already known to be legal, without checking it again: for bots.

:func:`play_unchecked` reaches exactly the position :func:`express.moves.play` reaches
for a turn it accepts, skipping the checks; a turn token is read once
(:data:`Steps`) and remembered, since what it says depends on its text alone.
"""

from __future__ import annotations

from express.memo import Memo
from express.position import Position, tunnel_twins
from express.rules import CONTRACTS, SPACES, sort_cars

#: One step after the path, read for :func:`play_unchecked`: (kind, text, text, numbers),
#: ``("f", id, cars, ())``, ``("a" or "d", "", "", spots)``, ``("s", "", "", (choice,))``,
#: ``("o", cars, "", (space,))``, ``("e", step, "", ())``, ``("u" or "x", "", "", ())``.
Step = tuple[str, str, str, tuple[int, ...]]
#: A turn token read for :func:`play_unchecked`: None for a lost turn, else (special
#: attach, path without ``*``, Driver used, the steps after the path in written order).
Steps = tuple[bool, str, bool, tuple[Step, ...]] | None

#: At most this many read tokens are kept; the memo then starts over.
STEPS_CACHE = 20_000
_STEPS: Memo[str, Steps] = Memo(STEPS_CACHE)


def play_unchecked(p: Position, token: str) -> None:
    """Apply a turn token that :func:`express.moves.play` accepts here, unchecked.

    For bots: they weigh each turn of :func:`express.legal_decisions.legal` (or one whose
    legality does not depend on the hidden parts, in another determinization of the same
    view) and replay the one they keep. The position reached is exactly ``play``'s: the
    same steps in the same order (a token ``play`` accepts writes fulfils before its action
    only when that is a sign, which is also the order ``play`` applies them in); only the
    checks are skipped (the property tests compare the two on every legal turn). A token
    ``play`` would refuse leaves an undefined position. Read tokens are kept in a dict:
    what a token says depends on its text alone.
    """
    steps = _STEPS[token] if token in _STEPS else _STEPS.keep(token, _read_steps(token))
    seat = p.turn_seat()
    i = seat - 1
    if p.resigned[i]:
        p.end_turn()
        return
    p.plans[i].pop(0)
    if steps is None:
        p.end_turn()
        return
    special, path, driver, rest = steps
    if special:
        p.attach(seat, (1,), True)
    pos = p.loc[i]
    if path:
        twins = tunnel_twins(p.board)
        for ch in path:
            pos = twins[pos] if ch == "t" else (pos + (1 if ch == ">" else -1)) % SPACES
    p.loc[i] = pos
    if driver:
        p.driver_used = True
    for step in rest:
        _apply(p, seat, step)
    p.end_turn()


def _read_steps(token: str) -> Steps:
    """What a turn token (one :func:`express.decisions.parse_turn` reads) does, for
    :func:`play_unchecked`."""
    _card, _, written = token.partition(":")
    if written == "~":
        return None
    parts = written.split(".")
    special = parts[0] == "^"
    if special:
        parts = parts[1:]
    path = parts[0]
    rest: list[Step] = []
    for step in parts[1:]:
        k, arg = step[0], step[1:]
        if k == "f":
            cid, _, cars = arg.partition("=")
            rest.append(("f", cid, sort_cars(cars) if cars else CONTRACTS[cid][0], ()))
        elif k in "ad":
            rest.append((k, "", "", tuple(int(c) for c in arg)))
        elif k == "s":
            rest.append(("s", "", "", (int(arg),)))
        elif k == "o":
            space, _, cars = arg.partition("=")
            rest.append(("o", cars, "", (int(space),)))
        else:  # u x, or e with its step
            rest.append((k, arg, "", ()))
    return special, path.rstrip("*"), path.endswith("*"), tuple(rest)


def _apply(p: Position, seat: int, step: Step) -> None:
    """One step after the path, as :func:`express.moves.play_turn` applies it once its
    checks pass."""
    k, text, more, numbers = step
    if k == "f":
        p.fulfil(seat, text, more)
    elif k == "a":
        p.attach(seat, numbers, False)
    elif k == "d":
        p.uncouple(seat, numbers)
    elif k == "u":
        p.engine[seat - 1] += 1
    elif k == "x":
        p.exchange(seat)
    elif k == "s":
        p.sign(seat, numbers[0])
    elif k == "o":
        p.reorder(numbers[0], text)
    else:
        i = seat - 1
        loc = p.loc[i]
        p.loc[i] = p.twin(loc) if text == "t" else (loc + (1 if text == ">" else -1)) % SPACES
