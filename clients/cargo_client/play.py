"""Playing through the API: one game followed on its stream and answered by an engine
(`GamePlayer`), and an account's games found on its event stream (`EventRunner`).

A game: the stream's first line is the seat's whole state; each later line is a frame
whose state (whole, or a diff of the one held) replaces it. Whenever the seat is among the
`acting` seats with a decision number it has not answered yet (`ply`, or its own `seqs`
entry where seats decide at once), the engine decides from that state and the decision is
posted. A `stale_ply` or `not_your_turn` refusal means the state moved on meanwhile: the
stream brings the new one. Any other refusal stops the game's loop with its `ApiError`.
The stream closes when the game ends; one that closes or fails before (the site's channel
layer went away, the connection broke, a diff from another state) is opened again and
starts with the whole state; a decision whose request failed is decided and sent again
(the site answers a resent one with its frame and writes nothing)."""

from __future__ import annotations

import http.client
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cargo_client.api import ApiError, Client
from cargo_client.engines import Engine
from cargo_client.held import HeldState, OutOfStep

log = logging.getLogger("cargo_client")

RETRIED = ("stale_ply", "not_your_turn")  # the state moved on: wait for the stream's


@dataclass(frozen=True)
class Sent:
    """One decision posted: its number and token, and the site's answer (`code` None:
    accepted)."""

    number: int
    token: str
    status: int
    code: str | None = None


@dataclass
class Outcome:
    """How a followed game ended for the client: the seat it played (None: a spectator),
    the last state held, the decisions it sent and the connections it opened."""

    game_id: str
    seat: int | None
    state: dict[str, Any] | None
    sent: list[Sent] = field(default_factory=list)
    connections: int = 0

    @property
    def over(self) -> bool:
        state = self.state or {}
        return state.get("status", "active") != "active" or bool(state.get("over"))


class GamePlayer:
    """Plays `engine`'s seat of one game. `on_line`, if given, sees every decoded line of
    the stream as it arrived (keep-alives aside), before the client acts on it."""

    def __init__(self, client: Client, game_id: str, engine: Engine, *,
                 on_line: Callable[[dict[str, Any]], None] | None = None,
                 max_reconnects: int = 5, pause: float = 1.0) -> None:
        self.client = client
        self.game_id = game_id
        self.engine = engine
        self.on_line = on_line
        self.max_reconnects = max_reconnects
        self.pause = pause
        self.held = HeldState()
        self.answered = -1  # the highest decision number posted

    def play(self) -> Outcome:
        """Follow the game to its end; only its first state if the token's member holds
        no seat there or the engine plays another game type."""
        outcome = Outcome(self.game_id, None, None)
        failures = 0
        while failures <= self.max_reconnects:
            outcome.connections += 1
            progressed = self._follow(outcome)
            outcome.seat, outcome.state = self.held.seat, self.held.state
            if self.held.over or (self.held.state is not None and not self._plays()):
                return outcome
            failures = 0 if progressed else failures + 1
            log.info("game %s: the stream closed early; opening it again", self.game_id)
            time.sleep(self.pause * failures)
        raise ConnectionError(f"game {self.game_id}: the stream kept closing before the end")

    def _plays(self) -> bool:
        """A seat of the token's member, in a game of the engine's type."""
        state = self.held.state or {}
        return self.held.seat is not None and state.get("game_type") == self.engine.game_type

    def _follow(self, outcome: Outcome) -> bool:
        """One connection of the game stream, until it closes, fails or goes out of step;
        whether it brought a frame after its first state."""
        self.held.reset()
        frames = 0
        try:
            for frame in self.client.game_stream(self.game_id):
                if frame is None:
                    continue
                frames += 1
                if self.on_line is not None:
                    self.on_line(frame)
                self.held.take(frame)
                if self.held.state is not None and not self._plays():
                    return True  # a spectator, or another game: nothing to play
                if self.held.must_decide and self.held.number > self.answered:
                    self._decide(outcome)
        except (OutOfStep, OSError, http.client.HTTPException) as e:
            log.info("game %s: %s; reconnecting", self.game_id, e)
        return frames > 1

    def _decide(self, outcome: Outcome) -> None:
        state, seat, number = self.held.state, self.held.seat, self.held.number
        assert state is not None and seat is not None
        token = self.engine.decide(state, seat)
        self.answered = number
        try:
            self.client.decision(self.game_id, number, token)
        except (OSError, http.client.HTTPException):
            self.answered = number - 1  # unanswered: decided again (a resend is harmless)
            raise
        except ApiError as e:
            outcome.sent.append(Sent(number, token, e.status, e.code))
            if e.code not in RETRIED:
                raise
            log.info("game %s: decision %d %s refused (%s); waiting for the stream",
                     self.game_id, number, token, e.code)
            self.answered = number - 1
            return
        outcome.sent.append(Sent(number, token, 200))
        log.debug("game %s: decision %d %s", self.game_id, number, token)


class EventRunner:
    """Reads the account's event stream and plays, each in a thread of its own, the games
    it names (`gameStart`, a started table's `seek_accepted`, a notification's game) whose
    type the engine plays, at most `max_games` at once."""

    def __init__(self, client: Client, engine: Engine, *, max_games: int = 4) -> None:
        self.client = client
        self.engine = engine
        self.max_games = max_games
        self.playing: dict[str, threading.Thread] = {}
        self.outcomes: dict[str, Outcome | BaseException] = {}

    def run(self, stop: Callable[[], bool] = lambda: False, pause: float = 5.0) -> None:
        """Until `stop()` says so (asked after each line): a stream that closes or a
        connection that fails is opened again after `pause` seconds; a refusal (a revoked
        token) ends the run with its `ApiError`."""
        while not stop():
            try:
                for event in self.client.event_stream():
                    if event is not None:
                        self.offer(event)
                    if stop():
                        return
            except OSError as e:
                log.warning("the event stream failed (%s); opening it again", e)
            time.sleep(pause)

    def offer(self, event: dict[str, Any]) -> str | None:
        """Start playing the game an event names, if it is new and of the engine's type;
        the game's id, or None."""
        game_id = game_of(event, self.engine.game_type)
        self.playing = {g: t for g, t in self.playing.items() if t.is_alive()}
        if game_id is None or game_id in self.playing or game_id in self.outcomes:
            return None
        if len(self.playing) >= self.max_games:
            log.warning("game %s left: already playing %d games", game_id, len(self.playing))
            return None
        thread = threading.Thread(target=self._play, args=(game_id,), daemon=True,
                                  name=f"cargo-game-{game_id}")
        self.playing[game_id] = thread
        thread.start()
        return game_id

    def _play(self, game_id: str) -> None:
        try:
            self.outcomes[game_id] = GamePlayer(self.client, game_id, self.engine).play()
        except Exception as e:  # one game's failure never stops the others
            log.exception("game %s stopped", game_id)
            self.outcomes[game_id] = e

    def join(self, timeout: float | None = None) -> None:
        """Wait for the games being played."""
        for thread in list(self.playing.values()):
            thread.join(timeout)


def game_of(event: dict[str, Any], game_type: str) -> str | None:
    """The game an event names for an engine of `game_type` (None: none, or another type's).
    A `gameStart` says its type; the other events do not, and the game's own stream tells
    (a game of another type then fails the engine's first decision)."""
    kind = event.get("type")
    if kind == "gameStart":
        game = event.get("game") or {}
        return str(game["id"]) if game.get("game_type") == game_type else None
    if kind == "seek_accepted" and isinstance(event.get("game"), str):
        return str(event["game"])
    if kind == "notification" and event.get("kind") != "game_ended":
        url = str(event.get("url") or "")
        if url.startswith("/g/") and url[3:].isalnum():
            return url[3:]
    return None
