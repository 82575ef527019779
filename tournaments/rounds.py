"""A Swiss tournament's rounds: starting one, finishing one, forfeits, the beat's tick and
the finish-seam handler (docs/tournaments.md, "The Swiss tournament on the site").

Everything that moves a tournament on goes through `advance(tournament_id)`, in one
transaction holding the tournament: on PostgreSQL its advisory lock
(`pg_try_advisory_xact_lock`: a second process skips instead of waiting) and, everywhere,
its row (`SELECT … FOR UPDATE`); the state is read again under them, so running it twice,
or from two beat processes at once, starts each round once (the unique (tournament,
number) of `Round` is the last guard). It:

1. forfeits the absent: in the running round, a seat that has not made its first decision
   `absent_after` the later of the round's start and the game's last decision, while the
   game awaits it, is resigned by the site (`games.services.resign_seat`) and marked
   `Sitting.forfeit`; its entrant's absences go up, and the second withdraws them;
2. finishes the running round once all its games have ended (`_finish_round`): a game
   aborted before every seat decided is a forfeit of the seat that aborted it (or, aborted
   by the idle sweep, of every seat without a decision); the entrants' points move on;
   then, unless it was the last, the tournament pauses `round_pause` seconds
   (`Tournament.next_round_at`): the page shows the standings and a countdown, and the next round
   starts at the first `advance` after the pause (the task sent for its end, or the tick);
3. starts the next round (`_start_round`) or, after the last, finishes the tournament;
   once a round's start commits, the page's sections go to its sockets, each player's own
   "Play now" to theirs (`tournaments.live`), and `tournaments.signals.round_started` is
   sent (the players' notifications hear it); a round finished or the tournament closed
   re-renders the page's sections after commit too, and so does each game's end (its
   result, from the finish seam's handler).

It runs from the beat task `tournaments.tick` (every tournament due or running) and from
the task `tournaments.advance`, sent by name after a tournament game's end commits
(`game_ended`, on the finish seam): never inline in the finish seam's transaction.
"""

from __future__ import annotations

import datetime as dt
import logging
import zlib
from collections.abc import Callable
from fractions import Fraction

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from common.queue import eager, enqueue
from games import services as games
from games.kinds import get_kind
from games.models import Game
from games.results import Ending, Stage, on_game_end
from games.timing import clocks
from tournaments import live, results
from tournaments.models import Entry, Round, Sitting, Table, Tournament
from tournaments.signals import round_started
from tournaments.standings import (
    CONNECT_BYE,
    connect_entrants,
    express_entrants,
    express_rounds,
    load,
    round_points,
)
from tournaments.swiss import dutch, express_tables

log = logging.getLogger(__name__)

LOCK_CLASS = 4646  # the advisory locks' first key: issue #46's tournaments
ABSENT_AFTER = dt.timedelta(minutes=2)  # live and untimed games: the first decision's window
ABSENCES_TO_WITHDRAW = 2


class TournamentError(ValueError):
    """A request about a tournament refused, in words for the member; nothing changed."""


def absent_after(tournament: Tournament) -> dt.timedelta:
    """How long a seat may leave its first decision before it loses by forfeit: two minutes
    in a live or untimed game, the days of a decision in a correspondence one."""
    control = clocks.parse(tournament.time_control)
    if control is not None and not control.live:
        return dt.timedelta(milliseconds=control.base_ms)
    return ABSENT_AFTER


def min_players(tournament: Tournament) -> int:
    """Fewest entrants a round can be made of: two seats, or the smallest table of 3."""
    return 2 if tournament.table_size == 2 else 3


# --- the lock ----------------------------------------------------------------------------------


def _key(tournament_id: str) -> int:
    """The tournament's advisory lock key, a signed 32-bit number."""
    return zlib.crc32(tournament_id.encode()) - 2 ** 31


def locked(tournament_id: str) -> Tournament | None:
    """Inside a transaction: the tournament, held until it ends; None if another process
    holds it now (PostgreSQL's advisory lock) or there is none. SQLite has one writer at a
    time and one process (the embedded default): the transaction is the lock there."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)",
                           [LOCK_CLASS, _key(tournament_id)])
            if not cursor.fetchone()[0]:
                return None
    return Tournament.objects.select_for_update().filter(pk=tournament_id).first()


# --- moving on ----------------------------------------------------------------------------------


def tick(now: dt.datetime | None = None) -> list[str]:
    """The beat's body: every Swiss tournament due to start or running moves on
    (`advance`). What happened, in words, for the log."""
    return each_due(Tournament.System.SWISS, advance, now)


def each_due(system: str, step: Callable[[str, dt.datetime], str],
             now: dt.datetime | None = None) -> list[str]:
    """`step` for every tournament of `system` due to start or running (the Swiss's
    `advance`, the arena's pairing pass): what each did, in words; one tournament's
    failure (a PairingError) is logged and stops none of the rest."""
    now = now or timezone.now()
    due = Tournament.objects.filter(
        Q(status=Tournament.Status.SCHEDULED, starts_at__lte=now)
        | Q(status=Tournament.Status.RUNNING), system=system
    ).values_list("id", flat=True)
    done = []
    for tournament_id in list(due):
        try:
            what = step(tournament_id, now)
        except Exception:
            log.exception("tournament %s could not move on", tournament_id)
            continue
        if what:
            done.append(f"{tournament_id}: {what}")
    return done


def advance(tournament_id: str, now: dt.datetime | None = None) -> str:
    """Move one tournament on as far as it can go now, exactly once however often and from
    however many processes this is called (module docstring). What it did, or ""."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked(tournament_id)
        if tournament is None or tournament.arena or tournament.status in (
                Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            return ""  # an arena moves on by its passes (tournaments.arenas)
        if tournament.status == Tournament.Status.SCHEDULED and tournament.starts_at > now:
            return ""
        current = tournament.round_set.order_by("-number").first()
        finished_now = False
        if current is not None and current.finished_at is None:
            _forfeit_absent(tournament, current, now)
            if Game.objects.filter(tournament_table__round=current,
                                   status=Game.Status.ACTIVE).exists():
                return ""
            _finish_round(tournament, current, now)
            finished_now = True
        played = current.number if current is not None else 0
        if played >= tournament.rounds:
            _close(tournament, Tournament.Status.FINISHED, now)
            live.on_commit(tournament.pk, members=live.entrants(tournament.pk))
            return "finished"
        due = tournament.next_round_at(current)
        if due is not None and now < due:  # the pause: the standings, then the next round
            if finished_now:  # the standings and the countdown; each one's place and points
                live.on_commit(tournament.pk, members=live.entrants(tournament.pk))
                transaction.on_commit(lambda: _advance_at(tournament.pk, due))
                return f"round {played} finished; round {played + 1} at {due.isoformat()}"
            return ""
        started = _start_round(tournament, played + 1, now)  # its frames: `_announce`
        if started is None:
            status = (Tournament.Status.CANCELLED if played == 0
                      else Tournament.Status.FINISHED)
            _close(tournament, status, now)
            live.on_commit(tournament.pk, members=live.entrants(tournament.pk))
            return f"{status}: too few players"
        return f"round {started.number} started"


def _advance_at(tournament_id: str, due: dt.datetime) -> None:
    """After a round finished into a pause: `tournaments.advance` sent to run when the
    pause ends, so the next round starts on time rather than at the beat's next tick
    (every 15 s), which remains the fallback. With tasks run in-process (the embedded
    default) nothing is sent: the tick starts it. `advance` checks the time again, so an
    early arrival starts nothing."""
    if eager():
        return
    enqueue("tournaments.advance", tournament_id, eta=due)


def start_round(tournament: Tournament, now: dt.datetime | None = None) -> Round:
    """Start `tournament`'s next round now (the admin's "start now"; the tick does it when
    due): in one transaction holding the tournament. TournamentError if a round is still
    being played, the tournament is over, or too few players remain."""
    now = now or timezone.now()
    with transaction.atomic():
        held = locked(tournament.pk)
        if held is None:
            raise TournamentError("the tournament is being moved on: try again")
        if held.status not in (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING):
            raise TournamentError("the tournament is over")
        if held.arena:
            raise TournamentError("an arena has no rounds")
        current = held.round_set.order_by("-number").first()
        if current is not None and current.finished_at is None:
            raise TournamentError(f"round {current.number} is still being played")
        number = current.number + 1 if current is not None else 1
        if number > held.rounds:
            raise TournamentError("every round has been played")
        started = _start_round(held, number, now)
        if started is None:
            raise TournamentError("too few players to make a round")
        return started


def round_finished(tournament: Tournament, now: dt.datetime | None = None) -> bool:
    """Finish the running round if all its games have ended (forfeits marked, points moved
    on); True if no round is being played now. The next round is started by `advance`."""
    now = now or timezone.now()
    with transaction.atomic():
        held = locked(tournament.pk)
        if held is None:
            return False
        current = held.round_set.order_by("-number").first()
        if current is None or current.finished_at is not None:
            return True
        if Game.objects.filter(tournament_table__round=current,
                               status=Game.Status.ACTIVE).exists():
            return False
        _finish_round(held, current, now)
        live.on_commit(held.pk, members=live.entrants(held.pk))
        return True


def _close(tournament: Tournament, status: str, now: dt.datetime) -> None:
    """Finished or cancelled; a finished one's places written (`results.record_final`:
    `tournament_finished` after commit)."""
    tournament.status = status
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    if status == Tournament.Status.FINISHED:
        results.record_final(tournament)


# --- starting a round -------------------------------------------------------------------------


def _start_round(tournament: Tournament, number: int, now: dt.datetime) -> Round | None:
    """Pair round `number` from the stored rows and create its games, in the caller's
    transaction (which holds the tournament). None when too few entrants remain."""
    stored = load(tournament)
    assert len(stored.rounds) == number - 1, "every earlier round is finished"
    entries = {e.id: e for e in stored.entries}
    playing = {e.id for e in stored.entries if e.first_round <= number
               and (e.withdrew_round is None or number < e.withdrew_round)}
    if len(playing) < min_players(tournament):
        return None
    if tournament.table_size == 2:
        pairing = dutch.pair_round(connect_entrants(stored, number), number, tournament.rounds)
        tables: list[tuple[int, ...]] = [(b.first, b.second) for b in pairing.boards]
        byes = [pairing.bye] if pairing.bye is not None else []
        bye_points = CONNECT_BYE
    else:
        tabled = express_tables.pair_round(express_entrants(stored), express_rounds(stored),
                                           max_size=tournament.table_size, min_size=3)
        tables, byes = list(tabled.tables), list(tabled.byes)
        bye_points = express_tables.BYE_POINTS
    seated = [p for table in tables for p in table] + byes
    # The rules the pure modules promise, held again here where the games are made.
    assert len(seated) == len(set(seated)), f"an entrant placed twice: {seated}"
    assert set(seated) == playing, f"placed {sorted(seated)}, playing {sorted(playing)}"
    busy = Sitting.objects.filter(entry_id__in=seated, table__game__status=Game.Status.ACTIVE)
    assert not busy.exists(), "an entrant is still playing a game of this tournament"
    rnd = Round.objects.create(tournament=tournament, number=number, started_at=now)
    paired: dict[int, Game | None] = {}
    # Each table's first seat starts (the seats are rotated round by round for that:
    # docs/tournaments-express-swiss.md, "Seats"), by the kind's own options for it.
    options = {**tournament.options, **get_kind(tournament.game_type).first_seat_options()}
    for board, players in enumerate(tables, start=1):
        game = games.create_game(
            game_type=tournament.game_type, options=options,
            seats=[games.Actor.member(entries[p].user) for p in players],
            mode=Game.Mode.ONLINE, rated=tournament.rated,
            time_control=tournament.time_control)
        table = Table.objects.create(round=rnd, number=board, game=game)
        paired.update((entries[p].user_id, game) for p in players)
        Sitting.objects.bulk_create([Sitting(table=table, round=rnd, entry_id=p, seat=seat)
                                     for seat, p in enumerate(players)])
    for offset, player in enumerate(byes, start=len(tables) + 1):
        table = Table.objects.create(round=rnd, number=offset, bye_points=str(bye_points))
        Sitting.objects.create(table=table, round=rnd, entry_id=player, seat=0)
        paired[entries[player].user_id] = None
    if tournament.status == Tournament.Status.SCHEDULED:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    transaction.on_commit(lambda: _announce(tournament, rnd, paired))
    return rnd


def _announce(tournament: Tournament, rnd: Round, paired: dict[int, Game | None]) -> None:
    """After the round's start commits: the page's sections to its sockets, each paired
    member's own "Play now" to theirs (`tournaments.live`), then `round_started` to
    whoever listens (the players' notifications). A failure is logged; the round stands."""
    live.send_sections(tournament.pk, live.EVERYONE, members=sorted(paired))
    for receiver, answer in round_started.send_robust(
            sender=__name__, tournament=tournament, round=rnd, games=paired):
        if isinstance(answer, Exception):
            log.error("round_started receiver %r failed: %r", receiver, answer,
                      exc_info=answer)


# --- forfeits and the end of a round ----------------------------------------------------------


def _absent(entry: Entry, rnd: Round, now: dt.datetime) -> None:
    """One more absence; the second withdraws the entrant from the next round on."""
    entry.absences += 1
    fields = ["absences"]
    if entry.absences >= ABSENCES_TO_WITHDRAW and entry.withdrew_round is None:
        entry.withdrew_round, entry.withdrawn_at = rnd.number + 1, now
        fields += ["withdrew_round", "withdrawn_at"]
    entry.save(update_fields=fields)


def _forfeit_absent(tournament: Tournament, rnd: Round, now: dt.datetime) -> None:
    """Resign, as forfeits, the seats of the running round that never started their game."""
    window = absent_after(tournament)
    for table in Table.objects.filter(round=rnd, game__status=Game.Status.ACTIVE):
        assert table.game_id is not None
        list(Game.objects.select_for_update().filter(pk=table.game_id).values_list("pk"))
        game = games.get_game(table.game_id)  # read under the game's lock
        turns = list(game.turns.values_list("seat", "created_at"))
        since = max([rnd.started_at, *(at for _, at in turns)])
        if game.status != Game.Status.ACTIVE or now < since + window:
            continue
        decided = {seat for seat, _ in turns}
        acting = set(games.live(game).acting())
        for sitting in Sitting.objects.filter(table=table).select_related("entry"):
            if sitting.seat in decided or sitting.seat not in acting or sitting.forfeit:
                continue
            sitting.forfeit = True
            sitting.save(update_fields=["forfeit"])
            _absent(sitting.entry, rnd, now)
            try:
                games.resign_seat(game.id, sitting.seat)
            except games.GameError:  # the game ended meanwhile: the forfeit stands
                log.info("game %s ended before seat %s's forfeit", game.id, sitting.seat)


def _finish_round(tournament: Tournament, rnd: Round, now: dt.datetime) -> None:
    """Every game of `rnd` has ended: mark the forfeits of games aborted before every seat
    decided, close the round and move each entrant's points on by what the round gave."""
    for table in Table.objects.filter(round=rnd, game__isnull=False).select_related("game"):
        game = table.game
        assert game is not None
        if game.status != Game.Status.ABORTED:
            continue
        decided = set(game.turns.values_list("seat", flat=True))
        sittings = list(Sitting.objects.filter(table=table).select_related("entry"))
        for sitting in sittings:
            absent = (sitting.seat == game.ended_by if game.ended_by is not None
                      else sitting.seat not in decided)
            if absent and not sitting.forfeit:
                sitting.forfeit = True
                sitting.save(update_fields=["forfeit"])
                _absent(sitting.entry, rnd, now)
    rnd.finished_at = now
    rnd.save(update_fields=["finished_at"])
    gained = round_points(load(tournament, rounds=[rnd]), rnd)
    for entry in Entry.objects.filter(pk__in=gained):
        entry.points = str(Fraction(entry.points) + gained[entry.pk])
        entry.save(update_fields=["points"])


# --- the finish seam ------------------------------------------------------------------------


@on_game_end("tournaments.game_ended", Stage.AFTER_COMMIT, order=40)
def game_ended(ending: Ending) -> None:
    """A tournament game ended (its result committed): once every game of its round has
    ended, `tournaments.advance` is sent by name to finish the round and start the next.
    A game aborted ends through no handler: the beat's tick finds that round."""
    table = (Table.objects.filter(game_id=ending.game.id)
             .select_related("round").first())
    if table is None:
        return
    # The page's rounds (the result) to its sockets, and the players' "Play now" gone,
    # once the game's own frames are sent.
    live.after_game_frames(table.round.tournament_id, ("rounds",),
                           members=[s.user_id for s in ending.game.seat_list if s.user_id])
    if table.round.finished_at is not None:
        return
    if not Game.objects.filter(tournament_table__round=table.round,
                               status=Game.Status.ACTIVE).exists():
        enqueue("tournaments.advance", table.round.tournament_id)
