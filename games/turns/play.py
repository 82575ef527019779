"""Live play: making a game, applying a seat's decision, resigning, rematches.

`apply_turn` is the one apply path for people and bots (a bot's task acts as
`Actor.bot(level)`). With the fast path on (games.fast), the common turn is applied to the
process's warm copy of the game and stored by one conditional write that holds only if
nothing changed the game since (games.fast.turns); anything else, and every turn with it
off, takes the locked path: inside one transaction it locks the game row, checks the seat
and the ply, lets the game kind apply the decision, stores the `Turn` and the cache, ends
the game through `games.turns.finish` when it is over. Either way the frame is sent after commit
(games.turns.applied). A resent turn for an applied ply gets the same frame back; anything else
stale is refused with the state.
A timed game's clocks are charged with the turn and saved in its write (`games.timing.timeouts`);
a turn that arrives after its clock fell ends the game on time instead.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction

from games import signals
from games.actors import Actor, SessionGuard, seat_of
from games.botplay import bots
from games.fast import turns as fast_turns
from games.fast import warm
from games.frames import away, metrics
from games.frames.audiences import frame_viewer, seat_changed_on_commit, send_on_commit_to_all
from games.frames.protocol import Code, GameError, SignedOut
from games.frames.states import frame_state, rematch_info, state_of
from games.kinds import KindError, LiveGame, Result, get_kind
from games.models import Game, Seat, Turn
from games.records.history import turn_frames
from games.timing import clocks, correspondence, timeouts
from games.turns import finish, preturns
from games.turns.applied import TurnResult, advanced, sent
from games.turns.store import live, lock_game

Termination = Game.Termination
log = logging.getLogger(__name__)


def create_game(*, game_type: str, seats: Sequence[Actor | None], options: dict[str, Any],
                mode: str = Game.Mode.ONLINE, rated: bool = True,
                rules: str | None = None, bot_seed: int | None = None,
                time_control: str = clocks.UNTIMED) -> Game:
    """A new game of `game_type` from its start, with `seats` held by these actors in
    order (None: an empty seat). If a bot is to move first, its task is sent once the
    game is committed. A short unguessable id is retried on collision. The bots' seed is
    drawn from `secrets` unless `bot_seed` is given (the Daily Challenge's seed of the day,
    so everyone meets the same CargoBot). `time_control` is a `games.timing.clocks` code ("" for
    untimed); bot seats get no clock."""
    try:
        kind = get_kind(game_type)
        if len(seats) not in kind.seat_counts:
            raise KindError(f"{kind.name} is played by "
                            f"{' or '.join(map(str, kind.seat_counts))}, not {len(seats)}")
        options = kind.check_options(options)
        rules = rules or kind.rules_version
        start = kind.new(options, len(seats), rules)
        clock = clocks.new_game_clock(time_control, [
            actor is None or actor.kind != "bot" for actor in seats])
        control = clocks.parse(time_control) if clock else None
    except (KindError, ValueError) as e:
        raise GameError(Code.BAD_REQUEST, str(e)) from None
    has_bot = any(actor is not None and actor.kind == "bot" for actor in seats)
    if bot_seed is not None and not 0 <= bot_seed < 2 ** 63:
        raise GameError(Code.BAD_REQUEST, "a bot seed is a non-negative 63-bit integer")
    for _ in range(5):
        try:
            with transaction.atomic():
                game = Game.objects.create(
                    game_type=game_type, mode=mode, rated=rated, rules=rules, options=options,
                    start=start, position=start,
                    bot_seed=(secrets.randbits(48) if bot_seed is None else bot_seed)
                    if has_bot else None,
                    bot_version=kind.bot_version if has_bot else "",
                    time_control=control.code if control else "", clock=clock,
                )
                game.set_seats(Seat.objects.bulk_create([
                    Seat(game=game, index=i, **(actor.seat_fields() if actor else {}))
                    for i, actor in enumerate(seats)
                ]))
                fields = bots.after_change(game, live(game))
                if fields:
                    game.save(update_fields=fields)
                    bots.send_task_on_commit(game)
                signals.turn_passed.send(__name__, game=game, live=None, decided=None)
                return game
        except IntegrityError:  # pragma: no cover - a 10-character base62 id collided
            continue
    raise RuntimeError("could not find a free game id")


def seat_or_refuse(game: Game, actor: Actor | None, what: str) -> int:
    """The seat `actor` holds, or `not_a_player` (the one refusal of a decision by someone
    without a seat: turns, resigns, rematches, aborts, claims)."""
    seat = seat_of(game, actor)
    if seat is None:
        # Nothing of the game (not even its ply): it may be hidden from them (games.access).
        raise GameError(Code.NOT_A_PLAYER, f"only the players may {what}")
    return seat


@timeouts.flag_when_fallen
def apply_turn(game_id: str, *, actor: Actor | None, ply: int, token: str,
               guard: SessionGuard | None = None) -> TurnResult:
    """Play `token` at `ply` for the seat `actor` holds. Exactly once per ply. A socket's
    turn carries its session's `guard`: a session that has ended acts for no one."""
    result = fast_turns.apply_warm(game_id, actor, ply, token, guard)  # the fast path
    if result is not None:
        return result
    return _apply_locked(game_id, actor, ply, token, guard)


def _apply_locked(game_id: str, actor: Actor | None, ply: int, token: str,
                  guard: SessionGuard | None) -> TurnResult:
    """Any turn, with the game row locked and read afresh: resent and stale turns, the
    turn that ends the game, and any the warm copy could not decide. `ply` is the number
    the decision carries: the game's ply, or with seat sequences the seat's own count
    (`LiveGame.sequence`), so that seats deciding at the same time are each applied."""
    with transaction.atomic():
        game = lock_game(game_id)
        if guard is not None and not guard.holds():
            raise SignedOut()
        seat = seat_or_refuse(game, actor, "play")
        lg = live(game)
        expected = lg.sequence(seat)
        if ply < expected:
            frame = _resent(game, seat, ply, token)
            if frame is not None:
                return TurnResult(frame, duplicate=True, heard=timeouts.flagged_in_this_call(
                    game.id, frame["ply"]))
            raise GameError(Code.STALE_PLY, _stale(game, ply, expected, True), game.ply,
                            state_of(game, lg, viewer=seat))
        if game.is_over:
            raise GameError(Code.GAME_OVER, "the game is over", game.ply)
        if ply != expected:
            raise GameError(Code.STALE_PLY, _stale(game, ply, expected, False), game.ply,
                            state_of(game, lg, viewer=seat))
        timeouts.refuse_if_fallen(game)
        acting = lg.acting()
        if not lg.deciding(seat):
            names = " or ".join(game.kind.seat_key(s) for s in acting)
            raise GameError(Code.NOT_YOUR_TURN, f"it is {names}'s turn", game.ply)
        try:
            events = lg.apply(seat, token)
        except KindError as e:
            raise GameError(Code.ILLEGAL, str(e), game.ply) from None
        timeouts.decided_itself(game, seat)
        transaction.on_commit(lambda: metrics.turn_applied("locked"))
        return _stored(game, lg, seat, token, events)


def _stored(game: Game, lg: LiveGame, seat: int, token: str, events: list[Any]
            ) -> TurnResult:
    """A decision just applied to `lg`, in the transaction that locked `game`: stored
    (`_store`), then any pre-turn due at the turn it began played (games.turns.preturns); the
    game kept warm after the commit."""
    result = _store(game, lg, seat, token, events)
    preturns.play_due(game, lg, lambda s, t, e: _store(game, lg, s, t, e))
    # Warm once committed and the frames sent (`sent`'s own on_commit, before this one).
    transaction.on_commit(lambda: warm.keep(game, lg))
    return result


def _store(game: Game, lg: LiveGame, seat: int, token: str, events: list[Any]
           ) -> TurnResult:
    """One decision applied to `lg`: its `Turn` stored, the row's cache and clocks saved
    (through the finish seam if the game is now over), its frame sent once committed."""
    turn = Turn.objects.create(game=game, ply=game.ply, token=token, seat=seat,
                               events=events)
    fields = advanced(game, lg, seat)
    if lg.over:
        finish.finish(game, lg, Termination.PLAYED_OUT, fields)
    else:
        game.save(update_fields=fields)
    return sent(game, turn, lg)


def _resent(game: Game, seat: int, number: int, token: str) -> dict[str, Any] | None:
    """The frame a resent decision gets again (for its seat's eyes), or None if `seat`'s
    decision `number` was not `token`."""
    turns = game.turns.filter(seat=seat).order_by("ply")
    if game.kind.seat_sequences:
        turn = turns[number:number + 1].first()
    else:
        turn = turns.filter(ply=number).first()
    if turn is None or turn.token != token:
        return None
    viewer = frame_viewer(game, seat)
    return turn_frames(game, turn.ply, before=turn.ply + 1, viewer=viewer)[0]


def _stale(game: Game, number: int, expected: int, played: bool) -> str:
    if not game.kind.seat_sequences:
        return (f"ply {number} was already played; the game is at ply {game.ply}" if played
                else f"the game is at ply {game.ply}, not {number}")
    return (f"your decision {number} was already made; your next is {expected}" if played
            else f"your next decision is {expected}, not {number}")


def decide_for_seat(game: Game, lg: LiveGame, seat: int, token: str) -> TurnResult:
    """The site decides for `seat` in a game the caller's transaction has locked (its
    clock fell: the kind's `timeout_decision`, games.timing.timeouts): applied, stored, charged
    and sent as any turn of the locked path. KindError if the kind refuses it."""
    events = lg.apply(seat, token)
    return _stored(game, lg, seat, token, events)


@timeouts.flag_when_fallen
def resign(game_id: str, *, actor: Actor | None, ply: int | None = None) -> dict[str, Any]:
    """A player resigns at any time during the game (`ply` is what their client knew);
    after their clock or their opponent's fell, the flag counts instead."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat = seat_or_refuse(game, actor, "resign")
        timeouts.refuse_if_fallen(game)
        return _resign(game, seat, Termination.RESIGNED)


def resign_seat(game_id: str, seat: int, termination: str = Termination.RESIGNED
                ) -> dict[str, Any]:
    """The site resigns for a seat: the Daily Challenge at the end of its day
    (`Termination.DAY_ENDED`), a clock that ran out (`TIMED_OUT`)."""
    with transaction.atomic():
        game = lock_game(game_id)
        if not 0 <= seat < len(game.seat_list):
            raise GameError(Code.BAD_REQUEST, f"no seat {seat} in this game", game.ply)
        return _resign(game, seat, termination)


def leave(game: Game, seat: int, termination: str, *, answer: int | None = None,
          reason: str | None = None) -> dict[str, Any]:
    """In a transaction that locked `game`: the site puts `seat` out (its clock timed out
    twice in a row or ran out, games.timing.timeouts; a present player claimed it,
    games.timing.abandonment), as if it resigned: a bot plays the seat on or it goes dormant, as
    the kind says, or with two seats the game ends. `reason` is why (`Seat.LEFT_REASONS`;
    by default the termination's). The frame returned is built for seat `answer`
    (default: `seat`)."""
    return _resign(game, seat, termination, answer, reason)


# Why a holder left, by the termination that put them out (`Seat.LEFT_REASONS`).
LEFT_BY: dict[str, str] = {Termination.TIMED_OUT: "out_of_time", Termination.ABANDONED: "away"}


def _resign(game: Game, seat: int, termination: str, answer: int | None = None,
            reason: str | None = None) -> dict[str, Any]:
    if game.is_over:
        raise GameError(Code.GAME_OVER, "the game is over", game.ply)
    lg = live(game)
    level = game.kind.leaver_stand_in
    row = game.seat_list[seat]
    if level and len(game.seat_list) > 2 and not row.playing_level and not row.resigned:
        left = {"ply": game.ply, "reason": reason or LEFT_BY.get(termination, "resigned"),
                "round": lg.round_now(),
                # the order of leaving, for the places: several may leave at one ply
                "order": sum(1 for s in game.seat_list if s.left)}
        if game.rated and _last_person(game, seat) and _started(game, lg):
            return _last_person_left(game, lg, seat, termination, left, answer)
        return _hand_to_bot(game, lg, seat, level, left, answer)
    try:
        events = lg.resign(seat)
    except KindError as e:
        raise GameError(Code.GAME_OVER, str(e), game.ply) from None
    game.position = lg.position()  # a kind may move on without the seat (a reveal)
    fields = ["position", *bots.after_change(game, lg)]
    if lg.over:
        finish.finish(game, lg, termination, fields)
    else:  # a game of several seats goes on without this one
        Seat.objects.filter(game=game, index=seat).update(resigned=True)
        game.seat_list[seat].resigned = True
        game.save(update_fields=[*fields, *timeouts.after_seat_out(game, lg)])
    sent = send_on_commit_to_all(game, lambda viewer: {
        "type": "resigned", "ply": game.ply, "seat": seat, "side": game.kind.seat_key(seat),
        "events": lg.events_for(events, viewer), "state": frame_state(game, lg, viewer)})
    bots.send_task_on_commit(game)
    preturns.drop(game, seat, "you left the game")
    preturns.play_due(game, lg, lambda s, t, e: _store(game, lg, s, t, e))
    return sent.frame(seat if answer is None else answer)


def _hand_to_bot(game: Game, lg: LiveGame, seat: int, level: str, left: dict[str, Any],
                 answer: int | None) -> dict[str, Any]:
    """A holder leaves a game of more than two seats whose kind hands the seat to a bot
    while other people play on: the bot plays the seat on from now (its decisions as any
    bot's, games.botplay.bots), the holder no longer acts for it and takes one of the last places
    when the game ends (`finish.finish`). When and why (`left`) is kept on the seat and
    told as the kind's public event (`LiveGame.seat_left`: Cargo Express logs it in the
    round). The seat's clock stops: a bot has none."""
    row = game.seat_list[seat]
    row.stand_in, row.resigned, row.left = level, True, left
    Seat.objects.filter(game=game, index=seat).update(stand_in=level, resigned=True,
                                                      left=left)
    game.__dict__.pop("_seats_info", None)  # the seat's holder info changed
    preturns.drop(game, seat, "a bot plays this seat now")
    events = lg.seat_left(seat, {**left, "bot": level, "name": game.kind.bot_name(level),
                                 "why": Seat.LEFT_REASONS.get(left["reason"], "left")})
    game.position = lg.position()  # the kind's log of the round holds the event
    fields = ["position", *bots.after_change(game, lg),
              *timeouts.seat_without_clock(game, lg, seat)]
    if all(s.bot_level or s.stand_in for s in game.seat_list):
        _everyone_left(game, lg, fields)
    else:
        game.save(update_fields=fields)
    # The seat's own audience hears it as a spectator would: only the leaver's sockets are
    # in it, and from now on the seat is the bot's. They then move to a spectator's
    # audience, before anything the bot decides for the seat is sent (games.frames.audiences).
    sent = send_on_commit_to_all(game, lambda viewer: {
        "type": "resigned", "ply": game.ply, "seat": seat, "side": game.kind.seat_key(seat),
        "events": lg.events_for(events, None if viewer == seat else viewer),
        "state": frame_state(game, lg, None if viewer == seat else viewer)})
    seat_changed_on_commit(game, seat)
    bots.send_task_on_commit(game)
    return sent.frame(seat if answer is None else answer)


def _last_person(game: Game, seat: int) -> bool:
    """Is `seat`'s holder the last person still playing (every other seat a bot's)?"""
    return all(s.bot_level or s.stand_in for s in game.seat_list if s.index != seat)


def _started(game: Game, lg: LiveGame) -> bool:
    """Has every seat moved (the game can no longer be aborted, games.timing.abandonment)?"""
    return away.started(game, lg)


def _last_person_left(game: Game, lg: LiveGame, seat: int, termination: str,
                      left: dict[str, Any], answer: int | None) -> dict[str, Any]:
    """The last person at the table leaves (resigns, times out) a rated game every seat
    has moved in: it is scored at once as it stands, every leaver placed last (web.md 4,
    rule 71; docs/express-site.md, "When the last person leaves"). No bot takes the seat: its
    holder is out, the last of the leavers to go, so the first of them in the places
    (`finish._leavers_last`). The seats that no one left rank first, by the standings."""
    row = game.seat_list[seat]
    row.resigned, row.left = True, left
    Seat.objects.filter(game=game, index=seat).update(resigned=True, left=left)
    preturns.drop(game, seat, "you left the game")
    scores = tuple(lg.standing() or tuple(0 for _ in game.seat_list))
    places = tuple(1 + sum(other > mine for other in scores) for mine in scores)
    game.position = lg.position()
    game.bot_waiting_since = None  # the game ends here: no bot is waited on
    fields = ["position", "bot_waiting_since"]
    finish.finish(game, lg, termination, fields, result=Result(scores=scores, places=places))
    kind = "resigned" if termination == Termination.RESIGNED else "ended"  # as for 2 seats
    sent = send_on_commit_to_all(game, lambda viewer: {
        "type": kind, "ply": game.ply, "termination": termination, "seat": seat,
        "side": game.kind.seat_key(seat), "events": [],
        "state": frame_state(game, lg, viewer)})
    return sent.frame(seat if answer is None else answer)


def _everyone_left(game: Game, lg: LiveGame, fields: list[str]) -> None:
    """Every person at the table has left (web.md 4): a casual game is aborted, whenever
    it happens; a rated one that not every seat has moved in yet ends as it stands, every
    leaver in last place (`finish`), with no bot left to play. (A rated game every seat has
    moved in ends on the standings as its last person leaves: `_last_person_left`.)"""
    if not game.rated:
        finish.abort_game(game, lg, None, fields)
        return
    scores = lg.standing() or tuple(0 for _ in game.seat_list)
    places = tuple(1 + sum(other > mine for other in scores) for mine in scores)
    finish.finish(game, lg, Termination.ABANDONED, fields,
                  result=Result(scores=tuple(scores), places=places))


def offer_rematch(game_id: str, *, actor: Actor | None) -> dict[str, Any]:
    """After a game: a player offers, another player accepting starts a new game with the
    seats turned by one (Blue and Orange swap). Bots accept at once. Pushed to the game's
    group as a `rematch` frame."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat = seat_or_refuse(game, actor, "offer a rematch")
        if not game.is_over:
            raise GameError(Code.GAME_NOT_OVER, "a rematch is offered after the game", game.ply)
        if game.mode == Game.Mode.DAILY:  # its games are started by the Daily Challenge
            raise GameError(Code.BAD_REQUEST, "a Daily Challenge game has no rematch: start "
                            "another from the Daily Challenge page", game.ply)
        if game.rematch_id is None:
            if actor is not None and actor.user_id is not None:  # offering or accepting
                correspondence.refuse_past_cap(actor.user_id, game.time_control)
            others = [i for i in game.human_seats if i != seat]
            if game.rematch_offered_by is None:
                game.rematch_offered_by = seat
                if others:
                    signals.rematch_offered.send(__name__, game=game, seat=seat)
            if not others or game.rematch_offered_by != seat:
                game.rematch = _rematch_of(game)
            game.save(update_fields=["rematch_offered_by", "rematch"])
        lg = live(game)
        sent = send_on_commit_to_all(game, lambda viewer: {
            "type": "rematch", "ply": game.ply, "rematch": rematch_info(game),
            "state": frame_state(game, lg, viewer)})
    return sent.frame(seat)


def _rematch_of(game: Game) -> Game:
    holders = [_actor_of_seat(s) for s in game.seat_list]
    turned = holders[-1:] + holders[:-1]
    return create_game(game_type=game.game_type, seats=turned, options=game.options,
                       mode=game.mode, rated=game.rated, rules=game.rules,
                       time_control=game.time_control)


def _actor_of_seat(seat: Seat) -> Actor | None:
    if seat.bot_level:
        return Actor.bot(seat.bot_level)
    if seat.user is not None:
        return Actor.member(seat.user)
    if seat.guest_key:
        return Actor.guest(seat.guest_key)
    return None
