"""Pre-turns (issue #26, web.md 3.3): a seat waiting for its next turn queues that turn's
steps, and the server plays them at the turn's reveal.

- **Queueing** (`queue`): a seat whose kind says it may queue now (`LiveGame.queue_key`:
  Cargo Express, in the action phase, while the seat waits for a turn of this round) sends
  the key of that turn and its steps; the kind checks them against the seat's choices as if
  the card were revealed now (`LiveGame.check_queue`). Sending no steps cancels. The queue
  is a `PreTurn` row, that seat's secret: the confirmation (`queued`) goes to that seat's
  own audience only and carries no revision (the game row does not change, so no other
  connection can tell that anything happened).
- **Playing** (`play_due`, in the transaction of the decision that revealed the card, on
  the locked path only: the fast path leaves every decision that begins a person's turn to
  it, games.fast.turns): the queued steps are that seat's decisions, applied one at a time
  through the same store as any decision (a `Turn` each, the clocks charged, every
  audience's frame), until the first one that is illegal now (it and the rest are dropped,
  the seat decides by hand with its clock running), the first whose events showed
  something new (`LiveGame.reveals`: the rest are dropped), the turn's end or the game's.
  The queue is deleted either way and its seat is told what was played and dropped.
- A queue for a turn that did not come as queued (the turn was lost, the round moved on)
  is dropped the next time a turn begins; a seat a bot plays on has none (`drop`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction

from games.actors import Actor, seat_of
from games.frames.audiences import seat_group
from games.frames.broadcast import send_on_commit
from games.frames.protocol import Code, GameError
from games.frames.states import state_of
from games.kinds import Event, KindError, LiveGame
from games.models import Game, PreTurn
from games.timing import timeouts
from games.turns.applied import TurnResult
from games.turns.store import live, lock_game

Store = Callable[[int, str, list[Event]], TurnResult]
MAX_STEPS = 12
MAX_KEY = 16


def queue(game_id: str, *, actor: Actor | None, key: str, steps: list[str]
          ) -> dict[str, Any]:
    """Queue `steps` for the next turn (`key`) of the seat `actor` holds, replacing any
    queued before; no steps cancel. The `queued` frame, sent to that seat's connections."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat = seat_of(game, actor)
        if seat is None or (actor is not None and actor.kind == "bot"):
            raise GameError(Code.NOT_A_PLAYER, "only the players may queue a turn")
        if game.is_over:
            raise GameError(Code.GAME_OVER, "the game is over", game.ply)
        if not game.kind.hidden_information:
            raise GameError(Code.BAD_REQUEST, "this game has no pre-turns", game.ply)
        if game.seat_list[seat].playing_level:
            raise GameError(Code.BAD_REQUEST, "a bot plays this seat now", game.ply)
        lg = live(game)
        now = lg.queue_key(seat)
        if now != key:
            raise GameError(Code.STALE_PLY, _stale(key, now), game.ply,
                            state_of(game, lg, viewer=seat))
        if steps:
            try:
                lg.check_queue(seat, steps)
            except KindError as e:
                raise GameError(Code.ILLEGAL, str(e), game.ply) from None
            PreTurn.objects.update_or_create(game=game, seat=seat,
                                             defaults={"key": key, "steps": steps})
        else:
            PreTurn.objects.filter(game=game, seat=seat).delete()
        recount(game)
        frame = {"type": "queued", "key": key, "steps": list(steps)}
        send_on_commit(seat_group(game.id, seat), frame)
        return frame


def recount(game: Game) -> None:
    """In a transaction that locked `game`: its count of queued turns
    (`Game.queued_turns`) made true again, in the row and in `game`, without a revision."""
    count = PreTurn.objects.filter(game=game).count()
    if count != game.queued_turns:
        Game.objects.filter(pk=game.pk).update(queued_turns=count)
        game.queued_turns = count


def _stale(key: str, now: str | None) -> str:
    if now is None:
        return ("a turn is queued while you wait for it in the action phase; "
                f"turn {key} cannot be queued now")
    return f"your next turn is {now}, not {key}"


def queued_for(game: Game, lg: LiveGame, seat: int | None) -> dict[str, Any] | None:
    """`seat`'s queue if it is for the turn it waits for now (a snapshot's `queued`)."""
    if seat is None or not game.kind.hidden_information:
        return None
    key = lg.queue_key(seat)
    if key is None:
        return None
    row = PreTurn.objects.filter(game=game, seat=seat, key=key).first()
    return None if row is None else {"key": row.key, "steps": row.steps}


def with_queue(state: dict[str, Any], game: Game, seat: int | None,
               lg: LiveGame | None = None) -> dict[str, Any]:
    """A snapshot for `seat` with its own queue (`queued`), for the kinds that hide
    information (the only ones whose frames reach one seat alone)."""
    if game.kind.hidden_information and seat is not None:
        state["queued"] = queued_for(game, live(game) if lg is None else lg, seat)
    return state


def drop(game: Game, seat: int, reason: str) -> None:
    """In a transaction that locked `game`: `seat`'s queue goes (a bot plays it on). No
    query for a kind that hides nothing (it has no queues)."""
    if not game.kind.hidden_information or not game.queued_turns:
        return
    for row in PreTurn.objects.filter(game=game, seat=seat):
        row.delete()
        _tell(game, seat, row.key, [], row.steps, reason)
    recount(game)


def play_due(game: Game, lg: LiveGame, store: Store) -> None:
    """In the transaction of a decision just stored: while a turn has just begun, its
    seat's queue played (see the module's doc), and queues for turns that will not come
    dropped. No query unless a turn has just begun while a queue exists."""
    try:
        _play_due(game, lg, store)
    finally:
        if game.queued_turns:
            recount(game)


def _play_due(game: Game, lg: LiveGame, store: Store) -> None:
    while not lg.over:
        begun = lg.turn_key()
        if begun is None or not game.queued_turns:
            return
        rows = {row.seat: row for row in PreTurn.objects.filter(game=game)}
        if not rows:
            return
        seat, key = begun
        for other, stale in rows.items():
            if other != seat and stale.key != lg.queue_key(other):
                stale.delete()
                _tell(game, other, stale.key, [], stale.steps, "that turn did not come as "
                      "queued (a card you could not use, or the round moved on)")
        if seat not in rows:
            return
        row = rows[seat]
        row.delete()
        if row.key != key:
            _tell(game, seat, row.key, [], row.steps, "that turn did not come as queued")
            return
        if game.seat_list[seat].playing_level:
            _tell(game, seat, key, [], row.steps, "a bot plays this seat now")
            return
        played, dropped, reason = _play(game, lg, seat, key, list(row.steps), store)
        _tell(game, seat, key, played, dropped, reason)


def _play(game: Game, lg: LiveGame, seat: int, key: str, steps: list[str], store: Store
          ) -> tuple[list[str], list[str], str]:
    """The queued steps applied as `seat`'s decisions: those played, those dropped, and
    why they were dropped."""
    played: list[str] = []
    for i, step in enumerate(steps):
        if lg.over or not lg.in_turn(seat, key):  # the turn ended by itself (`end` left)
            break
        try:
            events = lg.apply(seat, step)
        except KindError as e:
            return played, steps[i:], f"{step!r} was no longer legal: {e}"
        timeouts.decided_itself(game, seat)
        store(seat, step, events)
        played.append(step)
        rest = steps[i + 1:]
        if rest and lg.reveals(events) and lg.in_turn(seat, key):
            return played, rest, f"{step!r} showed something new: the rest is yours to choose"
    return played, [], ""


def _tell(game: Game, seat: int, key: str, played: list[str], dropped: list[str],
          reason: str) -> None:
    """The seat's queue is gone: its own connections are told what was played of it."""
    send_on_commit(seat_group(game.id, seat), {
        "type": "queued", "key": key, "steps": [], "played": played, "dropped": dropped,
        "reason": reason})
