"""The review's words: a marked turn's reason in English, and its Phase 1 action named.

Owns the sentences, not the search or the facts: :func:`explain` picks the reason a turn
lost points from the facts engine.review_facts checks (a card that destroyed one's own
AppCon, an AppCon held on the bay that the opponent could then break, what the opponent can
unload next turn, the unload the better turn makes, CargoBot's expected lines) and says it;
when none applies it says in words what the better turn gains. :func:`phrase` names a
Phase 1 action, :func:`points_for` an unload's points, ``ARTICLE`` a shape's article. Pure
engine work (standard library only).

Used by the game review (engine.review) and the puzzle review (engine.puzzle_review); it
imports neither.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.geometry import SHAPE_ORDER
from engine.notation import action_token, turn_token
from engine.position import (
    DAMAGE,
    LOCK,
    NO_CELL,
    PASS,
    PURGE,
    REROUTE,
    ROTATE_LEFT,
    ROTATE_RIGHT,
    SHAPE_VALUES,
    SIDE_NAMES,
    Position,
)
from engine.review_facts import (
    LINE_PLIES,
    Unload,
    after_turn,
    best_unload_now,
    broken_own,
    expected_line,
    find_breaker,
    still_there,
    unload_made,
)

#: The article before a shape's letter: "an I", "a T".
ARTICLE = {"O": "an", "T": "a", "J": "a", "L": "an", "S": "an", "Z": "a", "I": "an"}


def _corridor(p: Position, k: int) -> str:
    name = p.g.corridor_names[k]
    return f"column {name}" if k < p.n else f"row {name}"


def phrase(action: int, p: Position, *, doing: bool = False) -> str:
    """A Phase 1 action in words: "This drop in c" / "Dropping in c" (``doing``),
    "Corridor Purge on row 1", "Re-Routing c4" ..."""
    g = p.g
    if action < ROTATE_LEFT:
        column = g.corridor_names[action]
        return f"Dropping in {column}" if doing else f"This drop in {column}"
    if action == PASS:
        return "Passing" if doing else "This pass"
    if action in (ROTATE_LEFT, ROTATE_RIGHT):
        return f"Station Rotation 90° to the {'left' if action == ROTATE_LEFT else 'right'}"
    if action < PURGE:
        return f"Corridor Lockdown on {_corridor(p, action - LOCK)}"
    if action < REROUTE:
        return f"Corridor Purge on {_corridor(p, action - PURGE)}"
    if action < DAMAGE:
        return f"Re-Routing {g.name(action - REROUTE)}"
    a, b = (action >> 8) & 0xFF, action & 0xFF
    cells = g.name(a) + ("" if b == NO_CELL else " " + g.name(b))
    return f"Cargo Damage on {cells}"


def _card_name(action: int) -> str:
    if action in (ROTATE_LEFT, ROTATE_RIGHT):
        return "Station Rotation"
    if LOCK <= action < PURGE:
        return "Corridor Lockdown"
    if PURGE <= action < REROUTE:
        return "Corridor Purge"
    if REROUTE <= action < DAMAGE:
        return "Re-Routing"
    return "Cargo Damage"


def points_for(u: Unload, *, chit_apart: bool) -> str:
    """"for 7", or "for 4 and the Gold chit" (the chit's 2 points named apart)."""
    if chit_apart and u.chit == "gold":
        return f"for {u.gained - 2} and the Gold chit"
    if chit_apart and u.chit == "steel":
        return f"for {u.gained} and the Steel chit"
    return f"for {u.gained}"


def _points_words(centipoints: int) -> str:
    """A number of points in words: "2.4 points", "1 point", "half a point"."""
    points = round(abs(centipoints) / 100, 1)
    if points == 0.5:
        return "half a point"
    text = f"{points:.1f}".removesuffix(".0")
    return f"{text} point" if text == "1" else f"{text} points"


def _margin_words(centipoints: int) -> str:
    """A final margin from the mover's side in words: "finish 2.5 points ahead", "finish
    level" (within a tenth of a point), "finish 0.1 points behind"."""
    if abs(centipoints) < 10:
        return "finish level"
    return f"finish {_points_words(centipoints)} {'ahead' if centipoints > 0 else 'behind'}"


@dataclass(frozen=True)
class _Reason:
    weight: int  # points the fact explains
    text: str
    cells: list[str]


def explain(p: Position, action: int, unload: int, best_action: int, best_unload: int,
            *, played_value: int, best_value: int, depth: int,
            next_action: int | None = None) -> tuple[str, list[str]]:
    """The reason a turn lost points, from facts the engine checks, and the cells it names.

    ``next_action`` is the opponent's Phase 1 action actually played next, if any.
    """
    me = p.side
    op = me ^ 1
    opp = SIDE_NAMES[op].title()
    played = after_turn(p, action, unload)
    better = after_turn(p, best_action, best_unload)
    reasons: list[_Reason] = []

    # A card play that destroyed an AppCon of one's own.
    broken = broken_own(p, action)
    if broken is not None and broken_own(p, best_action) is None:
        shape = SHAPE_ORDER[broken.shape]
        how = "broke up" if action in (ROTATE_LEFT, ROTATE_RIGHT) else "destroyed"
        cells = [p.g.name(c) for c in broken.cells]
        reasons.append(_Reason(SHAPE_VALUES[broken.shape] + 2,
                               f"{phrase(action, p)} {how} your own {shape} ({' '.join(cells)}).",
                               cells))

    mine_now = unload_made(p, action, unload)
    mine_best = unload_made(p, best_action, best_unload)

    # An AppCon held on the bay that the opponent could then break.
    if mine_best is not None and (mine_now is None or mine_now.gained < mine_best.gained):
        held = next((a for a in p.appcons(me)
                     if p.g.names(a.mask) == mine_best.cells), None)
        if held is not None and still_there(played, me, held):
            breaker = find_breaker(played, me, held, next_action)
            if breaker is not None:
                cells = mine_best.named()
                card = _card_name(breaker)
                word = "a" if card[0] not in "AEIOU" else "an"
                who = f"{opp}'s {card}" if breaker == next_action else f"{word} {card} of {opp}'s"
                reasons.append(_Reason(
                    mine_best.gained,
                    f"Holding the {mine_best.shape} ({mine_best.spaced()}) for later let "
                    f"{who} break it ({action_token(breaker, played)}).", cells))

    # What the opponent can unload next turn, after the turn played and after the best.
    theirs_now = best_unload_now(played) if not played.is_over() else None
    theirs_best = best_unload_now(better) if not better.is_over() else None
    if theirs_now is not None:
        held_to = theirs_best.gained if theirs_best is not None else 0
        if theirs_now.gained - held_to >= 2:
            after = (f"{phrase(best_action, p, doing=True)} instead leaves {opp} "
                     + ("nothing to unload" if theirs_best is None
                        else f"at most {theirs_best.gained}")
                     + f" ({turn_token(best_action, best_unload, p)})")
            shape = theirs_now.shape
            reasons.append(_Reason(
                theirs_now.gained - held_to,
                f"{phrase(action, p)} let {opp} unload {ARTICLE[shape]} {shape} "
                f"({theirs_now.spaced()}) {points_for(theirs_now, chit_apart=False)} next turn; "
                f"{after}.", theirs_now.named()))

    # The unload the best turn would have made.
    if mine_best is not None:
        took = mine_now.gained if mine_now is not None else 0
        if mine_best.gained - took >= 2:
            created = not any(p.g.names(a.mask) == mine_best.cells for a in p.appcons(me))
            what = f"your {mine_best.shape} ({mine_best.spaced()})"
            if created:
                text = (f"{phrase(best_action, p, doing=True)} would have completed {what} "
                        f"{points_for(mine_best, chit_apart=True)}")
            else:
                text = (f"Unloading {what} this turn would have scored "
                        f"{points_for(mine_best, chit_apart=True).removeprefix('for ')}")
            text += f" ({turn_token(best_action, best_unload, p)})"
            if mine_now is not None:
                text += f"; the turn played took {mine_now.gained} for the {mine_now.shape}"
            reasons.append(_Reason(mine_best.gained - took, text + ".", mine_best.named()))

    if reasons:
        top = max(reasons, key=lambda r: r.weight)  # max keeps the first of equal weights
        return top.text, top.cells
    line_reason = _line_reason(p, played, better, best_action, best_unload)
    if line_reason is not None:
        return line_reason.text, line_reason.cells
    best_token = turn_token(best_action, best_unload, p)
    return (f"{phrase(best_action, p, doing=True)} instead ({best_token}) is worth about "
            f"{_points_words(best_value - played_value)} more to you by the Final Audit: "
            f"looking {depth} turns ahead, CargoBot expects you to "
            f"{_margin_words(best_value)} after it, and to {_margin_words(played_value)} "
            "after the turn played. No single unload in the next turns makes the difference; "
            "it is the position: try both on the analysis board.", [])


def _line_reason(p: Position, played: Position, better: Position, best_action: int,
                 best_unload: int) -> _Reason | None:
    """A reason from the expected lines after the turn played and after the best turn: an
    unload one of them holds that the other does not."""
    me = p.side
    op = me ^ 1
    opp = SIDE_NAMES[op].title()
    best_token = turn_token(best_action, best_unload, p)
    after_played = expected_line(played)
    after_best = [(best_token, me, unload_made(p, best_action, best_unload))]
    after_best += expected_line(better, LINE_PLIES - 1)

    def gains(line: list[tuple[str, int, Unload | None]], side: int) -> int:
        return sum(u.gained for _, s, u in line if s == side and u is not None)

    def tokens(line: list[tuple[str, int, Unload | None]]) -> str:
        return " ".join(t for t, _, _ in line)

    their_extra = gains(after_played, op) - gains(after_best, op)
    my_extra = gains(after_best, me) - gains(after_played, me)
    if their_extra >= 2 and their_extra >= my_extra:
        k, (_, _, u) = next((i, t) for i, t in enumerate(after_played)
                            if t[1] == op and t[2] is not None)
        assert u is not None
        return _Reason(their_extra,
                       f"After the turn played, CargoBot's expected line ({tokens(after_played)}) "
                       f"lets {opp} unload {ARTICLE[u.shape]} {u.shape} ({u.spaced()}) "
                       f"{points_for(u, chit_apart=False)} {_when(k)}; after {best_token} its "
                       f"line ({tokens(after_best)}) gives {opp} {gains(after_best, op)}.",
                       u.named())
    if my_extra >= 2:
        k, (_, _, u) = next((i, t) for i, t in enumerate(after_best)
                            if t[1] == me and t[2] is not None)
        assert u is not None
        return _Reason(my_extra,
                       f"{phrase(best_action, p, doing=True)} ({best_token}) leads, in "
                       f"CargoBot's expected line ({tokens(after_best)}), to your unloading "
                       f"{ARTICLE[u.shape]} {u.shape} ({u.spaced()}) "
                       f"{points_for(u, chit_apart=True)} {_when(k, own=True)}; after the turn "
                       f"played its line ({tokens(after_played)}) gives you "
                       f"{gains(after_played, me)}.", u.named())
    return None


def _when(k: int, own: bool = False) -> str:
    """The turn of the line, counted from the reply (own: counted from the suggestion)."""
    if own:
        return "this turn" if k == 0 else "next turn" if k == 2 else f"in {k // 2 + 1} turns"
    return "next turn" if k == 0 else f"in {k // 2 + 1} of its turns"

