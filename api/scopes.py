"""The scopes a personal access token may hold, named as lichess names its own: each
endpoint names the one it needs (`api.auth.TokenAuth`), and a token without it is refused
(403 `missing_scope`)."""

from __future__ import annotations

from enum import StrEnum


class Scope(StrEnum):
    READ = "read"  # profiles, games, the export, rankings, puzzles, tournaments
    BOARD_PLAY = "board:play"  # play one's own seats as a person with a board
    BOT_PLAY = "bot:play"  # play a BOT account's seats; become a BOT account (api.bots)
    CHALLENGE_WRITE = "challenge:write"  # make, answer, cancel challenges; sit at tables

    @property
    def label(self) -> str:
        return LABELS[self]


LABELS = {
    Scope.READ: "Read: profiles, games and their export, rankings, puzzles, tournaments",
    Scope.BOARD_PLAY: "Play games with a board (your own seats)",
    Scope.BOT_PLAY: "Play games as a bot (a BOT account)",
    Scope.CHALLENGE_WRITE: "Create, accept and decline challenges; sit down at open tables",
}

ALL = tuple(Scope)


def parse(values: list[str] | tuple[str, ...]) -> list[Scope]:
    """Known scope names as `Scope`s, in the canonical order, each once; ValueError for an
    unknown name."""
    wanted = set()
    for value in values:
        wanted.add(Scope(value))
    return [scope for scope in ALL if scope in wanted]
