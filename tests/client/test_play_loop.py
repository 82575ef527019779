"""The client's game loop without a site (a scripted stand-in for `cargo_client.api.Client`):
it answers each decision number once, from the state held; a diff from another state
reopens the stream, whose first line is the whole state again; a `stale_ply` refusal waits
for the stream's next state, any other refusal stops the game; a spectator plays nothing;
the events that name a game are read as the runner reads them; the command line refuses
what it cannot run."""

from __future__ import annotations

import pytest
from cargo_client.__main__ import main
from cargo_client.api import ApiError
from cargo_client.held import HeldState, OutOfStep
from cargo_client.play import GamePlayer, game_of


def state(rev: int, ply: int, acting: list[int], **more) -> dict:
    return {"game_type": "pile", "status": "active", "rev": rev, "ply": ply,
            "acting": acting, **more}


class Script:
    """A client whose streams are scripted connections (an exception in one is raised
    there, as a broken connection) and whose decisions are refused with the codes given,
    in turn (None: accepted; "broken": the request's connection fails)."""

    def __init__(self, connections: list[list], refusals: list[str | None] | None = None):
        self.connections = list(connections)
        self.refusals = list(refusals or [])
        self.posted: list[tuple[int, str]] = []

    def game_stream(self, game_id: str):
        for line in self.connections.pop(0):
            if isinstance(line, Exception):
                raise line
            yield line

    def decision(self, game_id: str, number: int, token: str) -> dict:
        self.posted.append((number, token))
        code = self.refusals.pop(0) if self.refusals else None
        if code == "broken":
            raise ConnectionResetError("connection reset by peer")
        if code is not None:
            raise ApiError(409 if code == "stale_ply" else 400, code, "refused", {})
        return {"ok": True}


class Counter:
    """An engine that names the state it was asked about."""

    game_type = "pile"

    def __init__(self):
        self.asked: list[int] = []

    def decide(self, state, seat):
        self.asked.append(state["ply"])
        return f"take{state['ply']}"


def test_each_decision_number_is_answered_once_and_a_bad_diff_reopens_the_stream():
    first = {"type": "state", "state": {**state(1, 0, [1]), "viewer": 1}}
    again = {"type": "turn", "ply": 0, "state": state(1, 0, [1])}  # the same number: no
    moved = {"type": "turn", "ply": 1, "base": 1, "diff": [[["rev"], 2], [["ply"], 2],
                                                           [["acting"], [0]]]}
    lost = {"type": "turn", "ply": 2, "base": 7, "diff": [[["rev"], 8]]}
    whole = {"type": "state", "state": {**state(3, 3, [1]), "viewer": 1}}
    over = {"type": "ended", "state": {**state(4, 4, []), "status": "finished"}}
    client, engine = Script([[first, None, again, moved, lost], [whole, over]]), Counter()
    outcome = GamePlayer(client, "g1", engine, pause=0).play()
    assert client.posted == [(0, "take0"), (3, "take3")] and engine.asked == [0, 3]
    assert outcome.connections == 2 and outcome.over and outcome.seat == 1
    assert [s.status for s in outcome.sent] == [200, 200]


def test_a_stale_decision_waits_for_the_stream_and_an_illegal_one_stops_the_game():
    first = {"type": "state", "state": {**state(1, 0, [0]), "viewer": 0}}
    later = {"type": "state", "state": {**state(2, 0, [0]), "viewer": 0}}
    client = Script([[first, later]], refusals=["stale_ply", "illegal"])
    with pytest.raises(ApiError, match="illegal"):
        GamePlayer(client, "g1", Counter(), pause=0).play()
    assert client.posted == [(0, "take0"), (0, "take0")]  # asked again after the refusal


def test_a_broken_connection_reopens_the_stream_and_resends_an_unanswered_decision():
    first = {"type": "state", "state": {**state(1, 0, [1]), "viewer": 1}}
    over = {"type": "ended", "state": {**state(3, 1, []), "status": "finished"}}
    client = Script([[first], [first, TimeoutError("timed out")], [first, over]],
                    refusals=["broken", None])
    outcome = GamePlayer(client, "g1", Counter(), pause=0).play()
    assert client.posted == [(0, "take0"), (0, "take0")]  # sent again on the next stream
    assert outcome.connections == 3 and outcome.over
    assert [s.status for s in outcome.sent] == [200]


def test_a_spectator_or_another_games_seat_plays_nothing():
    watching = {"type": "state", "state": {**state(1, 0, [0]), "viewer": None}}
    other = {"type": "state", "state": {**state(1, 0, [0]), "viewer": 0,
                                        "game_type": "cargo-express"}}
    for first in (watching, other):
        client = Script([[first]])
        outcome = GamePlayer(client, "g1", Counter(), pause=0).play()
        assert client.posted == [] and not outcome.over


def test_the_held_state_follows_seqs_and_refuses_a_diff_from_another_state():
    held = HeldState()
    held.take({"type": "state", "state": {**state(5, 9, [0, 2]), "viewer": 2,
                                          "seqs": [3, 4, 6]}})
    assert (held.seat, held.number, held.must_decide) == (2, 6, True)
    assert held.take({"type": "presence", "away": []}) == {"type": "presence", "away": []}
    with pytest.raises(OutOfStep, match="revision 4"):
        held.take({"type": "turn", "base": 4, "diff": []})
    assert held.state is None and not held.must_decide


def test_the_events_that_name_a_game():
    start = {"type": "gameStart", "game": {"id": "abc123XYZ0", "game_type": "pile"}}
    assert game_of(start, "pile") == "abc123XYZ0"
    assert game_of(start, "cargo-express") is None
    assert game_of({"type": "seek_accepted", "id": 4, "game": "q3Zb81LxTa"}, "pile") \
        == "q3Zb81LxTa"
    note = {"type": "notification", "kind": "challenge", "url": "/g/q3Zb81LxTa"}
    assert game_of(note, "pile") == "q3Zb81LxTa"
    assert game_of({**note, "kind": "game_ended"}, "pile") is None
    assert game_of({**note, "url": "/tournaments/3"}, "pile") is None


def test_the_command_line_refuses_what_it_cannot_run(monkeypatch, capsys):
    monkeypatch.delenv("CARGO_TOKEN", raising=False)
    assert main(["--url", "http://127.0.0.1:1", "--engine", "cargobot"]) == 2
    assert "a token is needed" in capsys.readouterr().err
    assert main(["--url", "ftp://x", "--token", "t", "--engine", "cargobot"]) == 1
    assert "the site's address" in capsys.readouterr().err
    assert main(["--url", "http://x", "--token", "t", "--engine", "cargobot",
                 "--level", "expert"]) == 1
    assert "CargoBot level 'expert'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--url", "http://x", "--token", "t", "--engine", "gnubg"])
