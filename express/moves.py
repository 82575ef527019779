"""Legal decisions and applying them: the meaning of a decision against a position.

- :func:`legal` lists every legal decision of the position in canonical written form,
  sorted by code point (notation.md fine point 6, the CLI's ``legal``).
- :func:`play` checks one decision against the position and applies it, appending events
  when given a list. On an error the position may be half changed: callers that must keep
  it (``Game``) play on a copy. Decisions taken from :func:`legal` never fail, so fast
  callers (bench, bots) play on the position itself with ``events=None``.
"""

from __future__ import annotations

from itertools import permutations

from express import events as ev
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
from express.memo import Memo
from express.position import Events, Position, tunnel_twins
from express.rules import (
    CARD_STEPS,
    CHARACTERS,
    COLOURS,
    CONTRACTS,
    ENGINES,
    SPACES,
    engineer_any_colour,
    sort_cars,
)

# --- movement -------------------------------------------------------------------------------

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


# --- fulfils --------------------------------------------------------------------------------

_PLACEMENTS: dict[tuple[str, bool], list[tuple[str, str]]] = {}


def placements(contract: str, manager: bool) -> list[tuple[str, str]]:
    """(cars placed, written step) for every way to fulfil a contract (rules 51–52)."""
    key = (contract, manager)
    out = _PLACEMENTS.get(key)
    if out is None:
        card = CONTRACTS[contract][0]
        out = [(card, f".f{contract}")]
        if manager:
            seen = {card}
            for x in sorted(set(card)):
                base = card.replace(x, "", 1)
                for y in COLOURS:
                    cars = sort_cars(base + y)
                    if y != x and cars not in seen:
                        seen.add(cars)
                        out.append((cars, f".f{contract}={cars}"))
        _PLACEMENTS[key] = out
    return out


def take(yard: str, cars: str) -> str | None:
    """The yard without these cars, or None if it does not hold them."""
    for c in cars:
        j = yard.find(c)
        if j < 0:
            return None
        yard = yard[:j] + yard[j + 1:]
    return yard


def fulfil_options(yard: str, contracts: list[str], manager: bool) -> list[tuple[str, str]]:
    """(written fulfil steps, yard left) for every choice of fulfils, none included."""
    return list(_fulfil_table(yard, tuple(contracts), manager))


#: At most this many fulfil tables are kept; the memo then starts over.
FULFIL_CACHE = 20_000
_FULFILS: Memo[tuple[str, tuple[str, ...], bool], tuple[tuple[str, str], ...]] = \
    Memo(FULFIL_CACHE)


def _fulfil_table(yard: str, contracts: tuple[str, ...],
                  manager: bool) -> tuple[tuple[str, str], ...]:
    """:func:`fulfil_options` as a tuple, remembered: it depends on its (immutable)
    arguments alone, and every legal list asks it several times for the same yard."""
    key = (yard, contracts, manager)
    found = _FULFILS.get(key)
    if found is not None:
        return found
    opts = [("", yard)]
    if len(yard) >= 2 and contracts:
        for cid in sorted(contracts):
            more = []
            for steps, y in opts:
                for cars, step in placements(cid, manager):
                    left = take(y, cars)
                    if left is not None:
                        more.append((steps + step, left))
            opts += more
    return _FULFILS.keep(key, tuple(opts))


# --- legal decisions ------------------------------------------------------------------------

_REORDERS: dict[str, list[str]] = {}


def reorders(cars: str) -> list[str]:
    """Every other order of a complex's cars (rule 53), sorted."""
    out = _REORDERS.get(cars)
    if out is None:
        out = sorted({"".join(q) for q in permutations(cars)} - {cars})
        _REORDERS[cars] = out
    return out


def legal(p: Position) -> list[str]:
    """Every legal decision now, canonical and sorted (the CLI's ``legal``)."""
    ph = p.phase
    if ph == "c":
        held = p.held_characters()
        return [c for c in CHARACTERS if c not in held]
    if ph == "a":
        return legal_turns(p)
    if ph == "r":
        return sorted(f"R{s}" for s in p.swap_spaces())
    return []


def legal_turns(p: Position, *, blind: bool = False) -> list[str]:
    """Every legal turn of the seat to move in the action phase (fine point 6).

    ``blind`` (for bots that decide on a determinized view) leaves out the turns whose
    legality hangs on what the view hides: reorders (their cars may have come from the
    bag), any sign but ``s1`` (``s2`` is the same blind draw, ``s0`` does nothing) and
    fulfils after a sign (they name the card drawn). The rest keep their sorted order:
    the list is exactly the full one without those.
    """
    seat = p.turn_seat()
    i = seat - 1
    if p.resigned[i]:
        return ["-:~"]
    card = p.plans[i][0]
    if not p.usable(seat, card):
        return [card + ":~"]
    moves = movements(p, seat, card)
    if not moves:
        return [card + ":~"]
    out: list[str] = []
    _turns_from(p, seat, moves, card + ":", out, blind)
    piece = p.board[p.loc[i]]
    if piece[0] == "X" and p.cars[piece] and len(p.train[i]) < p.capacity(seat):
        q = p.copy()
        q.attach(seat, (1,), True)
        _turns_from(q, seat, moves, card + ":^.", out, blind)
    out.sort()
    return out


def _turns_from(p: Position, seat: int, moves: list[tuple[int, str, bool]], prefix: str,
                out: list[str], blind: bool = False) -> None:
    i = seat - 1
    board = p.board
    train = p.train[i]
    length = len(train)
    room = p.capacity(seat) - length
    yard = p.yard[i]
    held = p.open[i]
    char = p.chars[i]
    manager = char == "Ma"
    logistician = char == "Lo"
    engineer = char == "En"
    any_colour = engineer_any_colour(p.rules)
    own = f"X{seat}"
    can_upgrade = p.engine[i] < 3
    common = [""]
    for s, piece in enumerate(board if not blind else ()):
        cars = p.cars.get(piece)
        if cars and len(cars) >= 2:
            common += [f".o{s}={order}" for order in reorders(cars)]
    held_t = tuple(held)
    options = _fulfil_table(yard, held_t, manager)
    fulfils = [steps for steps, _ in options]
    deck = p.deck
    signs: list[str] = []
    if deck:
        choices: tuple[tuple[int, str], ...] = ((1, ""),) if blind else \
            ((1, deck[0]), (2, deck[1])) if len(deck) >= 2 else ((1, deck[0]), (0, ""))
        for steps, left in options:
            if len(held) - steps.count(".f") > 1:
                continue
            for choice, kept in choices:
                signed = f"{steps}.s{choice}"
                signs.append(signed)
                if kept:
                    signs += [signed + more for more, _ in
                              _fulfil_table(left, (kept,), manager)[1:]]
    # Suffixes open at every end space, with their fulfils: none, reorders, signs.
    shared = [a + f for a in common for f in fulfils] + signs
    for end, path, _driver in moves:
        head = prefix + path
        piece = board[end]
        out += [head + s for s in shared]
        acts: list[str] = []
        if board[end - 1] != "R":
            acts.append(".e<")
        if board[(end + 1) % SPACES] != "R":
            acts.append(".e>")
        kind = piece[0]
        if kind == "T":
            acts.append(".et")
        elif kind == "X":
            cars = p.cars[piece]
            m = len(cars)
            for j in range(1, min(m, room) + 1):
                if logistician:
                    acts += [".a" + "".join(map(str, q)) for q in permutations(range(1, m + 1), j)]
                else:
                    acts.append(".a" + "123"[:j])
            if piece == own and can_upgrade:
                acts.append(".u")
            if m and length:
                acts.append(".x")
        elif kind == "F" and length:
            colour = piece[1]
            if engineer and any_colour:  # rule 46 in x0.1: any cars, any colour
                subsets = [tuple(b + 1 for b in range(length) if mask >> b & 1)
                           for mask in range(1, 1 << length)]
            elif engineer:  # rule 46 in x0.2: any cars of the factory's colour
                same = [b + 1 for b in range(length) if train[b] == colour]
                subsets = [tuple(q for j, q in enumerate(same) if mask >> j & 1)
                           for mask in range(1, 1 << len(same))]
            else:
                run = length - len(train.rstrip(colour))
                subsets = [tuple(range(length - j + 1, length + 1)) for j in range(1, run + 1)]
            for pos in subsets:
                off = "".join(train[q - 1] for q in pos)
                step = head + ".d" + "".join(map(str, pos))
                new_yard = sort_cars(yard + off)
                out += [step + more for more, _ in _fulfil_table(new_yard, held_t, manager)]
        out += [head + a + f for a in acts for f in fulfils]


# --- checking and applying --------------------------------------------------------------


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
        p.reorder(a.space, a.cars, events)
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


# --- applying a turn already known to be legal ------------------------------------------

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
    """Apply a turn token that :func:`play` accepts here, without checking it again.

    For bots: they weigh each turn of :func:`legal` (or one whose legality does not depend
    on the hidden parts, in another determinization of the same view) and replay the one
    they keep. The position reached is exactly :func:`play`'s: the same steps in the same
    order (a token ``play`` accepts writes fulfils before its action only when that is a
    sign, which is also the order ``play`` applies them in); only the checks are skipped
    (the property tests compare the two on every legal turn). A token ``play`` would
    refuse leaves an undefined position. Read tokens are kept in a dict: what a token
    says depends on its text alone.
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
    """What a turn token (one :func:`parse_turn` reads) does, for :func:`play_unchecked`."""
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
    """One step after the path, as :func:`play_turn` applies it once its checks pass."""
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
