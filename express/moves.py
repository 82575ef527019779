"""Checking a decision against a position and applying it: what a decision means.

- :func:`play` checks one decision (a pick, a plan, a turn, a refit swap or a resignation)
  against the position and applies it, appending events when given a list; the
  ``play_*`` functions do it for one kind, :func:`play_partial` for a turn sent a step at a
  time. On an error the position may be half changed: callers that must keep it (``Game``)
  play on a copy. Decisions taken from :func:`express.legal_decisions.legal` never fail, so
  fast callers (bench, bots) play on the position itself with ``events=None``.

The list of legal decisions is :mod:`express.legal_decisions`; a turn already known to be
legal is applied without the checks by :mod:`express.unchecked`.
"""

from __future__ import annotations

import express.events as ev
from express.decisions import (
    Action,
    Fulfil,
    Pick,
    Plan,
    Resign,
    Swap,
    Turn,
    parse_pick,
    parse_plan,
    parse_resign,
    parse_swap,
    parse_turn,
)
from express.errors import ExpressError
from express.legal_decisions import placements, take
from express.movement import movements, walk_path
from express.position import Events, Position
from express.rules import CARD_STEPS, CONTRACTS, ENGINES, SPACES, engineer_any_colour


def _illegal(token: str, why: str) -> ExpressError:
    return ExpressError(f"illegal decision {token!r}: {why}")


def play_pick(p: Position, pick: Pick, token: str, events: Events = None) -> None:
    if p.phase != "c":
        raise _illegal(token, "a pick is made only in character selection")
    if pick.character in p.held_characters():
        raise _illegal(token, f"{pick.character} has already been taken this round")
    p.pick(pick.character, events)


def play_plan(p: Position, seat: int, plan: Plan, token: str, events: Events = None) -> None:
    if p.phase != "p":
        raise _illegal(token, "a plan is committed only in planning")
    if not 1 <= seat <= p.n or p.resigned[seat - 1]:
        raise _illegal(token, f"seat {seat} is dormant or not a seat, and commits no plan")
    if p.plans[seat - 1]:
        raise _illegal(token, f"seat {seat} has already committed its plan")
    if len(plan.cards) != 3:
        raise _illegal(token, "a plan is three different cards")
    p.commit(seat, plan.cards, events)


def play_swap(p: Position, swap: Swap, token: str, events: Events = None) -> None:
    if p.phase != "r":
        raise _illegal(token, "the refit swap is made only at the end of a round")
    if swap.space not in p.swap_spaces():
        piece = p.board[swap.space]
        raise _illegal(token, f"space {swap.space} ({piece}) cannot take the refit piece: it "
                              f"must hold no locomotive and no cars, and not be R")
    p.swap(swap.space, events)


def play_resign(p: Position, resign: Resign, token: str, events: Events = None) -> None:
    if p.phase == "o":
        raise _illegal(token, "the game is over")
    if not 1 <= resign.seat <= p.n:
        raise _illegal(token, f"there is no seat {resign.seat}")
    if p.resigned[resign.seat - 1]:
        raise _illegal(token, f"seat {resign.seat} has already resigned")
    p.resign(resign.seat, events)


def play_turn(p: Position, t: Turn, token: str, events: Events = None, *,
              end: bool = True) -> None:
    """Check and apply one turn of the seat to move (rule 24), step by step.

    ``end=False`` stops before the turn ends (:func:`play_partial`: a turn sent a step at a
    time, whose steps so far ``t`` writes; the same checks and the same events)."""
    if p.phase != "a":
        raise _illegal(token, "a turn is played only in the action phase")
    seat = p.turn_seat()
    if _reveal(p, t.card, t.lost, token, events):
        _end(p, token, events)
        return
    if t.special:
        _special(p, seat, token, events)
    card = p.plans[seat - 1].pop(0)
    steps = len(t.path) - t.driver
    if steps not in CARD_STEPS[card]:
        want = " or ".join(str(k + t.driver) for k in CARD_STEPS[card])
        raise _illegal(token, f"{card} moves {want} spaces, not {len(t.path)}")
    if t.driver and not p.driver_ready(seat):
        raise _illegal(token, "* needs the Driver, face up")
    walked = walk_path(p, seat, t.path)
    if isinstance(walked, str):
        raise _illegal(token, walked)
    end_space, entered = walked
    i = seat - 1
    start = p.loc[i]
    p.loc[i] = end_space
    if t.driver:
        p.driver_used = True
    if events is not None:
        events.append(ev.Moved(seat, path=t.path + ("*" if t.driver else ""),
                               spaces=tuple(entered), start=start, end=end_space,
                               driver=t.driver))
    for f in t.pre:
        _fulfil(p, seat, f, token, events)
    signed: str | None = None
    a = t.action
    if a is not None:
        signed = _act(p, seat, a, token, events)
    for f in t.post:
        if a is not None and a.kind == "s" and f.contract != signed:
            raise _illegal(token, f"f{f.contract}: in a turn whose action is a sign, a contract "
                                  f"held before the sign is fulfilled right before it")
        _fulfil(p, seat, f, token, events)
    if end:
        _end(p, token, events)


def _reveal(p: Position, card: str, lost_written: bool, token: str, events: Events) -> bool:
    """The start of the seat to move's turn: its card checked against the written one and
    revealed (rule 24.1). True when the turn is over with that (a dormant seat, a lost
    turn: rule 24.2), the card then gone from the stack; else the card stays on top until
    the movement uses it."""
    seat = p.turn_seat()
    i = seat - 1
    if p.resigned[i]:
        if card != "-" or not lost_written:
            raise _illegal(token, f"seat {seat} is dormant: its turn is written -:~")
        if events is not None:
            events.append(ev.TurnLost(seat, reason="dormant"))
        return True
    top = p.plans[i][0]
    if card != top:
        raise _illegal(token, f"seat {seat}'s next card is {top}, not {card}")
    usable = p.usable(seat, top)
    lost = not usable or not movements(p, seat, top)
    if lost != lost_written:
        if lost:
            raise _illegal(token, f"the turn is lost ({top} needs engine {top[0]}, the engine "
                                  f"is {ENGINES[p.engine[i]]}, or no path exists): write "
                                  f"{top}:~")
        raise _illegal(token, f"{top} is usable, so the turn is not lost")
    if events is not None:
        events.append(ev.CardRevealed(seat, card=top, usable=usable))
    if lost:
        p.plans[i].pop(0)
        if events is not None:
            events.append(ev.TurnLost(seat, reason="unusable" if not usable else "no-path"))
        return True
    return False


def _special(p: Position, seat: int, token: str, events: Events) -> None:
    """Rule 36: the special attach before movement (the leftmost car under the locomotive)."""
    i = seat - 1
    piece = p.board[p.loc[i]]
    if piece[0] != "X" or not p.cars[piece]:
        raise _illegal(token, "^ needs a complex with a car under the locomotive")
    if len(p.train[i]) >= p.capacity(seat):
        raise _illegal(token, "^: the train is full")
    p.attach(seat, (1,), True, events)


def play_partial(p: Position, steps: list[str], events: Events = None) -> None:
    """The seat to move's turn as far as ``steps`` go, the turn not ended (web.md 3: a turn
    sent a step at a time). ``steps`` are the turn's written steps in order, without its
    card (``["^", ">>", "f03"]``), and may stop anywhere, even before the path (``[]``: the
    card revealed only; ``["^"]``). Checked and applied as :func:`play_turn` would (the same
    events); a turn that is lost is not played here. Raises ExpressError, the position then
    undefined (apply to a copy)."""
    if p.phase != "a":
        raise _illegal(".".join(steps), "a turn is played only in the action phase")
    seat = p.turn_seat()
    i = seat - 1
    card = "-" if p.resigned[i] else p.plans[i][0]
    token = f"{card}:" + ".".join(steps)
    if any(step != "^" for step in steps):
        play_turn(p, parse_turn(token), token, events, end=False)
        return
    if _reveal(p, card, False, token, events):
        raise _illegal(token, "the turn is lost: it is not played a step at a time")
    if steps:
        _special(p, seat, token, events)


def _end(p: Position, token: str, events: Events) -> None:
    seat = p.turn_seat()
    if events is not None:
        events.append(ev.TurnEnded(seat, token=token))
    p.end_turn(events)


def _fulfil(p: Position, seat: int, f: Fulfil, token: str, events: Events) -> None:
    i = seat - 1
    if f.contract not in p.open[i]:
        raise _illegal(token, f"f{f.contract}: seat {seat} holds no open contract "
                              f"{f.contract}")
    card = CONTRACTS[f.contract][0]
    cars = card
    if f.cars is not None:
        if p.chars[i] != "Ma":
            raise _illegal(token, f"{f}: only the Manager places other cars than the card's")
        if (f.cars, f".{f}") not in placements(f.contract, True):
            raise _illegal(token, f"{f}: the Manager replaces exactly one of {card}'s cars")
        cars = f.cars
    if take(p.yard[i], cars) is None:
        raise _illegal(token, f"{f}: the yard ({p.yard[i] or 'empty'}) does not hold {cars}")
    p.fulfil(seat, f.contract, cars, events)


def _act(p: Position, seat: int, a: Action, token: str, events: Events) -> str | None:
    """Check and apply the action; return the contract kept by a sign."""
    i = seat - 1
    loc = p.loc[i]
    piece = p.board[loc]
    k = a.kind
    if k == "a":
        if piece[0] != "X" or not p.cars[piece]:
            raise _illegal(token, f"attach needs a complex with cars; space {loc} is {piece}"
                                  + (" (empty)" if piece[0] == "X" else ""))
        m = len(p.cars[piece])
        if any(s > m for s in a.spots):
            raise _illegal(token, f"{a}: the complex holds only {m} cars")
        if p.chars[i] != "Lo" and a.spots != tuple(range(1, len(a.spots) + 1)):
            raise _illegal(token, f"{a}: without the Logistician the cars come from the "
                                  f"left in order (a1, a12, a123)")
        if len(p.train[i]) + len(a.spots) > p.capacity(seat):
            raise _illegal(token, f"{a}: engine {ENGINES[p.engine[i]]} hauls at most "
                                  f"{p.capacity(seat)} cars")
        p.attach(seat, a.spots, False, events)
    elif k == "u":
        if piece != f"X{seat}":
            raise _illegal(token, f"upgrade needs seat {seat}'s own complex X{seat}, not "
                                  f"{piece}")
        if p.engine[i] == 3:
            raise _illegal(token, "the engine is already D")
        p.engine[i] += 1
        if events is not None:
            events.append(ev.Upgraded(seat, engine=ENGINES[p.engine[i]]))
    elif k == "x":
        if piece[0] != "X" or not p.cars[piece]:
            raise _illegal(token, f"exchange needs a complex with cars; space {loc} is {piece}")
        if not p.train[i]:
            raise _illegal(token, "exchange needs a car on the train")
        p.exchange(seat, events)
    elif k == "d":
        if piece[0] != "F":
            raise _illegal(token, f"uncouple needs a factory; space {loc} is {piece}")
        train = p.train[i]
        length = len(train)
        if any(q > length for q in a.spots):
            raise _illegal(token, f"{a}: the train has only {length} cars")
        engineer = p.chars[i] == "En"
        if not engineer and a.spots != tuple(range(length - len(a.spots) + 1, length + 1)):
            raise _illegal(token, f"{a}: without the Engineer only the rear cars uncouple")
        if not (engineer and engineer_any_colour(p.rules)) and \
                any(train[q - 1] != piece[1] for q in a.spots):
            why = " (rules x0.2: the Engineer too uncouples only cars of the factory's colour)" \
                if engineer else ""
            raise _illegal(token, f"{a}: the cars do not all match factory {piece}{why}")
        p.uncouple(seat, a.spots, events)
    elif k == "s":
        if len(p.open[i]) > 1:
            raise _illegal(token, "sign: the seat already holds 2 open contracts")
        deck = len(p.deck)
        if not deck:
            raise _illegal(token, "sign: the contract deck is empty")
        if deck >= 2 and a.choice == 0:
            raise _illegal(token, "s0 is only for a deck of one card; keep s1 or s2")
        if deck == 1 and a.choice == 2:
            raise _illegal(token, "s2: the deck has only one card (s1 keeps it, s0 puts it back)")
        kept = (p.deck[a.choice - 1]) if a.choice else None
        p.sign(seat, a.choice, events)
        return kept
    elif k == "o":
        target = p.board[a.space]
        cars = p.cars.get(target, "")
        if len(cars) < 2:
            raise _illegal(token, f"{a}: space {a.space} is not a complex with at least 2 cars")
        if sorted(a.cars) != sorted(cars):
            raise _illegal(token, f"{a}: the complex holds {cars}")
        if a.cars == cars:
            raise _illegal(token, f"{a}: that is the complex's present order")
        p.reorder(a.space, a.cars, events, seat)
    else:
        if a.step == "t":
            if piece[0] != "T":
                raise _illegal(token, f"et: space {loc} is no tunnel")
            nxt = p.twin(loc)
        else:
            nxt = (loc + (1 if a.step == ">" else -1)) % SPACES
            if p.board[nxt] == "R":
                raise _illegal(token, f"{a}: the extra space may not enter the refit piece")
        p.loc[i] = nxt
        if events is not None:
            events.append(ev.ExtraStep(seat, step=a.step, start=loc, end=nxt))
    return None


def play(p: Position, token: str, seat: int | None = None, events: Events = None) -> None:
    """Check and apply any decision token (a plan needs its ``seat``)."""
    if p.hidden is not None:
        raise ExpressError("a public position cannot be played; determinize it first")
    if token.startswith("resign"):
        play_resign(p, parse_resign(token), token, events)
        return
    ph = p.phase
    if ph == "o":
        raise _illegal(token, "the game is over")
    if ph == "c":
        play_pick(p, parse_pick(token), token, events)
    elif ph == "p":
        if seat is None:
            raise _illegal(token, "a plan needs the seat that commits it")
        play_plan(p, seat, parse_plan(token), token, events)
    elif ph == "a":
        play_turn(p, parse_turn(token), token, events)
    else:
        play_swap(p, parse_swap(token), token, events)
