"""The site's public API over HTTP, standard library only: a personal access token sent as
`Authorization: Bearer …`, JSON answers, NDJSON streams read a line at a time, and every
refusal raised as an `ApiError` with the site's code (docs/api.md)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

from cargo_client import __version__

Doors = ("bot", "board")  # `/api/bot/…` (bot:play) and `/api/board/…` (board:play)


class ApiError(Exception):
    """A refusal: its HTTP status, the site's code (`stale_ply`, `illegal`, …), its words,
    and the whole JSON body (a `stale_ply` carries the seat's `state`)."""

    def __init__(self, status: int, code: str, message: str, body: Any) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body


class Client:
    """One token's door to one site. `door` is the play endpoints' prefix: `bot` for a
    `bot:play` token, `board` for `board:play`. `timeout` bounds each read of a stream too:
    the site writes an empty line after a few quiet seconds, so a longer silence means the
    connection is gone."""

    def __init__(self, url: str, token: str, *, door: str = "bot",
                 timeout: float = 60.0) -> None:
        if door not in Doors:
            raise ValueError(f"door {door!r}: 'bot' or 'board'")
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"url {url!r}: the site's address, http:// or https://")
        self.url = url.rstrip("/")
        self.token = token
        self.door = door
        self.timeout = timeout

    # --- the requests ------------------------------------------------------------------

    def _request(self, method: str, path: str, body: Any = None,
                 accept: str = "application/json") -> urllib.request.Request:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Accept": accept,
                   "User-Agent": f"cargo-client/{__version__}"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        return urllib.request.Request(self.url + path, data=data, headers=headers,
                                      method=method)

    def _open(self, request: urllib.request.Request) -> Any:
        try:
            return urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as e:
            raise _refusal(e) from None

    def get(self, path: str) -> Any:
        with self._open(self._request("GET", path)) as answer:
            return json.loads(answer.read())

    def post(self, path: str, body: Any = None) -> Any:
        with self._open(self._request("POST", path, {} if body is None else body)) as answer:
            return json.loads(answer.read())

    def lines(self, path: str) -> Iterator[dict[str, Any] | None]:
        """An NDJSON stream: each line decoded, None for a keep-alive (an empty line).
        The connection closes when the site ends the stream or the caller stops reading."""
        with self._open(self._request("GET", path, accept="application/x-ndjson")) as answer:
            while True:
                raw = answer.readline()
                if not raw:
                    return
                text = raw.strip()
                yield json.loads(text) if text else None

    # --- the endpoints -----------------------------------------------------------------

    def account_game(self, game_id: str) -> Any:
        """`GET /api/game/{id}`: the game's facts, record and state, for this token's member."""
        return self.get(f"/api/game/{game_id}")

    def game_stream(self, game_id: str) -> Iterator[dict[str, Any] | None]:
        """`GET /api/stream/game/{id}`: the viewer's state, then the game's frames."""
        return self.lines(f"/api/stream/game/{game_id}")

    def event_stream(self) -> Iterator[dict[str, Any] | None]:
        """`GET /api/stream/event`: a `gameStart` per game in progress, then the member's
        tables' and notifications' frames."""
        return self.lines("/api/stream/event")

    def decision(self, game_id: str, number: int, token: str) -> Any:
        """`POST …/game/{id}/decision`: `number` is the state's `ply`, or the seat's own
        `seqs` entry in a game whose seats decide at once; the answer carries the frame."""
        return self.post(f"/api/{self.door}/game/{game_id}/decision",
                         {"ply": number, "token": token})

    def resign(self, game_id: str, ply: int | None = None) -> Any:
        """`POST …/game/{id}/resign`."""
        return self.post(f"/api/{self.door}/game/{game_id}/resign",
                         {} if ply is None else {"ply": ply})

    def queue(self, game_id: str, key: str, steps: list[str]) -> Any:
        """`POST …/game/{id}/queue`: a Cargo Express seat's pre-turn (`legal.next`)."""
        return self.post(f"/api/{self.door}/game/{game_id}/queue",
                         {"key": key, "steps": steps})


def _refusal(e: urllib.error.HTTPError) -> ApiError:
    raw = e.read()
    try:
        body = json.loads(raw)
    except ValueError:
        body = raw.decode("utf-8", "replace")
    if isinstance(body, dict):
        return ApiError(e.code, str(body.get("code", "")), str(body.get("error", "")), body)
    return ApiError(e.code, "", str(body)[:200], body)
