"""An arena on the site (issue #46, point 1; docs/tournaments-arena.md, "On the site"): the
Django side of `tournaments/arena/` (pure), for any two-seat kind.

This module owns an arena's moving parts:

- the **pairing pass** (`pair`): in one transaction holding the tournament
  (`rounds.locked`: PostgreSQL's advisory lock, then the row `SELECT … FOR UPDATE`), the
  arena is started at its time, its absent seats forfeited, and the free players (not in
  an active game of it, not paused, not withdrawn) are handed to
  `tournaments.arena.pairing.pairings`; each pair's game is made through
  `games.services.create_game` with its `Pairing` row in that same transaction. Who is busy
  is read again under the lock, and a pair with a busy player is an assertion: nobody is
  in two games of one arena. From the end time on no pairing is made; the arena is
  finished once its last game has ended (a game still running at the end counts when it
  ends);
- the **finish seam**: a game of an arena ends → in its transaction the two entrants'
  sheets move on (`Sheet.add`: `Entry.points` and `Entry.streak`; a voided game makes both
  sheets again from scratch); after commit a pass is sent now and another once the wait
  rule's second has passed (`tournaments.arena_pass`, by name);
- the players' requests: `join` (through `services.join`), `pause` / `resume`,
  `withdraw` (through `services.withdraw`), `berserk` (half the clock before one's first
  move: `tournaments.arena.berserk`, written by `games.services.cut_clock`);
- the **standings** (`standings`): `tournaments.arena.scoring.standings` over the stored
  games, recomputed from scratch; the podium.

Decided (docs/tournaments-arena.md): a seat that has not made its first decision
`ABSENT_AFTER` after its game began (and while the game awaits it) is resigned by the site,
the game marked a forfeit (it counts for nobody's sheet) and the absent player paused;
an arena starts at its time whoever has joined and, if no game was ever played, is
cancelled at its end.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from common.queue import eager, enqueue
from games import services as games
from games.models import Game, Seat
from games.results import Ending, Stage, on_game_end
from games.timing import clocks
from tournaments import live as live_pages
from tournaments import results
from tournaments.arena import berserk as berserk_rules
from tournaments.arena import pairing as pairing_rules
from tournaments.arena import scoring
from tournaments.arena_standings import (
    RULES,
    Played,
    Roster,
    arena_game,
    current_pairing,
    load,
    ranking,
    roster,
    standings,
)
from tournaments.models import Entry, Pairing, Tournament
from tournaments.rounds import TournamentError, each_due, locked
from tournaments.signals import arena_paired

log = logging.getLogger(__name__)

DURATIONS = (30, 60, 90, 120)  # minutes: the create form's choices
MIN_DURATION, MAX_DURATION = 10, 12 * 60
# A seat's first decision's window in an arena (lichess: about 20-30 s). A minute while
# the tournament page does not yet update by itself: the pairing reaches the player by
# the notification (in the site, by push) or a reload.
ABSENT_AFTER = dt.timedelta(seconds=60)
PAIRING_RULES = pairing_rules.PairingRules()
RECENT = 3  # the opponents a player's recent list holds (the pairing's penalty)
# A pass that leaves two or more free players unpaired (the wait rule, the rematch bar)
# sends one more this long after, once per arena at a time, so they wait about that long
# and not for the beat's tick (15 s).
FOLLOW_UP_SECONDS = 1.0


def check_arena(duration: Any, time_control: str, seat_counts: tuple[int, ...]) -> int:
    """An arena's own rules (`services.check_tournament` calls this): a duration of
    `MIN_DURATION` to `MAX_DURATION` minutes, a live time control, a kind of two seats.
    The duration, or a TournamentError in words."""
    if max(seat_counts) != 2:
        raise TournamentError("an arena is for a game of two players")
    if not isinstance(duration, int) or not MIN_DURATION <= duration <= MAX_DURATION:
        raise TournamentError(f"an arena lasts {MIN_DURATION} to {MAX_DURATION} minutes")
    try:
        control = clocks.parse(time_control)
    except ValueError as e:
        raise TournamentError(str(e)) from None
    if control is None or not control.live:
        raise TournamentError("an arena needs a live time control (minutes + seconds)")
    return duration


def podium(tournament: Tournament) -> tuple[scoring.Standing, ...]:
    """The top three who played, once the arena is finished; () before."""
    if tournament.status != Tournament.Status.FINISHED:
        return ()
    return scoring.podium(standings(tournament))


# --- the pairing pass ---------------------------------------------------------------------


def tick(now: dt.datetime | None = None) -> list[str]:
    """The beat's part for arenas: every arena due to start or running gets a pass."""
    return each_due(Tournament.System.ARENA, pair, now)


def pair(tournament_id: str, now: dt.datetime | None = None) -> str:
    """One pairing pass of an arena (module docstring): what it did, in words, or ""."""
    now = now or timezone.now()
    made: list[tuple[Pairing, Game]] = []
    with transaction.atomic():
        tournament = locked(tournament_id)
        if tournament is None or not tournament.arena or tournament.status in (
                Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            return ""
        if tournament.starts_at > now:
            return ""
        said = []
        if tournament.status == Tournament.Status.SCHEDULED:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
            said.append("started")
            transaction.on_commit(lambda: pass_at_the_end(tournament))
        forfeits = _forfeit_absent(tournament, now)
        if forfeits:
            said.append(f"{forfeits} forfeit(s)")
        stored = roster(tournament)
        ends_at = tournament.ends_at
        assert ends_at is not None
        if now >= ends_at:
            if stored.busy():
                time_up(tournament, stored)
                return ", ".join(said)
            played = any(p.finished for p in stored.played)
            tournament.status = (Tournament.Status.FINISHED if played
                                 else Tournament.Status.CANCELLED)
            tournament.finished_at = now
            tournament.save(update_fields=["status", "finished_at"])
            if played:  # the places (the podium: 1-3), `tournament_finished` after commit
                results.record_final(tournament)
            # The podium to every page, and each entrant's own part ("time is up").
            live_pages.on_commit(tournament.pk, ("facts", "arena"),
                           members=[e.user_id for e in stored.entries])
            return ", ".join([*said, tournament.status])
        made = _pair_free(tournament, stored, now)
        if made:
            said.append(f"{len(made)} game(s) started")
        left = len(free_players(stored)) - 2 * len(made)
        transaction.on_commit(lambda: _announce(tournament, made, bool(said)))
        transaction.on_commit(lambda: follow_up(tournament_id, left))
        return ", ".join(said)


def pass_at_the_end(tournament: Tournament) -> None:
    """Once the arena has started: a pass at its end time, so its pages hear that the
    time is up then (`time_up`) and not at the next game's end or the beat's tick. With
    tasks run in this process the tick does it."""
    ends_at = tournament.ends_at
    if ends_at is None or eager():
        return
    left = (ends_at - timezone.now()).total_seconds()
    enqueue("tournaments.arena_pass", tournament.pk, countdown=max(0.0, left) + 0.1)


def time_up(tournament: Tournament, stored: Roster) -> None:
    """The first pass after the end time while games are still being played: the facts
    (no time left) and the standings (the games still being played count) to every page,
    and each free player's own part ("the time is up: no new games"); the players still
    in a game hear it with that game's end. Once per arena (the cache's `add`; a second
    telling, were the cache emptied, would only repeat it)."""
    if not cache.add(f"arena-time-up:{tournament.pk}", 1, timeout=24 * 3600):
        return
    busy = stored.busy()
    live_pages.on_commit(tournament.pk, ("facts", "arena"),
                         members=[e.user_id for e in stored.entries if e.id not in busy])


def free_players(stored: Roster) -> list[Entry]:
    """The entrants a pass may pair: in no active game of the arena, neither paused nor
    withdrawn."""
    busy = stored.busy()
    return [e for e in stored.entries if e.id not in busy and not e.paused and not e.withdrawn]


def follow_up(tournament_id: str, left: int) -> None:
    """After a pass that left `left` free players unpaired: one more pass
    `FOLLOW_UP_SECONDS` later if two or more wait, unless one is already on its way (the
    cache's `add`, shared by the site's processes, lets one sender in per interval).
    Nothing when tasks run in this process: the tick pairs them there."""
    if left < 2 or eager():
        return
    if cache.add(f"arena-follow-up:{tournament_id}", 1, timeout=FOLLOW_UP_SECONDS):
        enqueue("tournaments.arena_pass", tournament_id, countdown=FOLLOW_UP_SECONDS)


def _pair_free(tournament: Tournament, stored: Roster, now: dt.datetime
               ) -> list[tuple[Pairing, Game]]:
    """Pair the free players now (the caller holds the tournament) and make each game."""
    busy = stored.busy()
    line = {s.id: s for s in ranking(tournament, stored.entries)}
    history: dict[int, list[Played]] = {e.id: [] for e in stored.entries}
    for p in stored.played:
        history[p.blue_id].append(p)
        history[p.orange_id].append(p)
    waiting = []
    for entry in stored.entries:
        if entry.id in busy or entry.withdrawn:
            continue
        played = history[entry.id]
        ended = [p.ended for p in played]
        since = max([tournament.starts_at, entry.free_since or entry.joined_at, *ended])
        recent = tuple(p.orange_id if p.blue_id == entry.id else p.blue_id
                       for p in reversed(played[-RECENT:]))
        colours = "".join(pairing_rules.BLUE if p.blue_id == entry.id else pairing_rules.ORANGE
                          for p in played)
        waiting.append(pairing_rules.Waiting(
            entry.id, entry.rating, line[entry.id].total, line[entry.id].rank,
            since.timestamp(), paused=entry.paused, recent_opponents=recent,
            colours=colours))
    pairs = pairing_rules.pairings(waiting, now.timestamp(), PAIRING_RULES,
                                   playing=len(busy))
    entries = {e.id: e for e in stored.entries}
    made = []
    for pair_ in pairs:
        # The rule the pure pass promises, held again where the games are made.
        assert not {pair_.blue, pair_.orange} & busy, "a player is already in a game"
        busy |= {pair_.blue, pair_.orange}
        blue, orange = entries[pair_.blue], entries[pair_.orange]
        game = games.create_game(
            game_type=tournament.game_type, options=tournament.options,
            seats=[games.Actor.member(blue.user), games.Actor.member(orange.user)],
            mode=Game.Mode.ONLINE, rated=tournament.rated,
            time_control=tournament.time_control)
        made.append((Pairing.objects.create(tournament=tournament, game=game, blue=blue,
                                            orange=orange, created_at=now), game))
    return made


def _announce(tournament: Tournament, made: Sequence[tuple[Pairing, Game]],
              changed: bool) -> None:
    """After the pass commits: the page's sections (`tournaments.live`: the facts and the
    arena's standings and games to everyone, each paired member their own "Play now"),
    then `arena_paired` for each game (the players' notifications). Nothing when the pass
    changed nothing."""
    if changed:
        live_pages.send_sections(tournament.pk, ("facts", "arena"),
                           members=[u for p, _ in made for u in (p.blue.user_id,
                                                                  p.orange.user_id)])
    for pairing, game in made:
        users = [pairing.blue.user_id, pairing.orange.user_id]
        for receiver, answer in arena_paired.send_robust(
                sender=__name__, tournament=tournament, game=game, users=users):
            if isinstance(answer, Exception):
                log.error("arena_paired receiver %r failed: %r", receiver, answer,
                          exc_info=answer)


def _forfeit_absent(tournament: Tournament, now: dt.datetime) -> int:
    """Resign the seats of the arena's active games that never made their first decision
    `ABSENT_AFTER` after the game began (or the opponent's last decision) while the game
    awaits them: the pairing marked a forfeit (no sheet counts it), the player paused."""
    count = 0
    for pairing in (Pairing.objects.filter(tournament=tournament, game__status=Game.Status.ACTIVE,
                                           created_at__lte=now - ABSENT_AFTER)
                    .select_related("blue", "orange")):
        list(Game.objects.select_for_update().filter(pk=pairing.game_id).values_list("pk"))
        game = games.get_game(pairing.game_id)  # read under the game's lock
        turns = list(game.turns.values_list("seat", "created_at"))
        since = max([pairing.created_at, *(at for _, at in turns)])
        if game.status != Game.Status.ACTIVE or now < since + ABSENT_AFTER:
            continue
        decided = {seat for seat, _ in turns}
        absent = [s for s in games.live(game).acting() if s in (0, 1) and s not in decided]
        if not absent:
            continue
        seat = absent[0]
        pairing.forfeit = seat
        pairing.save(update_fields=["forfeit"])
        entry = pairing.blue if seat == 0 else pairing.orange
        Entry.objects.filter(pk=entry.pk).update(paused=True)
        count += 1
        try:
            games.resign_seat(game.id, seat)
        except games.GameError:  # the game ended meanwhile: the forfeit stands
            log.info("game %s ended before seat %s's forfeit", game.id, seat)
    return count


def send_passes(tournament_id: str) -> None:
    """A pass now and one after the wait rule's second (`PairingRules.wait_seconds`), so
    players who just became free are paired without waiting for the beat's tick."""
    enqueue("tournaments.arena_pass", tournament_id)
    if not eager():  # tasks run in this process (the embedded default): the tick pairs
        enqueue("tournaments.arena_pass", tournament_id,
                countdown=PAIRING_RULES.wait_seconds + 0.2)


# --- the finish seam ------------------------------------------------------------------------


@on_game_end("tournaments.arena_scored", Stage.IN_TRANSACTION, order=45)
def game_scored(ending: Ending) -> None:
    """In the transaction recording a game's end: an arena game's two entrants' sheets move
    on by it (`Sheet.add`), or, for a voided game, are made again from scratch."""
    pairing = Pairing.objects.filter(game_id=ending.game.id).first()
    if pairing is None:
        return
    entries = list(Entry.objects.select_for_update().filter(pk__in=pairing.entry_ids())
                   .order_by("id"))
    if ending.voided:
        rescore(pairing.tournament, entries)
        return
    seats = {(s.game_id, s.index): s for s in Seat.objects.filter(game_id=pairing.game_id)}
    counted = arena_game(pairing, seats)
    if counted is None:
        return
    ratings = {e.id: e.rating for e in entries}
    for entry in entries:
        outcome = counted.outcome_for(entry.id)
        sheet = scoring.Sheet(total=int(entry.points), streak=entry.streak, rules=RULES)
        sheet = sheet.add(outcome)
        entry.points, entry.streak = str(sheet.total), sheet.streak
        entry.games += 1
        entry.performance_sum += scoring.performance_step(outcome, ratings)
        entry.save(update_fields=KEPT)


KEPT = ["points", "streak", "games", "performance_sum"]  # an entry's kept sheet


def rescore(tournament: Tournament, entries: Sequence[Entry]) -> None:
    """`entries`' kept sheets (points, streak, games, performance steps) made again from
    the stored games."""
    stored = load(tournament)
    counted = stored.counted()
    ratings = {e.id: e.rating for e in stored.entries}
    for entry in entries:
        outcomes = [g.outcome_for(entry.id) for g in counted if g.has(entry.id)]
        sheet = scoring.build_sheet(outcomes, RULES)
        entry.points, entry.streak = str(sheet.total), sheet.streak
        entry.games = len(outcomes)
        entry.performance_sum = sum(scoring.performance_step(o, ratings) for o in outcomes)
        entry.save(update_fields=KEPT)


@on_game_end("tournaments.arena_game_ended", Stage.AFTER_COMMIT, order=41)
def game_ended(ending: Ending) -> None:
    """After an arena game's end commits: its players are free, so a pass is sent (and the
    arena finished, after its end, with its last game)."""
    tournament_id = (Pairing.objects.filter(game_id=ending.game.id)
                     .values_list("tournament_id", flat=True).first())
    if tournament_id is not None:
        # The result and the sheets to every page (the render thread renders them), and the two
        # players' "Play now" gone; then the pass that pairs them again.
        live_pages.after_arena_game(tournament_id, [s.user_id for s in ending.game.seat_list
                                                    if s.user_id])
        send_passes(tournament_id)


# --- the players' requests ------------------------------------------------------------------


def _entry(tournament: Tournament, user: Any) -> tuple[Tournament, Entry]:
    """In a transaction: the arena (locked) and the member's entry still in it."""
    held = Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    if held is None or not held.arena:
        raise TournamentError("no such arena")
    if held.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise TournamentError("the arena is over")
    entry = Entry.objects.filter(tournament=held, user=user, withdrew_round__isnull=True).first()
    if entry is None:
        raise TournamentError("you are not playing in this arena")
    return held, entry


def pause(tournament: Tournament, user: Any) -> None:
    """The member is not paired again until they resume (a game in progress goes on)."""
    with transaction.atomic():
        _held, entry = _entry(tournament, user)
        if entry.paused:
            raise TournamentError("you are paused already")
        entry.paused = True
        entry.save(update_fields=["paused"])
        live_pages.on_commit(tournament.pk, ("arena",), members=[user.pk])  # "paused" shown


def resume(tournament: Tournament, user: Any, now: dt.datetime | None = None) -> None:
    """The paused member is paired again from now."""
    now = now or timezone.now()
    with transaction.atomic():
        held, entry = _entry(tournament, user)
        if not entry.paused:
            raise TournamentError("you are not paused")
        ends_at = held.ends_at
        if ends_at is not None and now >= ends_at:
            raise TournamentError("the arena has ended")
        entry.paused, entry.free_since = False, now
        entry.save(update_fields=["paused", "free_since"])
        live_pages.on_commit(tournament.pk, ("arena",), members=[user.pk])
    transaction.on_commit(lambda: send_passes(tournament.pk))


def berserk(tournament: Tournament, user: Any) -> None:
    """The member berserks their current game of `tournament` (the tournament page's
    button): `berserk_game` on that game. TournamentError in words, nothing changed, when
    they have none."""
    pairing = current_pairing(tournament, user)
    if pairing is None:
        raise TournamentError("you have no game of this arena in progress")
    berserk_game(pairing.game_id, user)


def berserk_game(game_id: str, user: Any) -> None:
    """The member berserks `game` (its page's button, or the tournament page's): half
    their base time, no increment (`tournaments.arena.berserk`), before their first move,
    once; one point more for a win of at least `ArenaRules.berserk_min_plies` plies.
    TournamentError in words, nothing changed, for a game of no arena, a member who holds
    no seat of it, or a berserk `may_berserk` refuses (after the first move, twice, the
    arena not allowing it, the game over)."""
    with transaction.atomic():
        # The game's row, then the pairing's: the order of the pass's forfeits.
        list(Game.objects.select_for_update().filter(pk=game_id).values_list("pk"))
        pairing = Pairing.objects.select_for_update().select_related(
            "tournament", "blue", "orange").filter(game_id=game_id).first()
        if pairing is None:
            raise TournamentError("this game is not an arena's: berserk is for arena games")
        if user.pk not in (pairing.blue.user_id, pairing.orange.user_id):
            raise TournamentError("only the game's own players may berserk")
        seat = 0 if pairing.blue.user_id == user.pk else 1
        control = clocks.parse(pairing.tournament.time_control)
        live = (berserk_rules.LiveClock(control.base_ms, control.increment_ms)
                if control is not None and control.live else None)
        game = games.get_game(game_id)
        request = berserk_rules.BerserkRequest(
            arena_allows=pairing.tournament.berserk, clock=live,
            in_play=game.status == Game.Status.ACTIVE,
            own_moves=game.turns.filter(seat=seat).count(),
            already_berserk=pairing.blue_berserk if seat == 0 else pairing.orange_berserk)
        if not berserk_rules.may_berserk(request):
            raise TournamentError(_why_not(request))
        assert live is not None
        # Marked before the clock is cut: the game's state, built by `cut_clock` for every
        # audience, carries the mark (`tournaments.game_extras`).
        field = "blue_berserk" if seat == 0 else "orange_berserk"
        setattr(pairing, field, True)
        pairing.save(update_fields=[field])
        cut = berserk_rules.berserk_clock(live)
        try:
            games.cut_clock(game.id, seat, cut.base_ms, increment=cut.increment_ms > 0)
        except games.GameError as e:
            raise TournamentError(str(e)) from None
        live_pages.on_commit(pairing.tournament_id, ("arena",),  # marked; button gone
                             members=[user.pk])


def _why_not(request: berserk_rules.BerserkRequest) -> str:
    if not request.arena_allows:
        return "this arena does not allow berserk"
    if not berserk_rules.berserkable(request.clock):
        return "this time control cannot be berserked"
    if not request.in_play:
        return "the game is over"
    if request.already_berserk:
        return "you have berserked already"
    return "berserk only before your first move"
