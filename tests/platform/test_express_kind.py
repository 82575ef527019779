"""Cargo Express's game kind (games/kinds/cargo_express/) without the database: turns a
step at a time, plans replaced until planning closes, what each viewer's state, events and
tokens hold, records, seeds, timeouts and bots.

The leak test is an indistinguishability test: for every viewer, at every decision point of
whole games of 2, 3 and 4 seats, a second game that agrees with the viewer's public view
but has every hidden part drawn anew (the bag, the deck, the other seats' stacks and open
contracts, plans committed while planning is open) must give that viewer exactly the same
state. A state that depended on anything the viewer may not know would differ."""

import hashlib
import random

import pytest

from express import Game as EngineGame
from express import format_position, parse_position
from express.determinize import determinize
from express.rules import CONTRACTS
from games.kinds import EVERYTHING, KindError
from games.kinds.cargo_express import (
    CARGO_EXPRESS as KIND,
)
from games.kinds.cargo_express import (
    ExpressGame,
    Meta,
    seed_hash,
)
from games.kinds.cargo_express.view import ExpressView

CONTRACT_IDS = set(CONTRACTS)


def new_game(n, seed=None):
    start = KIND.new({}, n, "x0.2")
    if seed is not None:  # a chosen seed, for tests that need a known deal
        text, _, meta = start.partition("\n")
        m = Meta.load(meta)
        m.seed = str(seed)
        engine = EngineGame.new(n, seed)
        start = format_position(engine.position) + "\n" + m.dump()
    return start, KIND.resume(start, [], [])


def decide(lg, seat, level="easy", seed=1):
    return KIND.bot_decision(lg.redacted(seat), seat, level, seed)


def split(turn):
    """A whole turn token as the steps a person sends one at a time."""
    out = []
    for step in turn.partition(":")[2].split("."):
        out += ["s", step] if step[0] == "s" else [step]
    return out


def play_through(n, seed, *, stepwise=True, on_decision=None, resign_at=None):
    """A whole game, every decision by the Easy bot, turns sent a step at a time; after
    each decision `on_decision(lg, seat, events)`. With `resign_at`, the last seat resigns
    (goes dormant) after that many decisions. Returns the start, tokens, seats, game."""
    rng = random.Random(seed)
    start, lg = new_game(n)
    tokens, seats = [], []

    def send(seat, token):
        events = lg.apply(seat, token)
        tokens.append(token)
        seats.append(seat)
        if on_decision:
            on_decision(lg, seat, events)
        return events

    while not lg.over:
        if resign_at is not None and len(tokens) >= resign_at and not lg.p.resigned[n - 1]:
            events = lg.resign(n - 1)
            if on_decision:
                on_decision(lg, n - 1, events)
            continue
        seat = rng.choice(lg.acting())
        token = decide(lg, seat, seed=seed)
        if lg.p.phase == "a" and stepwise and ":" in token:
            for step in split(token):
                if lg.p.phase != "a" or lg.p.turn_seat() - 1 != seat or (
                        not lg.meta.steps and step != split(token)[0]):
                    break
                send(seat, step)
            if lg.meta.steps and lg.p.phase == "a" and lg.p.turn_seat() - 1 == seat:
                send(seat, "end")
        else:
            send(seat, token)
    return start, tokens, seats, lg


# --- the steps of a turn --------------------------------------------------------------


def to_first_turn(n=3, seed=20261130, plan="A1A2A3"):
    start, lg = new_game(n, seed)
    while lg.p.phase == "c":
        lg.apply(lg.acting()[0], decide(lg, lg.acting()[0]))
    for seat in range(n):
        lg.apply(seat, plan)
    return start, lg


def test_a_turn_is_sent_a_step_at_a_time_and_each_step_is_checked():
    _, lg = to_first_turn()
    seat = lg.acting()[0]
    state = lg.view(seat)
    assert state["phase"] == "turn" and state["turn"]["card"] == "A1"
    legal = state["legal"]
    paths = [m["path"] for m in legal["moves"]]
    assert paths and set(paths) <= set(legal["steps"]) and not legal["end"]
    with pytest.raises(KindError):
        lg.apply(seat, "u")  # an action before the movement
    before = lg.position()
    with pytest.raises(KindError):
        lg.apply(seat, paths[0] + ".zz")  # a bad step in a chain changes nothing
    assert lg.position() == before
    events = lg.apply(seat, paths[0])
    assert [e["kind"] for e in events] == ["moved"]
    after = lg.view(seat)
    assert after["turn"]["steps"] == [paths[0]]
    assert after["areas"][seat]["space"] == events[0]["end"]
    if after["legal"]["end"]:
        lg.apply(seat, "end")
        assert lg.view(seat)["turn"]["seat"] != seat or lg.p.k == 1


def test_a_path_written_another_way_is_stored_canonically():
    """Readers accept any legal path; the site stores the first one (notation.md)."""
    from itertools import product

    from express.movement import walk_path

    for seed in range(30):
        _, lg = to_first_turn(seed=500 + seed, plan="A3A2A1")
        seat = lg.acting()[0]
        q = lg.partial()[0]
        card = q.plans[seat][0]
        canonical = {m["end"]: m["path"] for m in lg.view(seat)["legal"]["moves"]
                     if not m["driver"]}
        steps = 2 if card == "D" else int(card[1])
        for path in map("".join, product("<>t", repeat=steps)):
            walked = walk_path(q, seat + 1, path)
            if isinstance(walked, str) or walked[0] not in canonical \
                    or path == canonical[walked[0]]:
                continue
            lg.apply(seat, path)
            assert lg.tokens[-1] == path and lg.meta.steps[:1] in ([canonical[walked[0]]], [])
            return
    pytest.fail("no deal had a second path to the same space")


def test_a_sign_shows_the_two_cards_to_the_signer_alone_then_the_choice():
    rng = random.Random(5)
    for seed in range(40):
        start, lg = to_first_turn(seed=1000 + seed)
        while not lg.over:
            seat = lg.acting()[0] if lg.p.phase != "p" else lg.acting()[0]
            if lg.p.phase == "a" and "s" in lg.view(seat)["legal"].get("steps", []) \
                    and lg.meta.steps:
                events = lg.apply(seat, "s")
                offered = [e for e in events if e["kind"] == "contracts-offered"]
                assert offered and offered[0]["only"] == [seat]
                assert lg.events_for(events, None) == []
                others = [s for s in range(lg.n) if s != seat]
                assert all(lg.view(o)["drawn"] is None for o in others)
                assert lg.view(None)["drawn"] is None
                mine = lg.view(seat)
                assert mine["drawn"] == offered[0]["cards"]
                assert mine["legal"]["sign"] and not mine["legal"]["end"]
                with pytest.raises(KindError):
                    lg.apply(seat, "end")  # the choice comes first
                choice = mine["legal"]["sign"][0]
                events = lg.apply(seat, choice)
                drawn = [e for e in events if e["kind"] == "contracts-drawn"]
                assert drawn and drawn[0]["only"] == [seat]
                assert all(e["kind"] != "contracts-drawn"
                           for e in lg.events_for(events, others[0]))
                return
            if lg.p.phase == "a" and not lg.meta.steps:
                legal = lg.view(seat)["legal"]
                lg.apply(seat, rng.choice(legal["moves"])["path"])
                continue
            lg.apply(seat, decide(lg, seat) if not lg.meta.steps else lg.completion(seat))
    pytest.fail("no game offered a sign")


def test_a_plan_may_be_replaced_until_planning_closes_and_others_see_only_ready():
    start, lg = new_game(3, 20261130)
    while lg.p.phase == "c":
        lg.apply(lg.acting()[0], decide(lg, lg.acting()[0]))
    events = lg.apply(0, "A1A2A3")
    assert lg.events_for(events, 1) == [e for e in events if e["kind"] == "plan-committed"]
    assert lg.acting() == [1, 2] and lg.deciding(0)
    events = lg.apply(0, "A3A2A1")  # replaced
    assert events[0]["replaced"] is True
    assert lg.view(0)["areas"][0]["plan"] == ["A3", "A2", "A1"]
    assert lg.view(1)["areas"][0]["plan"] is None and lg.view(1)["areas"][0]["stack"] == 3
    assert lg.view(1)["areas"][0]["hand"] is None
    assert lg.tokens_for(1)[-2:] == ["???", "???"]
    lg.apply(1, "A2A1A3")
    lg.apply(2, "A1A3A2")  # the last commit closes planning
    assert lg.p.phase == "a" and not lg.deciding(0) or lg.acting() == [0]
    with pytest.raises(KindError):
        lg.apply(1, "A1A2A3")  # planning is over
    # the replaced plan is never shown; the kept one card by card
    first = lg.acting()[0]
    shown = lg.tokens_for(None if first != 0 else 1)
    assert "A1A2A3" not in shown[:len(shown)]


def test_resume_from_the_cache_and_replay_from_the_start_agree():
    start, tokens, seats, lg = play_through(3, 11)
    again = KIND.replay(start, tokens, seats)
    assert again.position() == lg.position() and again.result() == lg.result()
    assert KIND.resume(lg.position(), tokens, []).view(0) == lg.view(0)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_full_record_replays_from_its_seed_to_the_same_game(n):
    start, tokens, seats, _ = play_through(n, 30 + n)
    game = KIND.replay(start, tokens, seats)
    record = game.record({"Seat 1": "alice", "Date": "2026.12.03"}, EVERYTHING)
    seed = Meta.load(start.partition("\n")[2]).seed
    assert f'[Seed "{seed}"]' in record and '[Seat1 "alice"]' in record
    assert EngineGame.from_record(record).position == game.p


def test_the_public_record_hides_the_seed_and_unrevealed_plans():
    start, lg = to_first_turn()
    tokens = list(lg.tokens)
    game = KIND.replay(start, tokens, [lg_seat for lg_seat in _seats_of(start, tokens)])
    public = game.record({}, None)
    assert "[Seed" not in public and "???" in public
    seed = Meta.load(start.partition("\n")[2]).seed
    assert seed not in public


def _seats_of(start, tokens):
    """The seat of each decision of `tokens`, found by replaying (picks, then plans by
    seat in order 0..n-1 as to_first_turn sends them)."""
    lg = KIND.resume(start, [], [])
    seats = []
    for token in tokens:
        seat = lg.acting()[0]
        lg.apply(seat, token)
        seats.append(seat)
    return seats


def test_the_seed_hash_is_published_and_checks_against_the_seed():
    start, _ = new_game(2)
    facts = KIND.facts("abc", start, over=False)
    assert facts["seed"] is None and len(facts["seed_hash"]) == 64
    seed = KIND.facts("abc", start, over=True)["seed"]
    assert facts["seed_hash"] == hashlib.sha256(
        f"cargo-express:abc:{seed}".encode()).hexdigest() == seed_hash("abc", seed)


def test_a_timed_out_seat_gets_the_easy_bots_decision_or_the_fallbacks():
    _, lg = new_game(2, 7)
    seat = lg.acting()[0]
    assert lg.timeout_decision(seat) in lg.view(seat)["legal"]["picks"]
    assert lg.fallback(seat) == next(c for c in ("Lo", "En", "Me", "Dr", "Ma")
                                      if c in lg.view(seat)["legal"]["picks"])
    while lg.p.phase == "c":
        lg.apply(lg.acting()[0], decide(lg, lg.acting()[0]))
    assert lg.fallback(0) == "A1A2A3"  # engine A: the three lowest usable cards
    lg.apply(0, lg.timeout_decision(0))
    lg.apply(1, lg.fallback(1))
    seat = lg.acting()[0]
    path = lg.fallback(seat)
    assert ":" in path and "." not in path  # the first legal path, no action
    # a turn begun: its completion, then it ends
    first = lg.view(seat)["legal"]["moves"][0]["path"]
    lg.apply(seat, first)
    if lg.meta.steps:
        lg.apply(seat, lg.timeout_decision(seat))
    assert not lg.meta.steps


# --- what each viewer may see -----------------------------------------------------------


def _alternative(lg: ExpressGame, viewer, rng) -> ExpressGame:
    """A game the viewer cannot tell from `lg`: its public view the same, every hidden part
    drawn anew (see the module's doc)."""
    seat = 0 if viewer is None else viewer + 1
    view = parse_position(format_position(lg.p, seat))
    alt = determinize(view, rng)
    if lg.p.phase == "a":  # the card of the turn in progress is revealed: public
        turn = lg.p.turn_seat() - 1
        if turn != viewer and lg.p.plans[turn]:
            top = lg.p.plans[turn][0]
            rest = [c for c in ("A1", "A2", "A3", "B3", "B4", "C4", "C5", "C6", "D")
                    if c != top and c not in lg.meta.stacks[turn][:3 - len(lg.p.plans[turn])]]
            alt.plans[turn] = [top, *rng.sample(rest, len(lg.p.plans[turn]) - 1)]
    meta = Meta.load(lg.meta.dump())
    for s in range(lg.n):
        if s == viewer:
            continue
        if meta.pending[s] is not None:
            meta.pending[s] = "".join(rng.sample(["A1", "A2", "A3", "B3", "B4", "C4", "C5",
                                                  "C6", "D"], 3))
        if meta.stacks[s]:
            shown = len(meta.stacks[s]) - len(alt.plans[s])
            meta.stacks[s] = meta.stacks[s][:shown] + list(alt.plans[s])
    for _, event in meta.log:  # the log's events other seats alone saw: drawn anew
        if event["only"] is not None and viewer not in event["only"]:
            for key in ("cards", "drawn"):
                if key in event:
                    event[key] = rng.sample(sorted(CONTRACT_IDS) if key == "drawn"
                                            or event["kind"] != "plan-chosen" else
                                            ["A1", "A2", "A3", "B3", "B4", "C4", "C5", "C6",
                                             "D"], len(event[key]))
            for key in ("kept", "returned"):
                if event.get(key) is not None:
                    event[key] = rng.choice(sorted(CONTRACT_IDS))
    meta.seed = "0"
    return ExpressGame(alt, meta, list(lg.tokens))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_no_viewer_state_depends_on_anything_hidden_from_that_viewer(n):
    rng = random.Random(n)
    checked = []

    def check(lg, seat, events):
        if lg.over or lg.meta.steps:  # a turn in progress has drawn from the bag: skipped
            return
        for viewer in [None, *range(n)]:
            alt = _alternative(lg, viewer, rng)
            mine = ExpressView(lg, viewer).build()
            assert ExpressView(alt, viewer).build() == mine, (viewer, lg.p.phase_token)
            # The log of the round too (the current state's `log`): every other seat's
            # private events drawn anew, the viewer's log is the same.
            assert lg.log(viewer) and alt.log(viewer) == lg.log(viewer)
            checked.append(viewer)

    play_through(n, 100 + n, on_decision=check)
    assert len(checked) > 50
    if n > 2:  # a seat that resigns mid-round: its unrevealed cards stay hidden
        for at in (37, 41, 44, 52):
            play_through(n, 100 + at, on_decision=check, resign_at=at)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_events_and_tokens_reach_only_their_audience(n):
    revealed = {viewer: {} for viewer in [None, *range(n)]}  # this round's, from events

    def check(lg, seat, events):
        for viewer in [None, *range(n)]:
            for event in lg.events_for(events, viewer):
                if event["kind"] == "phase" and event["phase"] == "c0":
                    revealed[viewer] = {}
                if event["kind"] == "revealed":
                    revealed[viewer].setdefault(event["seat"], []).append(event["card"])
            if not lg.over:  # another seat's cards shown: exactly those revealed to it
                for s, area in enumerate(lg.view(viewer)["areas"]):
                    if s != viewer and lg.p.phase != "c":
                        assert area["played"] == revealed[viewer].get(s, []), (viewer, s)
            for event in lg.events_for(events, viewer):
                assert event["only"] is None or viewer in event["only"]
                if event["kind"] in ("plan-chosen", "contracts-offered", "contracts-drawn"):
                    assert event["only"] == [event["seat"]] == [viewer]
            if lg.over:
                continue
            shown = lg.tokens_for(viewer)
            for index, owner, shown_cards in lg.meta.plans:
                if owner != viewer:
                    k = max(shown_cards, 0)
                    assert shown[index][2 * k if "D" not in shown[index] else 0:].count(
                        "?") == 3 - k or shown[index].endswith("?" * (3 - k))
                    assert shown[index].endswith("?" * (3 - k))
            state = lg.view(viewer)
            for s, part in enumerate(state["areas"]):
                if s != viewer:
                    assert part["plan"] is part["hand"] is part["open"] is None
            assert state["seed"] is None if "seed" in state else True

    play_through(n, 200 + n, on_decision=check)
    if n > 2:
        for at in (37, 41, 44, 52):
            revealed.update({viewer: {} for viewer in revealed})
            play_through(n, 200 + at, on_decision=check, resign_at=at)


def test_after_the_game_everything_is_public():
    _, _, _, lg = play_through(3, 5)
    spectator = lg.view(None)
    assert all(part["plan"] is not None and part["open"] is not None
               for part in spectator["areas"])
    assert spectator["result"]["places"] and lg.tokens_for(None) == lg.tokens
    assert "?" not in " ".join(lg.tokens_for(1))


def test_bots_read_only_their_own_seats_view():
    _, lg = new_game(3, 99)
    while lg.p.phase == "c":
        lg.apply(lg.acting()[0], decide(lg, lg.acting()[0]))
    lg.apply(0, "B4C5D")
    redacted = lg.redacted(1)
    assert redacted.p.hidden is not None  # a public position
    assert redacted.meta.pending[0] is None and "B4C5D" not in redacted.tokens
    assert redacted.meta.seed == ""
    token = KIND.bot_decision(redacted, 1, "medium", 3)
    assert len(token) == 6  # a plan
    assert KIND.bot_decision(lg.redacted(1), 1, "medium", 3) == token  # deterministic


# --- plan salts (web.md 2) ---------------------------------------------------------------


def test_each_rounds_plan_hashes_check_out_against_the_stacks_and_the_seed_after_the_game():
    from express.table import plan_hash, plan_salt

    published = []

    def check(lg, seat, events):
        for event in events:
            if event["kind"] == "plan-hashes":
                assert event["only"] is None and event["round"] == lg.p.round
                published.append((event["round"], event["hashes"],
                                  ["".join(stack) for stack in lg.meta.stacks]))

    start, tokens, seats, lg = play_through(3, 33, on_decision=check)
    assert lg.over and len(published) == lg.p.round
    seed = lg.meta.seed  # published once the game is over (the full record's Seed)
    for round_, hashes, stacks in published:
        for seat, (hashed, stack) in enumerate(zip(hashes, stacks, strict=True)):
            assert hashed == plan_hash(seat, round_, stack, plan_salt(seed, round_, seat))
            other = stack[2:] + stack[:2]  # the same cards in another order
            assert hashed != plan_hash(seat, round_, other, plan_salt(seed, round_, seat))
            assert hashed != plan_hash(seat, round_, stack, plan_salt("1", round_, seat))
    replayed = KIND.replay(start, [], [])
    again = [e["hashes"] for seat, token in zip(seats, tokens, strict=True)
             for e in replayed.apply(seat, token) if e["kind"] == "plan-hashes"]
    assert again == [hashes for _, hashes, _ in published]  # the replay shows the same
