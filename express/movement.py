"""Where a locomotive can go: the paths of a planning card from the seat's space.

- :func:`movements` lists, for the seat's next card, every end space with its canonical
  written path (the first in plain string order) and whether the Driver's extra space is
  used (rules 28–33): the legal lists, the checks of a lost turn and the bots read it.
- :func:`walk_path` follows one written path and says where it ends, or why it is illegal.

The tables behind :func:`movements` depend on the board, the start, the longest length and
the Mechanic alone, so they are remembered (:class:`express.memo.Memo`).
"""

from __future__ import annotations

from express.memo import Memo
from express.position import Position, tunnel_twins
from express.rules import CARD_STEPS, SPACES

#: At most this many tables are kept; the memo then starts over (boards change each round).
PATH_CACHE = 20_000
_PATHS: Memo[tuple[tuple[str, ...], int, int, bool], list[dict[int, str]]] = Memo(PATH_CACHE)


def _paths(board: tuple[str, ...], start: int, longest: int,
           mech: bool) -> list[dict[int, str]]:
    """For each length 0..longest: end space -> the first legal path in plain string order.

    The search follows each straight run in a loop and branches only at tunnel pieces
    (rules 28–33); for each (length, end) it keeps the smallest path string.
    """
    key = (board, start, longest, mech)
    found = _PATHS.get(key)
    if found is not None:
        return found
    found = [{} for _ in range(longest + 1)]
    twins = tunnel_twins(board)
    refit = board.index("R")

    def branch(pos: int, visited: int, path: str) -> None:
        """From ``pos`` (the start, or just out of a tunnel): either way, or the tunnel."""
        depth = len(path)
        if depth == longest:
            return
        t = twins.get(pos)
        if t is not None and not visited >> t & 1:
            tpath = path + "t"
            ends = found[depth + 1]
            old = ends.get(t)
            if old is None or tpath < old:
                ends[t] = tpath
            branch(t, visited | 1 << t, tpath)
        for d, ch in ((-1, "<"), (1, ">")):
            cur, seen, run, k = pos, visited, path, depth
            while k < longest:
                cur = (cur + d) % SPACES
                if seen >> cur & 1:
                    break
                seen |= 1 << cur
                run += ch
                k += 1
                if cur == refit:
                    if not mech:
                        break
                    continue
                ends = found[k]
                old = ends.get(cur)
                if old is None or run < old:
                    ends[cur] = run
                t = twins.get(cur)
                if t is not None and k < longest and not seen >> t & 1:
                    tpath = run + "t"
                    ends = found[k + 1]
                    old = ends.get(t)
                    if old is None or tpath < old:
                        ends[t] = tpath
                    branch(t, seen | 1 << t, tpath)

    if start != refit:
        branch(start, 1 << start, "")
    return _PATHS.keep(key, found)


def movements(p: Position, seat: int, card: str) -> list[tuple[int, str, bool]]:
    """Every (end space, canonical path with ``*``, Driver used) for the seat's card."""
    i = seat - 1
    lengths = CARD_STEPS[card]
    driver_ready = p.chars[i] == "Dr" and not p.driver_used
    table = _paths(p.board, p.loc[i], lengths[-1] + driver_ready, p.chars[i] == "Me")
    if len(lengths) == 1:
        k = lengths[0]
        out = [(end, path, False) for end, path in table[k].items()]
        if driver_ready:
            out += [(end, path + "*", True) for end, path in table[k + 1].items()]
        return out
    out = []
    for driver in (False, True) if driver_ready else (False,):
        best: dict[int, str] = {}
        for length in lengths:
            for end, path in table[length + driver].items():
                old = best.get(end)
                if old is None or path < old:
                    best[end] = path
        star = "*" if driver else ""
        out += [(end, path + star, driver) for end, path in best.items()]
    return out


def walk_path(p: Position, seat: int, path: str) -> tuple[int, list[int]] | str:
    """Follow a written path (rules 28–33): (end, spaces entered), or why it is illegal."""
    i = seat - 1
    board = p.board
    mech = p.chars[i] == "Me"
    pos = p.loc[i]
    visited = {pos}
    entered: list[int] = []
    direction = 0
    for idx, ch in enumerate(path):
        if ch == "t":
            if board[pos][0] != "T":
                return f"step {idx + 1} is a tunnel step from space {pos}, which is no tunnel"
            nxt = p.twin(pos)
            direction = 0
        else:
            d = 1 if ch == ">" else -1
            if direction and d != direction:
                return f"step {idx + 1} turns round without a tunnel step"
            direction = d
            nxt = (pos + d) % SPACES
        if nxt in visited:
            return f"step {idx + 1} enters space {nxt} a second time"
        if board[nxt] == "R":
            if not mech:
                return f"step {idx + 1} enters the refit piece (space {nxt})"
            if idx == len(path) - 1:
                return "the Mechanic may pass the refit piece but not end on it"
        visited.add(nxt)
        entered.append(nxt)
        pos = nxt
    return pos, entered
