"""Helpers for live-play tests (fixtures are in conftest.py)."""

from engine import Game as EngineGame
from engine.describe import turn_options

ORIGIN = b"http://localhost"


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
