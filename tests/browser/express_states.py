"""Hand-written Cargo Express states in the shape of docs/live-protocol.md ("Cargo Express"),
one per phase, for the view's browser tests on the test-only harness page
(tests/platform/web/static/express-harness.html): the kind's part of each seat in `areas`,
the platform's (side, label, name) in `seats`."""

from __future__ import annotations

import copy
from typing import Any

SPACES: list[dict[str, Any]] = [
    {"space": 0, "piece": "Fb", "kind": "factory", "colour": "b"},
    {"space": 1, "piece": "X3", "kind": "complex", "cars": "wwn", "owner": 2},
    {"space": 2, "piece": "T1", "kind": "tunnel", "twin": 7},
    {"space": 3, "piece": "Fr", "kind": "factory", "colour": "r"},
    {"space": 4, "piece": "X1", "kind": "complex", "cars": "rbg", "owner": 0},
    {"space": 5, "piece": "T2", "kind": "tunnel", "twin": 12},
    {"space": 6, "piece": "Fg", "kind": "factory", "colour": "g"},
    {"space": 7, "piece": "T1", "kind": "tunnel", "twin": 2},
    {"space": 8, "piece": "R", "kind": "refit"},
    {"space": 9, "piece": "Fn", "kind": "factory", "colour": "n"},
    {"space": 10, "piece": "X2", "kind": "complex", "cars": "gnr", "owner": 1},
    {"space": 11, "piece": "Fw", "kind": "factory", "colour": "w"},
    {"space": 12, "piece": "T2", "kind": "tunnel", "twin": 5},
    {"space": 13, "piece": "X4", "kind": "complex", "cars": "bbw", "owner": None},
]

CONTRACT_CARS = ["rr", "bb", "gg", "nn", "ww", "rbg", "bgn", "gnw", "rnw", "rbw",
                 "rrbb", "bbgg", "ggnn", "nnww", "rrww", "rbgnw", "rbgnw", "rbgnw"]
CONTRACTS = {f"{i + 1:02d}": {"cars": cars, "value": 2 * len(cars) - 1 if len(cars) < 5 else 9}
             for i, cars in enumerate(CONTRACT_CARS)}
CARDS = ["A1", "A2", "A3", "B3", "B4", "C4", "C5", "C6", "D"]
NAMES = ["alice", "bob", "CargoBot Easy"]


def platform_seat(i: int) -> dict[str, Any]:
    return {"seat": i, "side": f"seat{i + 1}", "label": f"Seat {i + 1}", "name": NAMES[i],
            "rating": None, "bot": "easy" if i == 2 else None}


def seat(i: int, viewer: int | None, **kind: Any) -> dict[str, Any]:
    base = {
        "seat": i, "engine": "A", "capacity": 1, "space": [4, 10, 1][i], "train": "", "yard": "",
        "fulfilled": [], "open_count": 1, "open": ["13"] if i == viewer else None,
        "character": None, "dormant": False, "committed": False, "played": [], "stack": 0,
        "plan": None, "hand": None, "score": None,
    }
    base.update(kind)
    return base


def base(viewer: int | None = 0) -> dict[str, Any]:
    return {
        "id": "xp1", "game": "cargo-express", "rules": "x0.2", "player_count": 3,
        "round": 1, "phase": "pick", "phase_token": "c0", "stationmaster": 0,
        "order": [0, 1, 2], "spaces": copy.deepcopy(SPACES), "bag": 33, "deck": 15,
        "bag_empty": False, "last_round": False,
        "characters": [
            {"key": k, "name": n, "holder": None, "used": False}
            for k, n in [("Dr", "Driver"), ("En", "Engineer"), ("Lo", "Logistician"),
                         ("Ma", "Manager"), ("Me", "Mechanic")]
        ],
        "contracts": CONTRACTS, "cards": CARDS,
        "colours": {"r": "red", "b": "blue", "g": "green", "n": "brown", "w": "white"},
        "areas": [seat(i, viewer) for i in range(3)],
        "seats": [platform_seat(i) for i in range(3)],
        "turn": None, "drawn": None, "legal": {}, "result": None,
        "seed_hash": "9f2c" * 16, "seed": None,
        "acting": [0], "viewer": viewer, "over": False, "status": "active", "turns": [],
    }


def pick(viewer: int | None = 0) -> dict[str, Any]:
    s = base(viewer)
    if viewer == 0:
        s["legal"] = {"picks": ["Dr", "En", "Lo", "Ma", "Me"]}
    return s


def plan(viewer: int | None = 0, committed: bool = False) -> dict[str, Any]:
    s = base(viewer)
    s.update(phase="plan", phase_token="p", acting=[0, 1, 2] if not committed else [0, 1, 2])
    for i, ch in enumerate(["Lo", "Dr", "Ma"]):
        s["areas"][i]["character"] = ch
        s["characters"][[c["key"] for c in s["characters"]].index(ch)]["holder"] = i
    s["areas"][1]["committed"] = True
    if viewer is not None:
        own = s["areas"][viewer]
        if committed:
            own.update(committed=True, plan=["A2", "A1", "A3"],
                       hand=["B3", "B4", "C4", "C5", "C6", "D"])
        else:
            own.update(hand=list(CARDS))
        s["legal"] = {"hand": list(CARDS), "usable": ["A1", "A2", "A3", "D"],
                      "committed": ["A2", "A1", "A3"] if committed else None}
    return s


def turn(viewer: int | None = 0, signing: bool = False) -> dict[str, Any]:
    s = plan(viewer)
    s.update(phase="turn", phase_token="a0", acting=[0])
    for i, part in enumerate(s["areas"]):
        part.update(committed=True, stack=2, played=["A2"] if i == 0 else [], hand=None)
        if i != 0:
            part["stack"] = 3
    s["areas"][0]["train"] = "g"
    s["turn"] = {"seat": 0, "card": "A2", "number": 1, "of": 9, "steps": []}
    if viewer == 0:
        s["areas"][0].update(plan=["A1", "A3"], hand=["B3", "B4", "C4", "C5", "C6", "D", "A2"])
        if signing:
            s["turn"]["steps"] = [">>", "s"]
            s["drawn"] = ["10", "08"]
            s["legal"] = {"steps": [], "moves": [], "end": False, "sign": ["s1", "s2"]}
        else:
            s["legal"] = {
                "steps": ["^", ">>", "<<", ">t", "s", "o1=nww", "e>"],
                "moves": [{"path": ">>", "end": 6, "driver": False},
                          {"path": "<<", "end": 2, "driver": False},
                          {"path": ">t", "end": 12, "driver": False}],
                "end": False,
            }
    elif viewer is not None:
        s["areas"][viewer]["plan"] = ["B3", "A1", "A3"]
    return s


def swap(viewer: int | None = 1) -> dict[str, Any]:
    s = turn(viewer)
    s.update(phase="swap", phase_token="r", acting=[1], stationmaster=1, turn=None)
    for part in s["areas"]:
        part.update(stack=0, played=[], character=None, plan=None)
    for c in s["characters"]:
        c["holder"] = None
    if viewer == 1:
        s["legal"] = {"swaps": [{"token": "R0", "space": 0}, {"token": "R3", "space": 3},
                                {"token": "R5", "space": 5}, {"token": "R12", "space": 12}]}
    return s


def over(viewer: int | None = None) -> dict[str, Any]:
    s = swap(viewer)
    s.update(phase="over", phase_token="o", acting=[], over=True, status="finished",
             legal={}, seed="1234")
    breakdown = [
        {"cars": 9, "sets": 1, "set_points": 14, "contracts": [{"id": "06", "value": 5}],
         "open": [], "open_penalty": 0, "total": 19, "tiebreak": 9},
        {"cars": 7, "sets": 1, "set_points": 12, "contracts": [{"id": "01", "value": 3}],
         "open": ["13"], "open_penalty": -2, "total": 13, "tiebreak": 7},
        {"cars": 4, "sets": 0, "set_points": 4, "contracts": [], "open": ["11", "09"],
         "open_penalty": -4, "total": 0, "tiebreak": 4},
    ]
    s["result"] = {"scores": [19, 13, 0], "tiebreak": [9, 7, 4], "places": [1, 2, 3],
                   "winners": [0], "breakdown": breakdown}
    for i, part in enumerate(s["areas"]):
        part["open"] = breakdown[i]["open"]
    return s
