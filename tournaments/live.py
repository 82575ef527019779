"""A tournament's page, live (docs/tournaments.md, "Live"): its channel groups, the
`sections` frame and when it is sent. The socket that hears them is tournaments/socket.py.

Each frame re-renders sections of the page (`tournaments.pages.sections_of`: the facts,
the viewer's own "Play now", then a Swiss's standings and rounds, or an arena's `arena`
section: its standings with the sheets, the latest games, the podium) as server-rendered
HTML, from the same reads (`pages.section_context`) and the same partials
(templates/tournaments/_<name>.html) as the page itself, so the page stays game-agnostic
and static/js/tournaments-live.js only swaps them in. A caller names what changed as a
Swiss's sections (`standings`, `rounds`); an arena's page gets its `arena` section for
either.

- `tournament.<id>`: every socket on the tournament's page. Its frames are rendered once,
  for nobody in particular: no "you" marked, no game offered to play (the page marks its
  own row and game from `data-user` / `data-game`);
- `tournament.<id>.user.<member id>`: that member's sockets on that page alone, for their
  own sections (`pages.OWN`): "Play now" (their game, or none) and "Your entry" (their
  place, points and pairing): never another's;
- `tournaments`: every socket on the list (/tournaments/): a `row` frame (the tournament's
  row of the list, with its group, game and start) whenever its page's sections are sent
  to everyone, and when a tournament is made (`created`).

Every send happens after the change committed (`on_commit`, or a caller that runs after
commit: the finish seam's `AFTER_COMMIT` stage); a frame carries `at`, the time (ms) its
reads began, so a page that got newer sections (on connect) drops an older frame still on
its way. A render or send that fails is logged and changes nothing that was committed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.template.loader import render_to_string

from common.queue import eager, enqueue
from games.frames import broadcast
from games.sockets import renders
from tournaments import arena_standings, pages
from tournaments.models import Entry, Tournament

log = logging.getLogger(__name__)

EVERYONE = ("facts", "standings", "rounds")  # the sections every viewer sees alike
# An arena's shared sections are rendered at most once in each window of this many
# milliseconds (at 200 players a game ends several times a second), so a result reaches
# every page's table within about a window and a render (issue #46: ≤ 500 ms after it).
SHARED_WINDOW_MS = 125
# How long a window's keys stay in the cache (whole seconds: its timeouts are); any time
# longer than a window and than clocks of the site's processes differ by.
SHARED_KEY_SECONDS = 5


LIST_GROUP = "tournaments"  # every socket on the tournaments' list


def group(tournament_id: str) -> str:
    """Every socket on the tournament's page (Channels' group names: ASCII letters,
    digits, `-_.`, under 100 characters; a tournament id is 10 base62 characters)."""
    return f"tournament.{tournament_id}"


def member_group(tournament_id: str, user_id: int) -> str:
    """One member's sockets on the tournament's page."""
    return f"tournament.{tournament_id}.user.{user_id}"


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def page_names(tournament: Tournament, names: Iterable[str]) -> tuple[str, ...]:
    """`names` as `tournament`'s page has them, in the page's order: an arena's page has
    its `arena` section where a Swiss's has `standings` and `rounds`."""
    names = set(names)
    if tournament.arena and names & {"standings", "rounds"}:
        names.add("arena")
    return tuple(n for n in pages.sections_of(tournament) if n in names)


def sections(tournament: Tournament, names: Iterable[str], you: str = "",
             user: Any = None, playing: str | None = None,
             ranking: pages.Ranking | None = None,
             member: arena_standings.Member | None = None,
             at: int | None = None) -> dict[str, Any]:
    """The `sections` frame of `names` (those `tournament`'s page has), rendered for the
    viewer `user` (named `you`) playing `playing` (all empty: for nobody in
    particular); `ranking` (and an arena's `member`: their entry and game) read once by a
    caller rendering "Your entry" for several. `at`: when the caller's reads began (a
    caller that read `playing`, `ranking` or `member` passes it); now by default."""
    at = now_ms() if at is None else at
    wanted = page_names(tournament, names)
    context = pages.section_context(tournament, wanted, you=you, user=user, playing=playing,
                                    ranking=ranking, member=member)
    return {"type": "sections", "tournament": tournament.id, "at": at,
            "sections": {n: render_to_string(f"tournaments/_{n}.html", context).strip()
                         for n in wanted}}


def exists(tournament_id: str) -> bool:
    return Tournament.objects.filter(pk=tournament_id).exists()


def viewer_sections(tournament_id: str, user: Any) -> dict[str, Any] | None:
    """Every section as `user` sees it now (a socket's connect and `sync`); None if there
    is no such tournament."""
    at = now_ms()
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    viewer = pages.viewer_of(tournament, user)
    you = user.username if getattr(user, "is_authenticated", False) else ""
    return sections(tournament, pages.SECTIONS, you=you, user=user, playing=viewer.playing,
                    at=at)


def row(tournament: Tournament) -> dict[str, Any]:
    """The list's row of one tournament (templates/tournaments/_row.html) with where it
    goes: its group, its game (a page of one game drops the others') and its start (the
    order within the group)."""
    at = now_ms()
    html = render_to_string("tournaments/_row.html", {"row": pages.row_of(tournament)})
    return {"tournament": tournament.id, "group": pages.group_of(tournament),
            "game": tournament.game_type, "starts": int(tournament.starts_at.timestamp()),
            "at": at, "html": html.strip()}


def row_frame(tournament: Tournament) -> dict[str, Any]:
    return {"type": "row", **row(tournament)}


def list_frame(game: str | None) -> dict[str, Any]:
    """The `list` frame: every row the list page shows now (of one game, or all), by
    group, in the page's order (a socket's connect and `sync`)."""
    at = now_ms()
    groups = pages.listing(game)
    rows = {key: [render_to_string("tournaments/_row.html", {"row": r}).strip()
                  for r in groups[key]] for key, _label, _statuses in pages.GROUPS}
    return {"type": "list", "game": game or "", "at": at, "rows": rows}


def send_sections(tournament_id: str, names: Iterable[str] = EVERYONE,
                  members: Iterable[int] = ()) -> None:
    """Now (the caller's change has committed): each of `members` their own sections
    (`pages.OWN`): "Play now" (their game of the tournament in progress, or none) and
    "Your entry" (their place, points and pairing; the standings read once for them all),
    then `names` to every socket on the page (a player just paired hears of their game
    before the shared render, which grows with the tournament); an arena's shared render
    at most once a window (`shared_or_later`). All in one send (`send_frames`). Failures
    are logged: what was committed stands, and pages catch up on their next connect."""
    try:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            return
        frames = own_frames(tournament, members)
        names = page_names(tournament, set(names) - set(pages.OWN))
        if names and (not tournament.arena or shared_or_later(tournament_id)):
            frames += shared_frames(tournament, names)
        broadcast.send_frames(frames)
    except Exception:
        log.exception("tournament %s: its live sections could not be sent", tournament_id)


def own_frames(tournament: Tournament, members: Iterable[int]
               ) -> list[tuple[str, dict[str, Any]]]:
    """Each member's own sections (`pages.OWN`), to their own sockets on the page. Their
    `at` is when the reads began, before the members' rows are read: a frame rendered
    from rows read before a concurrent pairing committed must not outrank the pairing's
    own frame, which a page would then drop as older (a player left without their
    game's "Play now": docs/tournaments-arena.md, "Session 31")."""
    at = now_ms()
    users = list(get_user_model().objects.filter(pk__in=list(members)))
    ranking = pages.ranking_of(tournament) if users else None
    rows = (arena_standings.members(tournament, [u.pk for u in users])
            if tournament.arena and users else {})
    frames = []
    for user in users:
        member = rows.get(user.pk)
        playing = pages.viewer_of(tournament, user, member).playing
        frames.append((member_group(tournament.pk, user.pk),
                       sections(tournament, pages.OWN, user=user, playing=playing,
                                ranking=ranking, member=member, at=at)))
    return frames


def shared_frames(tournament: Tournament, names: Iterable[str]
                  ) -> list[tuple[str, dict[str, Any]]]:
    """`names` rendered once for every socket on the page, and the list's row."""
    return [(group(tournament.pk), sections(tournament, names)),
            (LIST_GROUP, row_frame(tournament))]


def window_of(at_ms: int) -> int:
    """The number of the shared render's window that the time `at_ms` falls in."""
    return at_ms // SHARED_WINDOW_MS


def take_window(tournament_id: str, window: int) -> bool:
    """Take the arena's shared render for `window`, once across the site's processes (the
    cache's `add`); False if a render already took it."""
    return bool(cache.add(f"arena-shared:{tournament_id}:{window}", 1,
                          timeout=SHARED_KEY_SECONDS))


def shared_or_later(tournament_id: str) -> bool:
    """May an arena's shared sections be rendered now? Once per window
    (`SHARED_WINDOW_MS`) per arena across the site's processes: the first change of a
    window takes it (the cache's `add` of the window's key) and renders at once; a later
    change of the window gets one render at the window's end (`_render_late`), unless one
    is already on its way: it reads the arena when it runs, after this change, so the
    latest state is what every page gets and nothing is lost. Windows are numbered by the
    clock, so the keys need no sub-second timeout. When tasks run in this process (tests,
    the embedded default) every change renders at once."""
    if eager():
        return True
    now = now_ms()
    window = window_of(now)
    if take_window(tournament_id, window):
        return True
    _render_late(tournament_id, window, now)
    return False


def shared_soon(tournament_id: str) -> None:
    """`shared_or_later` for a change committed on a live-db thread of an ASGI process (an
    arena game's end), the render not on that thread: the window free, it is taken here
    and rendered at once on the process's render thread (`games.sockets.renders`), or by
    a worker where there is none (`tournaments.arena_sections` with the window); else the
    window's late render. On the live-db thread, after the call's frames, the render
    waited for a thread behind other games' calls; in the worker, for a free child
    (docs/tournaments-arena.md, "Session 31")."""
    now = now_ms()
    window = window_of(now)
    if not take_window(tournament_id, window):
        _render_late(tournament_id, window, now)
    elif not renders.run_soon(lambda: shared_render(tournament_id, window)):
        enqueue("tournaments.arena_sections", tournament_id, window)


def _render_late(tournament_id: str, window: int, now: int) -> None:
    """One render at `window`'s end, unless one is already on its way: on this process's
    render thread, or by a worker where there is none (or when a render there is lost
    with its process: the next change renders again)."""
    if not cache.add(f"arena-shared-due:{tournament_id}:{window}", 1,
                     timeout=SHARED_KEY_SECONDS):
        return
    delay = max(0.0, ((window + 1) * SHARED_WINDOW_MS - now) / 1000)
    if not renders.run_soon(lambda: shared_render(tournament_id), delay):
        enqueue("tournaments.arena_sections", tournament_id, countdown=delay)


def send_shared(tournament_id: str, taken: int | None = None) -> None:
    """`shared_render`, sent (the worker's task). Failures are logged."""
    broadcast.send_frames(shared_render(tournament_id, taken))


def shared_render(tournament_id: str, taken: int | None = None
                  ) -> list[tuple[str, dict[str, Any]]]:
    """Every shared section of the arena's page as it is now, and the list's row: the
    render of the window `taken` (`shared_soon` took it), or a late render
    (`_render_late`), which renders nothing when a render already took the window it runs
    in (that render began after the change that asked for this one, so that change is in
    it), and takes the window itself otherwise, so a change just after gets its own late
    render. A failure is logged, and renders nothing."""
    try:
        if taken is None and not take_window(tournament_id, window_of(now_ms())):
            return []
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            return []
        names = tuple(n for n in pages.sections_of(tournament) if n not in pages.OWN)
        return shared_frames(tournament, names)
    except Exception:
        log.exception("tournament %s: its shared sections could not be rendered",
                      tournament_id)
        return []


def created(tournament_id: str) -> None:
    """After a tournament's creation commits: its row to the list's sockets."""

    def send() -> None:
        try:
            tournament = Tournament.objects.filter(pk=tournament_id).first()
            if tournament is not None:
                broadcast.send_to_group(LIST_GROUP, row_frame(tournament))
        except Exception:
            log.exception("tournament %s: its row could not be sent", tournament_id)

    transaction.on_commit(send)


def after_game_frames(tournament_id: str, names: Iterable[str] = EVERYONE,
                      members: Iterable[int] = ()) -> None:
    """A game's end, from the finish seam's after-commit stage: `members`' own sections
    (their place and points, their "Play now" gone) rendered now, so they go out in the
    ending call's own send, with the game's last frames (a socket's call sends what it
    collected in order: these first, since the finish seam's handlers run at commit
    before the turn's frames are collected), and a player's page shows the result as the
    game ends; `names` to every socket once those frames are sent
    (`games.frames.broadcast.after_sends`: the shared render is the larger, and an
    arena's is coalesced), or now outside a socket's call.

    Measured (docs/tournaments-arena.md, "Session 29"): with the players' sections
    deferred with the shared ones, a result reached a player's "Your entry" at p95 853 ms
    in the 200-player arena; the deferred call waited for a live-db thread behind the
    other games' turns and ends, then for the shared render."""
    names, members = tuple(names), tuple(members)
    if members:
        send_sections(tournament_id, (), members)
    if names:
        broadcast.after_sends(lambda: send_sections(tournament_id, names))


def after_arena_game(tournament_id: str, members: Iterable[int]) -> None:
    """An arena game's end, from the finish seam's after-commit stage: the shared sections
    (the standings every page shows) handed to the render thread, or a worker where there
    is none (`shared_soon`), first, so that they are rendered while this thread renders
    the players' own sections, which go in the ending call's send as in
    `after_game_frames`. Where tasks run in this process (tests, the embedded default) the
    shared sections follow the call's frames, as a Swiss's do."""
    members = tuple(members)
    if not eager():
        shared_soon(tournament_id)
    if members:
        send_sections(tournament_id, (), members)
    if eager():
        broadcast.after_sends(lambda: send_sections(tournament_id, ("arena",)))


def entrants(tournament_id: str) -> list[int]:
    """Every entrant's member id: whose "Your entry" a round's end changes (their places
    and points)."""
    return list(Entry.objects.filter(tournament_id=tournament_id)
                .values_list("user_id", flat=True))


def on_commit(tournament_id: str, names: Iterable[str] = EVERYONE,
              members: Iterable[int] = ()) -> None:
    """`send_sections` once the caller's transaction commits (nothing if it rolls back)."""
    names, members = tuple(names), tuple(members)
    transaction.on_commit(lambda: send_sections(tournament_id, names, members))
