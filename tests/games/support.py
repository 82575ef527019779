"""Helpers for live-play tests (fixtures are in conftest.py)."""

from engine import Game as EngineGame
from engine.describe import turn_options

ORIGIN = b"http://localhost"


def rebuilt(frame: dict) -> dict:
    """A turn frame as history rebuilds it (a resent turn's answer, catch-up): its state is
    an earlier ply's, which has no `rev` (only a current state says its revision)."""
    assert "rev" in frame["state"]
    return {**frame, "state": {k: v for k, v in frame["state"].items() if k != "rev"}}


def scripted_tokens(size: int = 5) -> list[str]:
    """A whole game from the engine: drop in the leftmost legal column, unload the first
    AppCon offered; ends in the Final Audit."""
    g = EngineGame.new(size)
    tokens = []
    while not g.over:
        legal = g.legal()
        drops = [t for t in legal if len(t) == 1 and t.islower()]
        token = drops[0] if drops else legal[0]
        options = turn_options(g.position)
        if token in options:
            token += "+" + options[token]["unloads"][0][0]
        g.play(token)
        tokens.append(token)
    return tokens



async def receive_type(comm, kind: str, timeout: float = 5):
    """The next frame of a type, skipping others."""
    while True:
        frame = await comm.receive_json_from(timeout=timeout)
        if frame["type"] == kind:
            return frame


async def drain(comm, quiet: float = 0.5) -> list[dict]:
    """Every frame that arrives until the socket has been quiet for `quiet` seconds."""
    frames = []
    while not await comm.receive_nothing(timeout=quiet):
        frames.append(await comm.receive_json_from())
    return frames


async def side_by_side(read, comms: dict) -> dict:
    """`await read(comm)` for every socket in `comms` (a name for each), side by side: a
    reader that waits until its socket is quiet waits once for them all, not once a
    socket after another (issue #43). The names with what each read."""
    import asyncio

    got = await asyncio.gather(*(read(comm) for comm in comms.values()))
    return dict(zip(comms, got, strict=True))


async def drain_all(comms: dict, quiet: float = 0.5) -> dict:
    """`drain` of every socket in `comms`, side by side."""
    return await side_by_side(lambda comm: drain(comm, quiet), comms)


# --- making games and naming actors in the tests' words ---------------------------------------

from games import services  # noqa: E402
from games.actors import Actor  # noqa: E402

member = Actor.member
SIDES = ("blue", "orange")


def new_game(blue, orange, size: int = 5, **kwargs):
    """A Cargo Connect game between two members (Blue first), through the service."""
    return services.create_game(game_type="cargo-connect", options={"size": size},
                                seats=[member(blue), member(orange)], **kwargs)


def alternate_turn(game, users, ply: int, token: str):
    """Ply `ply` of a `new_game` between alice (Blue: the even plies) and bob, as a member
    plays it through the service."""
    name = ("alice", "bob")[ply % 2]
    return services.apply_turn(game.id, actor=member(users[name]), ply=ply, token=token)


def new_bot_game(user=None, guest_key=None, level="easy", size=5, color="random"):
    """A casual game against CargoBot for a member or a guest (by session key)."""
    actor = member(user) if user is not None else Actor.guest(guest_key) if guest_key else None
    return services.create_bot_game(actor=actor, level=level, options={"size": size},
                                    seat=color)


def bot_side(game) -> str | None:
    seats = services.get_game(game.id).bot_seats
    return SIDES[seats[0]] if seats else None


def bot_of(game):
    """The actor CargoBot's task plays as in this game."""
    return Actor.bot(services.get_game(game.id).bot_level)


def guest_key_of(game) -> str | None:
    """The browser session that holds a guest's seat."""
    return next((s.guest_key for s in services.get_game(game.id).seat_list if s.guest_key),
                None)


def rate_vs_bot(game) -> None:
    """The vs CargoBot rating's handler on its own, as the finish seam calls it."""
    from games.results import Ending
    from rankings.ratings import record_bot_rating

    record_bot_rating(Ending(services.get_game(game.id)))


def winner_of(game) -> str | None:
    """The side that won (None: a draw or not over), from the seats' stored outcomes."""
    seats = services.get_game(game.id).seat_list
    return next((SIDES[s.index] for s in seats if s.outcome == "win"), None)


def resigned_of(game) -> str | None:
    seats = services.get_game(game.id).resigned_seats
    return SIDES[seats[0]] if seats else None
