"""The tournaments app's public functions: creating a tournament, joining, withdrawing, the
rounds and the standings. Views, the admin and tasks call these and nothing below them.

This module owns the entries' side: `create_tournament` (every check before anything is
written: a refusal is a `TournamentError` in words and changes nothing), `join` and
`withdraw`, each in one transaction holding the tournament (`rounds.locked`). The rounds'
side (starting, finishing, forfeits, the tick, the finish seam's handler) is
`tournaments.rounds`; the standings, computed from the stored games, `tournaments.standings`.
Games are made, resigned and ended through `games.services` only; what they tell their
players (frames, notifications) is sent by games after commit. A join or a withdrawal
re-renders the page's standings for its sockets after commit (`tournaments.live`).

Decided here (docs/tournaments.md):
- A late joiner is welcome while a round remains: they are paired from the next round and
  score nothing for the rounds before.
- Withdrawing before the first round removes the entry (the member may join again);
  withdrawing later keeps it (its games count for the opponents), the game being played
  goes on, and the member may not join that tournament again.
- Entries are members only: none of the site's own bots plays in a tournament (a rated
  one refuses `bots_allowed`). A BOT account (a member playing through the API, issue
  #47: `games.titles.is_bot`) enters only a tournament with `bots_allowed`, which is never
  a rated one: a rated tournament bars bots, as lichess's do.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.utils import timezone

from games import titles
from games.kinds import KindError, get_kind
from games.timing import clocks
from rankings.ratings import host_ratings
from tournaments import arenas, live
from tournaments.models import Entry, Tournament
from tournaments.rounds import TournamentError, advance, round_finished, start_round, tick
from tournaments.standings import Line, standings

__all__ = ["Line", "TournamentError", "advance", "berserk", "berserk_game",
           "check_tournament",
           "create_tournament", "join", "pause", "resume", "round_finished", "standings",
           "start_now", "start_round", "tick", "withdraw"]

berserk, berserk_game = arenas.berserk, arenas.berserk_game
pause, resume = arenas.pause, arenas.resume

MAX_ROUNDS = 15
ROUND_PAUSE = 60  # seconds between a Swiss's rounds unless chosen: time to see the standings
MAX_ROUND_PAUSE = 600
MAX_PLAYERS = 256
MEMBER_OPEN_TOURNAMENTS = 2  # a member's scheduled or running tournaments at once
NAME_LENGTH = 80


def check_tournament(*, name: str, game_type: str, rounds: int, time_control: str = "",
                     rated: bool = True, max_players: int = 64, table_size: int | None = None,
                     bots_allowed: bool = False, options: dict[str, Any] | None = None,
                     system: str = Tournament.System.SWISS, duration: int | None = None,
                     berserk: bool = True, round_pause: int | None = None
                     ) -> dict[str, Any]:
    """The rules of a tournament's settings, in one place (`create_tournament` and the
    admin's schedules both use it): the fields as stored (the kind's key, its checked
    options, the clock's code, the table size), or a TournamentError in words. Reads no
    row. An arena (`system` "arena") has a `duration` in minutes instead of rounds (its
    `rounds` are stored as 0), a live time control and two seats
    (`tournaments.arenas.check_arena`). `round_pause`: a Swiss's seconds between rounds,
    0 to `MAX_ROUND_PAUSE`; None is the default, `ROUND_PAUSE` for a live or untimed Swiss
    and none for a correspondence one (an arena has no rounds: 0)."""
    name = (name or "").strip()
    if not name or len(name) > NAME_LENGTH:
        raise TournamentError(f"a tournament needs a name of 1 to {NAME_LENGTH} characters")
    try:
        kind = get_kind(game_type)
        options = kind.check_options(options or {})
    except (KindError, ValueError) as e:
        raise TournamentError(str(e)) from None
    if system not in Tournament.System.values:
        raise TournamentError(f"no tournament system {system!r}")
    arena = system == Tournament.System.ARENA
    if arena:
        duration = arenas.check_arena(duration, time_control, kind.seat_counts)
        rounds, table_size = 0, 2
    else:
        duration, berserk = None, True
    if not arena and (not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS):
        raise TournamentError(f"a Swiss has 1 to {MAX_ROUNDS} rounds, not {rounds!r}")
    try:
        control = clocks.parse(time_control)
    except ValueError as e:
        raise TournamentError(str(e)) from None
    round_pause = 0 if arena else _round_pause(round_pause, control)
    size = 2 if arena else _table_size(kind.seat_counts, table_size)
    if not 2 <= max_players <= MAX_PLAYERS or max_players < (2 if size == 2 else 3):
        raise TournamentError(f"at most 2 to {MAX_PLAYERS} players")
    if rated and bots_allowed:
        raise TournamentError("bots do not play in rated tournaments")
    return {"name": name, "game_type": kind.key, "rounds": rounds,
            "time_control": control.code if control else "", "options": options,
            "rated": rated, "bots_allowed": bots_allowed, "table_size": size,
            "max_players": max_players, "system": system, "duration": duration,
            "berserk": berserk, "round_pause": round_pause}


def _round_pause(asked: int | None, control: clocks.TimeControl | None) -> int:
    """A Swiss's pause between rounds in seconds: the one asked for, or the default (none
    for correspondence: its rounds last days, and nobody waits on the page)."""
    if asked is None:
        return 0 if control is not None and not control.live else ROUND_PAUSE
    if not isinstance(asked, int) or not 0 <= asked <= MAX_ROUND_PAUSE:
        raise TournamentError(f"the pause between rounds is 0 to {MAX_ROUND_PAUSE} seconds")
    return asked


def create_tournament(*, name: str, game_type: str, rounds: int, starts_at: dt.datetime,
                      time_control: str = "", rated: bool = True, created_by: Any = None,
                      password: str = "", max_players: int = 64,
                      table_size: int | None = None, bots_allowed: bool = False,
                      options: dict[str, Any] | None = None,
                      system: str = Tournament.System.SWISS, duration: int | None = None,
                      berserk: bool = True, round_pause: int | None = None) -> Tournament:
    """A tournament (a Swiss, or an arena of `duration` minutes), scheduled. `created_by`
    None is the admin's schedule; a member may have `MEMBER_OPEN_TOURNAMENTS` not yet
    over. `table_size`: 2 for a two-seat kind (the default), 3 or 4 for a kind of more
    seats (default its largest, at most 4). `round_pause`: seconds between a Swiss's rounds
    (None: the default, `check_tournament`).
    TournamentError, with nothing written, for anything wrong (`check_tournament`)."""
    fields = check_tournament(name=name, game_type=game_type, rounds=rounds,
                              time_control=time_control, rated=rated,
                              max_players=max_players, table_size=table_size,
                              bots_allowed=bots_allowed, options=options,
                              system=system, duration=duration, berserk=berserk,
                              round_pause=round_pause)
    if timezone.is_naive(starts_at):
        raise TournamentError("the start needs a time zone")
    with transaction.atomic():
        if created_by is not None and Tournament.objects.filter(
                created_by=created_by, status__in=(Tournament.Status.SCHEDULED,
                                                   Tournament.Status.RUNNING)).count() \
                >= MEMBER_OPEN_TOURNAMENTS:
            raise TournamentError(f"you may have {MEMBER_OPEN_TOURNAMENTS} tournaments "
                                  "scheduled or running at once")
        tournament = Tournament.objects.create(
            **fields, password=make_password(password) if password else "",
            starts_at=starts_at, created_by=created_by)
        live.created(tournament.pk)  # its row to the list's sockets, after commit
        return tournament


def start_now(tournament: Tournament, now: dt.datetime | None = None) -> bool:
    """The admin's "start now": a scheduled tournament's start moved to now (the beat's
    tick starts round 1 within its 15 seconds, or cancels it if too few joined); a Swiss
    in its pause between rounds starts its next round now (`start_round`, which waits on
    no pause). False, and nothing changed, for one with a round being played, an arena
    already running, or one over."""
    now = now or timezone.now()
    moved = bool(Tournament.objects.filter(pk=tournament.pk,
                                           status=Tournament.Status.SCHEDULED)
                 .update(starts_at=now))
    if moved:
        live.on_commit(tournament.pk, ("facts",))  # the new start, on the page and list
        return True
    if tournament.arena:
        return False
    try:
        start_round(tournament, now)
    except TournamentError:
        return False
    return True


def _table_size(seat_counts: tuple[int, ...], asked: int | None) -> int:
    if max(seat_counts) == 2:
        if asked not in (None, 2):
            raise TournamentError("this game is played by two: tables of 2")
        return 2
    allowed = [n for n in seat_counts if 3 <= n <= 4]
    if not allowed:
        raise TournamentError("no Swiss tables of 3 or 4 for this game")
    size = max(allowed) if asked is None else asked
    if size not in allowed:
        raise TournamentError(f"tables of {' or '.join(map(str, allowed))}, not {asked}")
    return size


def join(tournament: Tournament, user: Any, password: str | None = None) -> Entry:
    """`user` joins `tournament`: before it starts, or late while a round remains (paired
    from the next round). TournamentError for a wrong password, a full, finished or
    cancelled tournament, a second entry, a member who withdrew, or a BOT account in a
    tournament that bars bots (every rated one)."""
    with transaction.atomic():
        held = _held(tournament)
        if held.status not in (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING):
            raise TournamentError("the tournament is over")
        if held.password and not check_password(password or "", held.password):
            raise TournamentError("wrong password")
        if not held.bots_allowed and titles.is_bot(user.pk):
            raise TournamentError("a rated tournament bars BOT accounts" if held.rated else
                                  "this tournament bars BOT accounts")
        existing = Entry.objects.filter(tournament=held, user=user).first()
        if existing is not None:
            raise TournamentError("you withdrew from this tournament" if existing.withdrawn
                                  else "you have already joined")
        if held.arena:  # one long round: a late joiner is paired from now
            ends_at = held.ends_at
            if ends_at is not None and timezone.now() >= ends_at:
                raise TournamentError("the arena has ended")
            first_round = 1
        else:
            current = held.round_set.order_by("-number").first()
            first_round = current.number + 1 if current is not None else 1
            if first_round > held.rounds:
                raise TournamentError("the last round has started")
        if held.entries.filter(withdrew_round__isnull=True).count() >= held.max_players:
            raise TournamentError("the tournament is full")
        rating = host_ratings([user.pk], held.game_type)[user.pk]
        live.on_commit(held.pk, ("standings",), members=[user.pk])  # the players so far
        entry = Entry.objects.create(tournament=held, user=user, first_round=first_round,
                                     rating=rating, free_since=timezone.now())
        if held.arena and held.status == Tournament.Status.RUNNING:
            transaction.on_commit(lambda: arenas.send_passes(held.pk))
        return entry


def withdraw(tournament: Tournament, user: Any) -> None:
    """`user` leaves `tournament`: never paired again (the game being played goes on; its
    result counts). Before the first round the entry is removed. TournamentError if they
    are not in it."""
    with transaction.atomic():
        held = _held(tournament)
        entry = Entry.objects.filter(tournament=held, user=user,
                                     withdrew_round__isnull=True).first()
        if entry is None or held.status in (Tournament.Status.FINISHED,
                                            Tournament.Status.CANCELLED):
            raise TournamentError("you are not playing in this tournament")
        if held.arena:  # an arena is one long round: withdrawn from it, points kept
            live.on_commit(held.pk, ("arena",), members=[user.pk])
            if held.status == Tournament.Status.SCHEDULED:
                entry.delete()
                return
            entry.withdrew_round, entry.withdrawn_at = 1, timezone.now()
            entry.save(update_fields=["withdrew_round", "withdrawn_at"])
            return
        current = held.round_set.order_by("-number").first()
        live.on_commit(held.pk, ("standings",), members=[user.pk])
        if current is None:
            entry.delete()
            return
        entry.withdrew_round, entry.withdrawn_at = current.number + 1, timezone.now()
        entry.save(update_fields=["withdrew_round", "withdrawn_at"])


def _held(tournament: Tournament) -> Tournament:
    """The tournament's row locked for this transaction, read again."""
    held = Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    if held is None:
        raise TournamentError("no such tournament")
    return held
