"""Fast random play for bots: random playouts without legal lists, parsing or events.

:func:`random_step` makes one random legal decision of the position and applies it in
place, building only what that one decision needs: for a turn it draws the special
attach, then an end space, then one action among those open there, then fulfils. It is
legal but **not** uniform over :func:`express.legal_decisions.legal` (a bot that needs the
uniform policy or the whole list uses ``legal`` and ``play``). :func:`playout` plays to
the end. Every decision it makes is one that :func:`express.moves.play` accepts (the tests
check that the tokens it returns replay to the same position).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from express.legal_decisions import fulfil_options, placements, reorders, take
from express.movement import movements
from express.position import Position, Result, tunnel_twins
from express.rules import (
    CARD_CLASS,
    CARD_STEPS,
    CARDS,
    CHARACTERS,
    CONTRACTS,
    SPACES,
    engineer_any_colour,
)

PlanPolicy = Callable[[Position, int, random.Random], tuple[str, str, str]]
TurnPolicy = Callable[[Position, random.Random], object]


def usable_plan(p: Position, seat: int, rng: random.Random) -> tuple[str, str, str]:
    """Three different cards the engine can use now, at random."""
    hand = [c for c in CARDS if CARD_CLASS[c] <= p.engine[seat - 1]]
    a, b, c = rng.sample(hand, 3)
    return a, b, c


def random_step(p: Position, rng: random.Random,
                plan_policy: PlanPolicy = usable_plan) -> str:
    """Make one random legal decision in place; return its token (a plan: every seat's).

    In planning every seat still to commit commits at once; the token returned is then
    the plans joined by spaces, in rising seat order.
    """
    ph = p.phase
    if ph == "a":
        return random_turn(p, rng)
    if ph == "c":
        held = p.held_characters()
        choice = rng.choice([c for c in CHARACTERS if c not in held])
        p.pick(choice)
        return choice
    if ph == "p":
        plans = []
        for seat in p.to_move():
            cards = plan_policy(p, seat, rng)
            p.commit(seat, cards)
            plans.append("".join(cards))
        return " ".join(plans)
    if ph == "r":
        space = rng.choice(p.swap_spaces())
        p.swap(space)
        return f"R{space}"
    raise ValueError("the game is over")


def random_turn(p: Position, rng: random.Random) -> str:
    """Play one random legal turn of the seat to move, in place; return its token."""
    seat = p.turn_seat()
    i = seat - 1
    rand = rng.random
    if p.resigned[i]:
        p.end_turn()
        return "-:~"
    card = p.plans[i].pop(0)
    if CARD_CLASS[card] > p.engine[i]:
        p.end_turn()
        return f"{card}:~"
    move = _random_move(p, seat, card, rng)
    if move is None:
        p.end_turn()
        return f"{card}:~"
    parts = []
    piece = p.board[p.loc[i]]
    if piece[0] == "X" and p.cars[piece] and len(p.train[i]) < p.capacity(seat) \
            and rand() < 0.5:
        p.attach(seat, (1,), True)
        parts.append("^")
    end, path, driver = move
    p.loc[i] = end
    if driver:
        p.driver_used = True
    parts.append(path)
    char = p.chars[i]
    manager = char == "Ma"
    any_colour = engineer_any_colour(p.rules)
    board = p.board
    piece = board[end]
    kind = piece[0]
    train = p.train[i]
    length = len(train)
    options: list[str] = ["", "e<", "e>"]
    if board[end - 1] == "R":
        options.remove("e<")
    if board[(end + 1) % SPACES] == "R":
        options.remove("e>")
    if kind == "T":
        options.append("et")
    elif kind == "X":
        m = len(p.cars[piece])
        if m and length < p.capacity(seat):
            options.append("a")
        if piece == f"X{seat}" and p.engine[i] < 3:
            options.append("u")
        if m and length:
            options.append("x")
    elif kind == "F" and length and (train[-1] == piece[1] or char == "En" and (
            any_colour or piece[1] in train)):
        options.append("d")
    if p.deck and len(p.open[i]) <= 1:
        options.append("s")
    options.append("o")
    act = options[int(rand() * len(options))]
    signed: str | None = None
    if act == "a":
        cars = p.cars[piece]
        j = 1 + int(rand() * min(len(cars), p.capacity(seat) - length))
        if char == "Lo":
            spots = tuple(rng.sample(range(1, len(cars) + 1), j))
        else:
            spots = tuple(range(1, j + 1))
        p.attach(seat, spots, False)
        parts.append("a" + "".join(map(str, spots)))
    elif act == "u":
        p.engine[i] += 1
        parts.append("u")
    elif act == "x":
        p.exchange(seat)
        parts.append("x")
    elif act == "d":
        if char == "En" and any_colour:  # rule 46 in x0.1: any cars, any colour
            mask = 1 + int(rand() * ((1 << length) - 1))
            spots = tuple(b + 1 for b in range(length) if mask >> b & 1)
        elif char == "En":  # rule 46 in x0.2: any cars of the factory's colour
            same = [b + 1 for b in range(length) if train[b] == piece[1]]
            mask = 1 + int(rand() * ((1 << len(same)) - 1))
            spots = tuple(q for j, q in enumerate(same) if mask >> j & 1)
        else:
            run = length - len(train.rstrip(piece[1]))
            j = 1 + int(rand() * run)
            spots = tuple(range(length - j + 1, length + 1))
        p.uncouple(seat, spots)
        parts.append("d" + "".join(map(str, spots)))
    elif act == "s":
        choice = (1 + (rand() < 0.5)) if len(p.deck) >= 2 else int(rand() < 0.5)
        signed = p.deck[choice - 1] if choice else None
        p.sign(seat, choice)
        parts.append(f"s{choice}")
    elif act == "o":
        targets = [x for x, cars in p.cars.items() if len(cars) >= 2 and reorders(cars)]
        if targets:
            x = targets[int(rand() * len(targets))]
            s = board.index(x)
            orders = reorders(p.cars[x])
            order = orders[int(rand() * len(orders))]
            p.reorder(s, order)
            parts.append(f"o{s}={order}")
    elif act:
        nxt = p.twin(end) if act == "et" else (end + (1 if act == "e>" else -1)) % SPACES
        p.loc[i] = nxt
        parts.append(act)
    # Fulfils at the end (the sign's own contract only, after a sign): all that fit, or none.
    held = [signed] if act == "s" and signed else ([] if act == "s" else p.open[i])
    if held and len(p.yard[i]) >= 2 and rand() < 0.8:
        opts = fulfil_options(p.yard[i], held, manager)
        steps = opts[int(rand() * len(opts))][0]
        for step in steps.split(".")[1:]:
            cid, _, cars = step[1:].partition("=")
            p.fulfil(seat, cid, cars or CONTRACTS[cid][0])
            parts.append(step)
    p.end_turn()
    return f"{card}:" + ".".join(parts)


def _random_move(p: Position, seat: int, card: str,
                 rng: random.Random) -> tuple[int, str, bool] | None:
    """A random legal movement (end, path with ``*``, Driver used), or None if none exists.

    A few random walks obeying rules 28–33 first (cheap, and the path need not be the
    canonical one); if they all get stuck, the full search decides.
    """
    i = seat - 1
    steps = CARD_STEPS[card]
    k = steps[int(rng.random() * len(steps))]
    driver = p.chars[i] == "Dr" and not p.driver_used and rng.random() < 0.5
    k += driver
    board = p.board
    mech = p.chars[i] == "Me"
    twins = tunnel_twins(board)
    refit = board.index("R")
    rand = rng.random
    start = p.loc[i]
    for _ in range(4):
        pos, visited, direction, path = start, 1 << start, 0, ""
        for step in range(k):
            last = step == k - 1
            t = twins.get(pos, -1)
            tunnel = t >= 0 and not visited >> t & 1
            if tunnel and rand() < 0.34:
                pos, direction = t, 0
                path += "t"
                visited |= 1 << pos
                continue
            d = direction or (1 if rand() < 0.5 else -1)
            nxt = (pos + d) % SPACES
            if visited >> nxt & 1 or (nxt == refit and (last or not mech)):
                if not direction:  # the other way round, then the tunnel
                    d = -d
                    nxt = (pos + d) % SPACES
                    if visited >> nxt & 1 or (nxt == refit and (last or not mech)):
                        nxt = -1
                else:
                    nxt = -1
                if nxt < 0:
                    if not tunnel:
                        break
                    pos, direction = t, 0
                    path += "t"
                    visited |= 1 << pos
                    continue
            pos, direction = nxt, d
            path += "<" if d < 0 else ">"
            visited |= 1 << pos
        else:
            return pos, path + ("*" if driver else ""), driver
    moves = movements(p, seat, card)
    return moves[int(rand() * len(moves))] if moves else None


def uniform_plan(p: Position, seat: int, rng: random.Random) -> tuple[str, str, str]:
    """Three different cards of the nine, uniformly (every such plan is legal)."""
    rand = rng.random
    cards = list(CARDS)
    a = cards.pop(int(rand() * 9))
    b = cards.pop(int(rand() * 8))
    return a, b, cards[int(rand() * 7)]


def playout(p: Position, rng: random.Random, plan_policy: PlanPolicy = usable_plan,
            max_steps: int = 100_000, turn_policy: TurnPolicy | None = None) -> Result:
    """Random decisions until the game is over (in place); the result.

    The same decisions as :func:`random_step`, without their tokens: a round's picks are
    made in one pass and its plans committed at once. ``turn_policy`` plays one turn of
    the action phase in place (default :func:`random_turn`).
    """
    turn = turn_policy or random_turn
    order_cache: dict[tuple[int, int], list[int]] = {}
    n = p.n
    for _ in range(max_steps):
        ph = p.phase
        if ph == "a":
            turn(p, rng)
        elif ph == "c":
            key = (p.sm, n)
            order = order_cache.get(key)
            if order is None:
                order = order_cache[key] = p.order()
            chars, resigned = p.chars, p.resigned
            left = [c for c in CHARACTERS if c not in chars]
            for s in order:
                if not resigned[s - 1] and chars[s - 1] is None:
                    chars[s - 1] = left.pop(int(rng.random() * len(left)))
            p.phase, p.k = "p", 0
        elif ph == "p":
            plans, resigned = p.plans, p.resigned
            for i in range(n):
                if not resigned[i] and not plans[i]:
                    plans[i] = list(plan_policy(p, i + 1, rng))
            p.phase, p.k = "a", 0
        elif ph == "r":
            spaces = p.swap_spaces()
            p.swap(spaces[int(rng.random() * len(spaces))])
        else:
            break
    return p.result()


# Re-exported for bot writers who want the pieces.
__all__ = ["fulfil_options", "movements", "placements", "playout", "random_step",
           "random_turn", "reorders", "take", "uniform_plan", "usable_plan"]
