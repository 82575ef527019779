"""The NDJSON export of a member's games: one finished game a line, newest first, the
filters (game, since, until, rated, max), a Daily Challenge game of today left out for
others, and that it streams: a generator over a server-side cursor read a chunk at a time,
never a list of every game (under ASGI an async iterator pulling batches)."""

from __future__ import annotations

import asyncio
import datetime as dt
import inspect
import json

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from api.endpoints import export
from games.actors import Actor
from tests.api.support import bearer_client, finished_game, token_for

DAY = dt.timedelta(days=1)


def ms(moment: dt.datetime) -> int:
    return int(moment.timestamp() * 1000)


def lines_of(client, url: str) -> list[dict]:
    answer = client.get(url)
    assert answer.status_code == 200, answer.content
    assert answer.streaming and answer["Content-Type"] == "application/x-ndjson"
    text = b"".join(answer.streaming_content).decode()
    assert text == "" or text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def make_games(people):
    now = timezone.now()
    marta, kofi = people["marta"], people["kofi"]
    return {
        "old": finished_game(marta, kofi, created_at=now - 10 * DAY),
        "casual": finished_game(kofi, marta, rated=False, created_at=now - 5 * DAY),
        "express": finished_game(marta, kofi, game_type="cargo-express",
                                 created_at=now - 3 * DAY),
        "new": finished_game(marta, kofi, created_at=now - DAY),
        "others": finished_game(kofi, people["ines"], created_at=now - 2 * DAY),
    }


def test_every_finished_game_of_the_member_newest_first(people):
    games = make_games(people)
    from tests.games.support import new_game

    new_game(people["marta"], people["kofi"])  # running: not exported
    got = lines_of(bearer_client(token_for(people["ines"])), "/api/games/user/marta")
    assert [g["id"] for g in got] == [games[k].id for k in ("new", "express", "casual",
                                                            "old")]
    first = got[0]
    assert first["status"] == "finished" and first["players"][0]["username"] == "marta"
    assert first["tokens"] == list(games["new"].tokens)
    assert "guest_key" not in json.dumps(got) and "bot_seed" not in json.dumps(got)


def test_the_filters(people):
    games = make_games(people)
    client = bearer_client(token_for(people["marta"]))
    now = timezone.now()

    def ids(query: str) -> list[str]:
        return [g["id"] for g in lines_of(client, "/api/games/user/marta?" + query)]

    assert ids("game=cargo-express") == [games["express"].id]
    assert ids("rated=false") == [games["casual"].id]
    assert ids("rated=true") == [games[k].id for k in ("new", "express", "old")]
    assert ids(f"since={ms(now - 4 * DAY)}") == [games["new"].id, games["express"].id]
    assert ids(f"until={ms(now - 4 * DAY)}") == [games["casual"].id, games["old"].id]
    assert ids(f"since={ms(now - 6 * DAY)}&until={ms(now - 2 * DAY)}") == \
        [games["express"].id, games["casual"].id]
    assert ids("max=2") == [games["new"].id, games["express"].id]
    assert ids("max=1&rated=false") == [games["casual"].id]
    assert ids("game=cargo-connect&max=5") == [games[k].id for k in ("new", "casual",
                                                                      "old")]


def test_it_is_a_generator_reading_the_cursor_a_chunk_at_a_time(people, settings):
    settings.API_EXPORT_CHUNK = 2
    make_games(people)
    filters = export.Filters()
    from django.test import RequestFactory

    request = RequestFactory().get("/api/games/user/marta")
    source = export.lines(request, export.games_of(people["marta"], filters),
                          Actor.member(people["kofi"]), None)
    assert inspect.isgenerator(source)
    with CaptureQueriesContext(connection) as first:
        next(source)
    with CaptureQueriesContext(connection) as rest:
        remaining = list(source)
    assert len(remaining) == 3
    # the first line cost the cursor's first chunk (the games, their seats); the rest of
    # the games came with later chunks, each with its own seats' query
    assert len(first) == 2
    assert len(rest) >= 1


def test_the_response_body_is_the_generator_not_a_list(people):
    make_games(people)
    answer = bearer_client(token_for(people["marta"])).get("/api/games/user/marta")
    assert answer.streaming
    assert not isinstance(answer.streaming_content, list | tuple)


def test_under_asgi_lines_are_pulled_in_batches_off_the_loop():
    produced = []

    def source():
        for n in range(export.BATCH * 2 + 3):
            produced.append(n)
            yield f"{n}\n".encode()

    async def read() -> list[bytes]:
        stream = export.asgi_lines(source())
        assert inspect.isasyncgen(stream)
        first = await stream.__anext__()
        assert first == b"0\n" and len(produced) == export.BATCH  # one batch, not all
        return [first] + [line async for line in stream]

    got = asyncio.run(read())
    assert got == [f"{n}\n".encode() for n in range(export.BATCH * 2 + 3)]


def test_a_daily_challenge_game_of_today_is_left_out_for_others(people):
    from puzzles.daily import services as daily

    game = daily.start(Actor.member(people["marta"]), "easy")
    from games import services

    services.resign(game.id, actor=Actor.member(people["marta"]))
    mine = lines_of(bearer_client(token_for(people["marta"])), "/api/games/user/marta")
    theirs = lines_of(bearer_client(token_for(people["kofi"])), "/api/games/user/marta")
    assert [g["id"] for g in mine] == [game.id]
    assert theirs == []
