"""What one viewer of a Cargo Express table is shown, as JSON-ready data: the state a host
sends a seat or a spectator (the shape in docs/live-protocol.md, "Cargo Express"), built for
that viewer from the table (`express.live_table`) and the engine's public form (rules
72–76). Another seat's stack, hand, open contracts and drawn cards never enter a viewer's
state; once the game is over everything is public."""

from __future__ import annotations

from typing import Any

from express.legal_decisions import legal
from express.live_table import LiveTable
from express.movement import movements
from express.position import Position, tunnel_twins
from express.rules import CAPACITY, CARDS, CHARACTERS, COLOURS, CONTRACTS, ENGINES
from express.table import PATH, SIGN_CHOICE, plan_cards

CHARACTER_NAMES = {"Dr": "Driver", "En": "Engineer", "Lo": "Logistician", "Ma": "Manager",
                   "Me": "Mechanic"}
COLOUR_NAMES = {"r": "red", "b": "blue", "g": "green", "n": "brown", "w": "white"}
PHASES = {"c": "pick", "p": "plan", "a": "turn", "r": "swap", "o": "over"}
# The catalogue every state carries, made once (never mutated: states are only encoded).
CONTRACT_CATALOGUE = {cid: {"cars": cars, "value": value}
                      for cid, (cars, value) in CONTRACTS.items()}
CARD_LIST = list(CARDS)


def _cars_and_sets(q: Position, seat: int) -> tuple[str, int]:
    """The cars that score for a seat (0-based) and its full sets of the five colours."""
    cars = q.scored_cars(seat + 1)
    return cars, min(cars.count(c) for c in COLOURS)


class TableView:
    """One viewer's state of a table: a seat's (`seat`, an index), a spectator's (None),
    or everything (`everything`: a finished game's replay). Its keys leave room for a
    host's own (`seats`, `players`, `acting`, ...): each seat's part is in `areas`. The
    parts that are the same for every viewer are made once per change of the table
    (`LiveTable.shared`)."""

    def __init__(self, game: LiveTable, seat: int | None, everything: bool = False) -> None:
        self.game = game
        self.seat = seat
        self.all = everything or game.over
        self.q: Position = game.shared("partial", lambda: game.partial()[0])

    def sees(self, seat: int) -> bool:
        return self.all or seat == self.seat

    def build(self) -> dict[str, Any]:
        g, q = self.game, self.q
        return {
            "game": "cargo-express", "rules": q.rules, "player_count": q.n, "over": g.over,
            "ply": g.ply,
            "round": q.round, "phase": PHASES[q.phase], "phase_token": q.phase_token,
            "stationmaster": q.sm - 1, "order": [s - 1 for s in q.order()],
            "spaces": g.shared("spaces", self.spaces), "bag": len(q.bag),
            "deck": len(q.deck), "bag_empty": q.flag_e, "last_round": q.flag_l,
            "characters": g.shared("characters", self.characters),
            "contracts": CONTRACT_CATALOGUE, "cards": CARD_LIST, "colours": COLOUR_NAMES,
            "areas": [self.area(s) for s in range(q.n)],
            "turn": g.shared("turn", self.turn),
            "drawn": self.drawn(),
            "legal": self.legal() if self.seat is not None and not g.over else {},
            "result": g.shared("result", self.result),
        }

    def characters(self) -> list[dict[str, Any]]:
        q = self.q
        return [{"key": c, "name": CHARACTER_NAMES[c],
                 "holder": q.chars.index(c) if c in q.chars else None,
                 "used": c == "Dr" and q.driver_used} for c in CHARACTERS]

    def spaces(self) -> list[dict[str, Any]]:
        q = self.q
        twins = tunnel_twins(q.board)
        out: list[dict[str, Any]] = []
        for space, piece in enumerate(q.board):
            entry: dict[str, Any] = {"space": space, "piece": piece}
            if piece[0] == "X":
                owner = int(piece[1]) - 1
                entry.update(kind="complex", cars=q.cars.get(piece, ""),
                             owner=owner if owner < q.n else None)
            elif piece[0] == "F":
                entry.update(kind="factory", colour=piece[1])
            elif piece[0] == "T":
                entry.update(kind="tunnel", twin=twins[space])
            else:
                entry.update(kind="refit")
            out.append(entry)
        return out

    def area(self, s: int) -> dict[str, Any]:
        """What lies in front of seat `s`: engine, train, yard, contracts, cards (the
        public part made once for every viewer)."""
        public, secret = self.game.shared(("area", s), lambda: self.public_area(s))
        if not self.sees(s):
            return {**public, "open": None, "plan": None, "hand": None}
        return {**public, "open": list(self.q.open[s]), "plan": secret,
                "hand": [c for c in CARDS if c not in secret]}

    def public_area(self, s: int) -> tuple[dict[str, Any], list[str]]:
        """Seat `s`'s area as everyone sees it, and its unrevealed cards (its stack, or
        the plan committed in planning), for the viewers who may see them."""
        q, meta = self.q, self.game.meta
        played, secret = self.game.unrevealed(s)
        total, tiebreak = q.score(s + 1)
        cars, sets = _cars_and_sets(q, s)
        return {
            "seat": s, "engine": ENGINES[q.engine[s]], "capacity": CAPACITY[q.engine[s]],
            "space": q.loc[s], "train": q.train[s], "yard": q.yard[s],
            "fulfilled": [{"id": cid, "cars": placed, "value": CONTRACTS[cid][1]}
                          for cid, placed in q.done[s]],
            "open_count": len(q.open[s]),
            "character": q.chars[s], "dormant": q.resigned[s],
            "committed": q.phase == "p" and bool(meta.pending)
            and meta.pending[s] is not None,
            "played": played, "stack": len(secret),
            "score": {"cars": len(cars), "sets": sets, "set_points": 5 * sets,
                      "contracts": sum(CONTRACTS[c][1] for c, _ in q.done[s]),
                      "open_penalty": -2 * len(q.open[s]), "total": total,
                      "tiebreak": tiebreak},
        }, secret

    def turn(self) -> dict[str, Any] | None:
        p0 = self.game.p
        if p0.phase != "a":
            return None
        seat = p0.turn_seat() - 1
        card = p0.plans[seat][0] if p0.plans[seat] else "-"
        return {"seat": seat, "card": card, "number": p0.k + 1, "of": 3 * p0.n,
                "steps": list(self.game.meta.steps)}

    def drawn(self) -> list[str] | None:
        g = self.game
        steps = g.meta.steps
        if not steps or steps[-1] != "s":
            return None
        seat = g.p.turn_seat() - 1
        return list(self.q.deck[:2]) if self.sees(seat) else None

    def legal(self) -> dict[str, Any]:
        g, seat = self.game, self.seat
        assert seat is not None
        if not g.deciding(seat):
            upcoming = g.next_turn(seat)  # a pre-turn's choices (games.turns.preturns)
            return {"next": upcoming} if upcoming is not None else {}
        q = g.p
        if q.phase == "c":
            return {"picks": legal(q)}
        if q.phase == "p":
            pending = g.meta.pending[seat]
            return {"hand": list(CARDS), "usable": [c for c in CARDS if q.usable(seat + 1, c)],
                    "committed": plan_cards(pending) if pending else None}
        if q.phase == "r":
            return {"swaps": [{"token": t, "space": int(t[1:])}
                              for t in sorted(legal(q), key=lambda t: int(t[1:]))]}
        steps = g.meta.steps
        nxt = g.next_steps(steps)
        out: dict[str, Any] = {"steps": [s for s in nxt if not SIGN_CHOICE.fullmatch(s)],
                               "end": g.complete(steps)}
        if steps[-1:] == ["s"]:
            out["sign"] = nxt
        paths = [s for s in nxt if PATH.fullmatch(s)]
        if paths:
            card = q.plans[seat][0]
            ends = {path + ("*" if driver else ""): end
                    for end, path, driver in movements(self.q, seat + 1, card)}
            out["moves"] = [{"path": path, "end": ends.get(path), "driver": path.endswith("*")}
                            for path in paths]
        return out

    def result(self) -> dict[str, Any] | None:
        q = self.game.p
        if not q.over:
            return None
        r = q.result()
        breakdown = []
        for s in range(q.n):
            cars, sets = _cars_and_sets(q, s)
            breakdown.append({
                "cars": len(cars), "sets": sets, "set_points": 5 * sets,
                "contracts": [{"id": cid, "value": CONTRACTS[cid][1]} for cid, _ in q.done[s]],
                "open": list(q.open[s]), "open_penalty": -2 * len(q.open[s]),
                "total": r.scores[s], "tiebreak": r.tiebreak[s]})
        return {"scores": list(r.scores), "tiebreak": list(r.tiebreak),
                "places": list(r.places), "winners": [w - 1 for w in r.winners],
                "breakdown": breakdown}
