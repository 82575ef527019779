"""The reference client plays whole games against people, through the API of a site served
over real HTTP (issue #47's acceptance): a Cargo Connect game, its seat found on the
account's event stream and played by CargoBot's adapter, against a person on a socket; a
Cargo Express table of three, seat 1 the client with ExpressBot's adapter and two people on
sockets. Each to its end, with a result; every decision the client sent was accepted; the
state it rebuilt from its stream is the server's state for its seat at the end; and every
line it received was its own seat's, with nothing of another seat's before its time."""

from __future__ import annotations

import asyncio
import json

import orjson
import pytest
from cargo_client.__main__ import main
from cargo_client.api import Client
from cargo_client.cargobot import CargoBot
from cargo_client.expressbot import ExpressBot
from cargo_client.held import HeldState
from cargo_client.play import EventRunner, GamePlayer, Outcome
from channels.db import database_sync_to_async

from games import services
from games.actors import Actor
from games.frames.states import frame_state
from games.kinds.cargo_express.view import ExpressView
from games.models import Game
from tests.client.support import (
    connect_choice,
    express_choice,
    person_plays,
    served_site,
)
from tests.games.support import new_game
from tests.platform.test_express_wire import KIND, kind_part

pytestmark = [pytest.mark.django_db(transaction=True)]  # slow: tests/conftest.py


@pytest.fixture
def quick_keep_alive(settings):
    """The event stream speaks every 0.2 s, so that the runner is asked to stop soon."""
    settings.API_STREAM_KEEPALIVE = 0.2


def as_sent(state: dict) -> dict:
    """A state as it goes over the wire (integer keys become strings)."""
    return json.loads(orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS))


def server_side(game_id: str, seat: int) -> tuple[Game, dict, list[tuple[int, str]]]:
    """The finished row, the state its frames carry for `seat`'s audience, and every
    (seat, token) stored, in order."""
    row = services.get_game(game_id)
    turns = [(t.seat, t.token) for t in row.turns.order_by("ply")]
    return row, as_sent(frame_state(row, None, seat)), turns


def seat_knew(start: str, turns: list[tuple[int, str]], seat: int
              ) -> tuple[dict[int, tuple[str, list]], dict[int, dict]]:
    """What the engine tells `seat` of the game replayed from its start: each decision's
    token and events (by ply), and the seat's view after each ply (0: the start)."""
    replay = KIND.replay(start, [], [])
    views = {0: ExpressView(replay, seat).build()}
    told = {}
    for ply, (mover, token) in enumerate(turns):
        events = replay.apply(mover, token)
        told[ply] = (replay.tokens_for(seat)[ply], replay.events_for(events, seat))
        views[ply + 1] = ExpressView(replay, seat).build()
    return told, views


def assert_played_by_the_client(outcome: Outcome, seat: int, row: Game,
                                turns: list[tuple[int, str]]) -> None:
    """Every decision of the client's seat is one the client sent and the site accepted."""
    assert outcome.seat == seat and outcome.over
    assert [s.status for s in outcome.sent] == [200] * len(outcome.sent)
    assert [s.token for s in outcome.sent] == [t for s, t in turns if s == seat]
    assert row.status == "finished" and row.termination == "played_out"
    assert all(s.outcome for s in row.seat_list)


@pytest.mark.asyncio
async def test_cargobot_through_the_api_plays_a_whole_connect_game_with_a_person(
        users, bot_account, connect, quick_keep_alive):
    robot, token = await database_sync_to_async(bot_account)("robo")
    game = await database_sync_to_async(new_game)(users["alice"], robot, size=5)
    async with served_site() as url:
        person = await connect(game.id, "alice")
        runner = EventRunner(Client(url, token), CargoBot("easy", 1))

        def client_side() -> Outcome | BaseException:
            runner.run(stop=lambda: game.id in runner.outcomes, pause=0.1)
            return runner.outcomes[game.id]

        outcome, moves = await asyncio.gather(asyncio.to_thread(client_side),
                                              person_plays(person, 0, connect_choice))
        await person.disconnect()
    assert isinstance(outcome, Outcome), outcome
    row, want, turns = await database_sync_to_async(server_side)(game.id, 1)
    assert_played_by_the_client(outcome, 1, row, turns)
    assert moves == len([t for s, t in turns if s == 0]) and len(turns) > 10
    assert outcome.state == want
    assert outcome.state["result"] is not None and outcome.state["over"]
    assert person.held == want  # the person's socket rebuilt the same from its diffs


@pytest.mark.asyncio
async def test_expressbot_through_the_api_plays_a_three_seat_table_with_two_people(
        users, bot_account, connect, no_budgets):
    robot, token = await database_sync_to_async(bot_account)("robo")
    members = [users["alice"], robot, users["carol"]]
    game = await database_sync_to_async(services.create_game)(
        game_type="cargo-express", options={}, rated=False,
        seats=[Actor.member(m) for m in members])
    lines: list[dict] = []
    async with served_site() as url:
        people = [await connect(game.id, "alice"), await connect(game.id, "carol")]
        player = GamePlayer(Client(url, token), game.id, ExpressBot("easy", 2),
                            on_line=lines.append)
        outcome, *moves = await asyncio.gather(
            asyncio.to_thread(player.play),
            person_plays(people[0], 0, express_choice),
            person_plays(people[1], 2, express_choice))
        for comm in people:
            await comm.disconnect()
    row, want, turns = await database_sync_to_async(server_side)(game.id, 1)
    assert_played_by_the_client(outcome, 1, row, turns)
    assert moves == [len([t for s, t in turns if s == seat]) for seat in (0, 2)]
    assert outcome.state == want and outcome.state["result"] is not None
    assert outcome.connections == 1

    # Every line the client received was its seat's own: the first its state then, each
    # turn frame that decision's token, events and view as the engine gives them to seat 1.
    told, views = seat_knew(row.start, turns, 1)
    first, *rest = [line for line in lines if line["type"] != "presence"]
    assert first["type"] == "state" and first["state"]["viewer"] == 1
    assert kind_part(first["state"]) == as_sent(views[first["state"]["ply"]])
    frames = [f for f in rest if f["type"] == "turn"]
    assert [f["ply"] for f in frames] == list(range(first["state"]["ply"], len(turns)))
    for frame in frames:
        token, events = told[frame["ply"]]
        assert (frame["token"], frame["events"]) == (token, as_sent(events)), frame["ply"]
        state = kind_part(frame["state"])
        assert state == as_sent(views[frame["ply"] + 1]), frame["ply"]
        if not state["over"]:  # nothing of another seat's before its time
            assert frame["state"]["seed"] is None
            for other in (0, 2):
                area = state["areas"][other]
                assert area["plan"] is area["hand"] is area["open"] is None
            assert state["drawn"] is None or (state["turn"] or {}).get("seat") == 1


@pytest.mark.asyncio
async def test_the_command_line_plays_a_game_and_a_socket_wire_rebuilds_the_same(
        users, bot_account, connect, capsys):
    """`python -m cargo_client --game ID` plays that game to its end; and the client's
    held state takes the socket's own wire (diffs of the state its connection holds) as
    well as the stream's whole states: fed the texts the person's socket received, it
    rebuilds every state the socket did."""
    robot, token = await database_sync_to_async(bot_account)("robo")
    game = await database_sync_to_async(new_game)(users["alice"], robot, size=5)
    async with served_site() as url:
        person = await connect(game.id, "alice")
        argv = ["--url", url, "--token", token, "--engine", "cargobot", "--seed", "3",
                "--game", game.id]
        status, _ = await asyncio.gather(asyncio.to_thread(main, argv),
                                         person_plays(person, 0, connect_choice))
        await person.disconnect()
    row, want, turns = await database_sync_to_async(server_side)(game.id, 1)
    assert status == 0 and row.status == "finished"
    assert f"game {game.id}: seat 1, {len([t for s, t in turns if s == 1])} decisions, " \
        f"result {want['result']}" in capsys.readouterr().out
    held = HeldState()
    rebuilt = []
    for text in person.wire:
        frame = held.take(json.loads(text))
        if "state" in frame:
            rebuilt.append(frame["state"])
    assert held.diffs > 10 and held.seat == 0
    assert rebuilt[-1] == person.held
