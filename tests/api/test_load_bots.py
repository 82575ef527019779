"""The bot load (scripts/load_bots.py, docs/api.md, "The bot games' figures"): its pure
parts, without a load: which stream line carries a decision, decision-to-frame on each
seat's stream, the stored rows against the acknowledged decisions, the seats' random legal
decisions, and the server processes found below topology.sh's supervisors."""

import os
import random
import sys
from pathlib import Path

import pytest

from games.kinds.cargo_express import CARGO_EXPRESS as KIND

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from load_bots import (  # noqa: E402  (the scripts' folder is not a package)
    Decision,
    StreamLog,
    check_stored,
    decide,
    frame_times,
)
from load_live import CONNECT, EXPRESS, descendants  # noqa: E402


def line(rev, kind="turn"):
    return {"type": kind, "state": {"rev": rev}}


def test_a_decision_s_line_is_the_first_at_its_revision_or_later():
    log = StreamLog("g", 0)
    for rev, at in ((3, 1.0), (5, 2.0), (8, 4.0)):
        log.take(line(rev), at)
    log.take({"type": "presence"}, 5.0)  # no state: no revision
    assert [log.first_at(r) for r in (1, 3, 4, 5, 8, 9)] == [1.0, 1.0, 2.0, 2.0, 4.0, None]


def test_decision_to_frame_is_timed_on_the_deciding_seat_s_stream_and_the_other_s():
    own, other = StreamLog("g", 0), StreamLog("g", 1)
    own.take(line(7), 10.05)
    other.take(line(7), 10.08)
    elsewhere = StreamLog("h", 1)
    elsewhere.take(line(7), 99.0)  # another game's stream: never counted
    sent = Decision("g", 0, 6, "c3", sent=10.0, answered=10.2, ply=6, rev=7)
    refused = Decision("g", 1, 6, "d3", sent=10.0, code="not_your_turn")
    unseen = Decision("g", 1, 7, "d4", sent=11.0, ply=7, rev=8)
    mine, theirs, missing = frame_times([sent, refused, unseen], [own, other, elsewhere])
    assert mine == pytest.approx([0.05])  # before the POST's answer (0.2 s): as it came
    assert theirs == pytest.approx([0.08])
    assert missing == 2  # rev 8 on neither stream of game g


def test_every_acknowledged_decision_stored_as_sent_and_every_row_acknowledged():
    accepted = [Decision("g", 0, 0, "c3", 0.0, ply=0, rev=1),
                Decision("g", 1, 1, "d3", 0.0, ply=1, rev=2)]
    assert check_stored(accepted, [(0, 0, "c3"), (1, 1, "d3")]) == ([], [])
    lost, unacknowledged = check_stored(accepted, [(0, 0, "c3"), (1, 1, "e3"), (2, 0, "c4")])
    assert lost == [{"ply": 1, "seat": 1, "token": "d3", "stored": (1, "e3")}]
    assert unacknowledged == [2]
    lost, _ = check_stored(accepted, [(0, 0, "c3")])
    assert lost[0]["stored"] is None


def test_a_cargo_connect_seat_decides_from_its_legal_only():
    state = {"legal": ["b2", "c3"], "options": {"b2": {"unloads": []},
                                                "c3": {"unloads": []}}}
    rng = random.Random(1)
    assert {decide(CONNECT, state, rng) for _ in range(40)} == {"b2", "c3"}
    assert decide(CONNECT, {"legal": [], "options": {}}, rng) is None


def test_a_cargo_express_seat_s_decisions_are_legal_to_the_end_of_a_game():
    rng = random.Random(3)
    lg = KIND.resume(KIND.new({}, 2, KIND.rules_version), [], [])
    while not lg.over:
        deciders = [s for s in (0, 1) if decide(EXPRESS, lg.view(s), rng) is not None]
        assert deciders
        seat = rng.choice(deciders)
        lg.apply(seat, decide(EXPRESS, lg.view(seat), rng))  # a refusal fails the test


def test_the_servers_are_found_below_their_supervisors():
    found = descendants([os.getppid()])
    assert os.getppid() in found and os.getpid() in found
    assert 1 not in found
