"""The table (express.table, express.live_table) without Django: plans held until every
active seat commits, a turn a step at a time, turns the table plays itself for lost and
dormant seats, the decisions made for a seat whose clock fell, pre-turns, what a seat's bot
and a viewer's state (express.describe) hold, and the seed's and plans' hashes (web.md
2–5)."""

from __future__ import annotations

import hashlib
import json

import pytest

from express import ExpressError, Game, format_position
from express.describe import TableView
from express.events import Event
from express.live_table import LiveTable
from express.position import start_position
from express.table import Ledger, plan_hash, plan_salt, seed_hash
from tests.express.support import SEED3

CARDS = ("A1", "A2", "A3", "B3", "B4", "C4", "C5", "C6", "D")


def new_table(n: int = 3, seed: int = SEED3) -> LiveTable:
    """A table dealt from `seed`, with the engine's whole game beside it (for records)."""
    return LiveTable(start_position(n, seed), Ledger.new(str(seed), n), [], Game.new(n, seed))


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def picked(t: LiveTable) -> LiveTable:
    """Character selection played by the fallbacks: planning is open."""
    while t.p.phase == "c":
        seat = t.acting()[0]
        t.decide(seat, t.fallback(seat))
    assert t.p.phase == "p"
    return t


def to_a_turn_with_steps(t: LiveTable) -> int:
    """Planning closed with every seat's fallback plan; the seat whose turn has steps."""
    picked(t)
    for seat in list(t.acting()):
        t.decide(seat, t.fallback(seat))
    assert t.p.phase == "a"
    return t.acting()[0]


def snapshot(t: LiveTable) -> tuple[str, str, list[str]]:
    return format_position(t.p), json.dumps(t.meta.as_dict()), list(t.tokens)


# --- planning, held until all commit ---------------------------------------------------


def test_a_plan_is_held_and_may_be_replaced_until_every_active_seat_commits() -> None:
    t = picked(new_table())
    assert t.acting() == [0, 1, 2]
    events = t.decide(0, "A1A2A3")
    assert kinds(events) == ["plan-committed", "plan-chosen"]
    committed, chosen = events
    assert committed.only is None and chosen.only == (1,)  # the cards to the planner alone
    assert t.p.phase == "p" and t.p.plans[0] == []  # the engine has not seen it
    assert t.acting() == [1, 2] and t.deciding(0)  # not awaited, but may replace it
    replaced = t.decide(0, "A2A1A3")
    assert replaced[0].as_dict()["replaced"] is True
    assert t.meta.pending == ["A2A1A3", None, None]
    assert t.shown_tokens(1)[-2:] == ["???", "???"]  # neither plan shows to another seat
    assert t.shown_tokens(0)[-2:] == ["A1A2A3", "A2A1A3"]
    t.decide(1, "A1A2A3")
    assert t.p.phase == "p" and t.acting() == [2]
    closing = t.decide(2, "A3A2A1")  # the last commit closes planning
    assert kinds(closing)[:3] == ["plan-committed", "plan-chosen", "plan-hashes"]
    assert t.p.phase == "a"
    assert t.meta.stacks == [["A2", "A1", "A3"], ["A1", "A2", "A3"], ["A3", "A2", "A1"]]
    assert t.meta.pending == [None, None, None]
    # The plan replaced is never shown; the final one shows its revealed cards.
    assert t.shown_tokens(1)[-4] == "???"


def test_a_plan_that_is_not_three_different_cards_is_refused_and_nothing_changes() -> None:
    t = picked(new_table())
    before = snapshot(t)
    with pytest.raises(ExpressError, match="a plan is three different cards"):
        t.decide(0, "A1A2")
    with pytest.raises(ExpressError):
        t.decide(0, "A1A1A2")
    assert snapshot(t) == before


# --- the action phase, a step at a time -----------------------------------------------


def test_a_wrong_step_is_refused_with_a_clear_error_and_nothing_changes() -> None:
    t = new_table()
    seat = to_a_turn_with_steps(t)
    before = snapshot(t)
    with pytest.raises(ExpressError, match=r"'q' is not a step that may follow now \(one of"):
        t.decide(seat, "q")
    other = next(s for s in range(3) if s != seat)
    with pytest.raises(ExpressError, match="seat.* has no decision to make now"):
        t.decide(other, t.next_steps([])[0])
    with pytest.raises(ExpressError, match="the card revealed is"):
        t.decide(seat, "D:>")
    assert snapshot(t) == before


def test_a_turn_goes_a_step_at_a_time_and_the_engine_plays_it_whole_at_its_end() -> None:
    t = new_table()
    seat = to_a_turn_with_steps(t)
    first = t.next_steps([])[0]
    t.decide(seat, first)
    assert t.meta.steps == [first] and t.mid_decision(seat) and t.acting() == [seat]
    if not t.complete(t.meta.steps):
        with pytest.raises(ExpressError, match="the turn cannot end here"):
            t.decide(seat, "end")
    k = t.p.k
    events = t.decide(seat, t.completion(seat))
    assert "turn-ended" in kinds(events) and t.meta.steps == []
    assert t.p.k > k and not t.mid_decision(seat)


# --- turns the table plays itself ------------------------------------------------------


def test_a_turn_whose_card_is_unusable_is_lost_and_played_by_the_table() -> None:
    t = picked(new_table())
    assert not t.p.usable(1, "C6")  # engine A moves no C card
    first = t.p.order()[0] - 1  # the stationmaster's seat plays first
    for seat in range(3):
        events = t.decide(seat, "C6A1A2" if seat == first else "A1A2A3")
    lost = [e.as_dict() for e in events if e.kind == "turn-lost"]
    assert lost[0]["seat"] == first + 1 and lost[0]["reason"] == "unusable"
    # Played at once: the next seat's card is revealed, and the lost card shows to all.
    assert t.p.phase == "a" and t.acting() != [first] and t.p.k >= 1
    index = next(i for i, owner, _ in t.meta.plans if owner == first)
    assert t.shown_tokens(None)[index] == "C6??"


def test_a_dormant_seat_is_never_awaited_and_its_turns_are_played_by_the_table() -> None:
    t = picked(new_table())
    events = t.resign_seat(2)
    assert "resigned" in kinds(events) and t.acting() == [0, 1]
    t.decide(0, "A1A2A3")
    closing = t.decide(1, "A1A2A3")
    hashes = next(e for e in closing if e.kind == "plan-hashes").as_dict()["hashes"]
    assert hashes[2] is None and hashes[0] and hashes[1]
    lost = [e for e in closing if e.kind == "turn-lost"]
    while t.p.phase == "a":
        assert 2 not in t.acting()
        seat = t.acting()[0]
        lost += [e for e in t.decide(seat, t.timeout_decision(seat)) if e.kind == "turn-lost"]
    assert [e.as_dict()["reason"] for e in lost if e.seat == 3] == ["dormant"] * 3
    with pytest.raises(ExpressError, match="cannot resign"):
        t.resign_seat(2)


# --- decisions made for a seat (web.md 4) ----------------------------------------------


def test_the_fallbacks_are_the_first_pick_the_lowest_usable_cards_and_the_first_path() -> None:
    t = new_table()
    seat = t.acting()[0]
    assert t.fallback(seat) == "Lo"  # the first of Lo En Me Dr Ma still on the board
    picked(t)
    assert t.fallback(0) == "A1A2A3"  # the three lowest usable cards, in order
    for s in range(3):
        t.decide(s, t.fallback(s))
    seat = t.acting()[0]
    card = t.p.plans[seat][0]
    path = min(steps[0] for steps in t.legal_steps() if len(steps) == 1)
    assert t.fallback(seat) == f"{card}:{path}"


def test_a_timed_out_seat_mid_turn_gets_the_rest_of_its_turn() -> None:
    t = new_table()
    seat = to_a_turn_with_steps(t)
    t.decide(seat, t.next_steps([])[0])
    rest = t.timeout_decision(seat)
    assert rest == t.completion(seat)
    t.decide(seat, rest)
    assert t.meta.steps == [] and "end" not in rest.split(".")[:-1]


def test_every_decision_made_for_a_seat_is_one_the_table_accepts() -> None:
    t = new_table(2, 7)
    while not t.over and t.ply < 400:
        seat = t.acting()[0]
        t.decide(seat, t.timeout_decision(seat))
    assert t.over and t.shown_tokens(0) == t.tokens  # everything is public once over


# --- what a seat's bot may know -------------------------------------------------------


def test_a_bots_table_has_the_seats_view_only_and_decides_for_that_seat_alone() -> None:
    t = picked(new_table())
    t.decide(0, "B4C5D")
    t.decide(1, "A1A2A3")
    bot = t.for_seat(1)
    assert bot.p.hidden is not None and bot.meta.seed == "" and bot.meta.log == []
    assert bot.meta.pending == [None, "A1A2A3", None]
    assert "B4C5D" not in bot.tokens
    assert len(bot.bot_token(1, "easy", 0)) == 6  # its own plan, a replacement
    with pytest.raises(ExpressError, match="its own seat only"):
        bot.bot_token(2, "easy", 0)


# --- pre-turns (web.md 3.3) ------------------------------------------------------------


def test_a_waiting_seat_may_queue_a_beginning_of_its_next_turn_and_nothing_else() -> None:
    t = new_table()
    mover = to_a_turn_with_steps(t)
    waiting = next(s for s in range(3) if s != mover and t.queue_key(s) is not None)
    assert t.queue_key(mover) is None  # not during its own turn
    choices = t.next_turn(waiting)
    assert choices is not None and choices["card"] == t.p.plans[waiting][0]
    t.check_queue(waiting, choices["turns"][0].split(".")[:1])
    with pytest.raises(ExpressError, match="does not begin a turn"):
        t.check_queue(waiting, ["q"])
    with pytest.raises(ExpressError, match="queue your next turn while you wait"):
        t.check_queue(mover, ["end"])


# --- what a viewer is shown (express.describe) -----------------------------------------


def test_a_committed_plan_is_in_its_own_seats_state_alone() -> None:
    t = picked(new_table())
    t.decide(0, "B4C5D")
    mine = TableView(t, 0).build()
    theirs, spectators = TableView(t, 1).build(), TableView(t, None).build()
    assert mine["areas"][0]["plan"] == ["B4", "C5", "D"]
    assert mine["areas"][0]["hand"] == [c for c in CARDS if c not in ("B4", "C5", "D")]
    assert mine["legal"]["committed"] == ["B4", "C5", "D"]
    for other in (theirs, spectators):  # "3 face down", and nothing more
        area = other["areas"][0]
        assert area["committed"] and area["stack"] == 3
        assert area["plan"] is None and area["hand"] is None and area["open"] is None
        assert "B4C5D" not in json.dumps(other)
    assert theirs["legal"]["committed"] is None
    assert TableView(t, None, everything=True).build()["areas"][0]["plan"] == ["B4", "C5", "D"]


# --- fairness (web.md 2 and 5) ---------------------------------------------------------


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_seed_hash_and_a_plans_salt_and_hash_are_the_sha256_web_md_gives() -> None:
    assert seed_hash("Ex4mpleG4m", "58047") == sha("cargo-express:Ex4mpleG4m:58047")
    salt = plan_salt("58047", 3, 1)  # seat index 1: the second seat
    assert salt == sha("cargo-express-plan-salt:58047:3:2")[:32]
    assert plan_hash(1, 3, "B3A2A1", salt) == sha(f"2:3:B3A2A1:{salt}")
    # The How to play page's example, as the site has always published it.
    assert seed_hash("Ex4mpleG4m", "5804712399461532017") == \
        "2a0c3aa48e3521e0d8eba0f68755564299e4440c38b676a35cbe55d136f055b7"
    assert plan_hash(1, 3, "B3A2A1", plan_salt("5804712399461532017", 3, 1)) == \
        "993c423c191ee984a1550657b164282fd1cbb424afdb28b81bbf31351a1db2b3"


def test_the_hashes_published_at_closing_are_each_seats_final_plan_salted_from_the_seed(
) -> None:
    t = picked(new_table())
    t.decide(0, "A3A2A1")
    t.decide(0, "A1A2A3")  # replaced: the hash is the final plan's
    t.decide(1, "A2A1A3")
    closing = t.decide(2, "A1A3A2")
    event = closing[2]
    assert event.kind == "plan-hashes" and event.only is None
    data = event.as_dict()
    assert data["round"] == 1
    assert list(data["hashes"]) == [
        plan_hash(s, 1, plan, plan_salt(str(SEED3), 1, s))
        for s, plan in enumerate(["A1A2A3", "A2A1A3", "A1A3A2"])]


def test_a_record_of_the_table_replays_to_the_same_position() -> None:
    t = new_table(2, 11)
    while not t.over and t.ply < 40:
        seat = t.acting()[0]
        t.decide(seat, t.timeout_decision(seat))
    record = t.write_record({"Seat 1": 'a "b"', "Date": "2026.12.06", "Other": "x"}, None,
                            full=True, notes={0: "played by ExpressBot Medium\nfrom round 2"})
    assert '[Seat1 "a \'b\'"]' in record and "Other" not in record
    assert "# played by ExpressBot Medium from round 2" in record
    public = t.write_record({}, None, full=False)
    assert "[Seed" not in public
