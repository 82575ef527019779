"""The wire protocol of live play (docs/live-protocol.md): the state a viewer sees, the
frames sent to sockets and returned by the HTTP fallback, and the one error type.

`GameError(Code.X, message)` is every refusal: it changes nothing, knows its HTTP status and
builds its own `error` frame; `NotFound` is the 404. The state is the game kind's view plus
the site's fields (seats, players, status, rematch); this module never decides a rule.

Pure serialisation: it shapes what its callers gathered and imports no service, store or
other app (tests/platform/test_boundaries.py). The state is gathered by games.frames.states
(`state_of`, `frame_state`: the kind's game, the ratings, the clocks, the rematch's URL).
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Protocol

from django.db import InterfaceError, OperationalError

from games.kinds import EVERYTHING, LiveGame, Viewer
from games.models import Game, Seat

PROTOCOL_VERSION = 3  # 3: group frames carry a diff of the state (games.frames.diffs)
MAX_TOKEN_LENGTH = 32  # Cargo Connect's; each kind says its own (GameKind.max_token_length)


class Code(Enum):
    """Error codes, each with its HTTP status."""

    BAD_FRAME = ("bad_frame", 400)
    BAD_REQUEST = ("bad_request", 400)
    ILLEGAL = ("illegal", 400)
    THROTTLED = ("throttled", 429)
    NOT_A_PLAYER = ("not_a_player", 403)
    HIDDEN = ("hidden", 403)  # not viewable by this viewer now (games.access)
    NOT_YOUR_TURN = ("not_your_turn", 409)
    STALE_PLY = ("stale_ply", 409)
    GAME_OVER = ("game_over", 409)
    GAME_NOT_OVER = ("game_not_over", 400)
    GONE = ("gone", 409)
    OWN_CHALLENGE = ("own_challenge", 400)
    NOT_FOUND = ("not_found", 404)
    SPOILER = ("spoiler", 403)  # a Daily Challenge game before its day ends (games.records.review)
    UNAVAILABLE = ("unavailable", 503)  # the database did not answer; nothing was done

    def __init__(self, code: str, status: int) -> None:
        self.code = code
        self.status = status


# The database is down or unreachable (a restart, a network fault): a request that meets one
# of these is answered `unavailable` (HTTP 503, a socket's error frame), not a traceback.
DATABASE_DOWN = (OperationalError, InterfaceError)
UNAVAILABLE_MESSAGE = "The database is not answering; nothing was changed. Try again in a moment."


def database_down_line(error: BaseException) -> str:
    """A database error in one line for the log (the driver's message runs to several)."""
    first = str(error).strip().splitlines()[:1]
    return f"{type(error).__name__}: {first[0] if first else ''}"


class GameError(Exception):
    """A refused request; nothing changed. After a `stale_ply`, `state` is the current
    state, sent after the error frame."""

    def __init__(self, code: Code, message: str, ply: int | None = None,
                 state: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.error = code
        self.message = message
        self.ply = ply
        self.state = state

    @property
    def code(self) -> str:
        return self.error.code

    @property
    def status(self) -> int:
        return self.error.status

    def frame(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message, "ply": self.ply}

    def body(self) -> dict[str, Any]:
        """The HTTP fallback's answer: the frame, and the state after a stale ply."""
        body = self.frame()
        if self.state is not None:
            body["state"] = self.state
        return body


class SignedOut(GameError):
    """A socket's session ended (sign-out, a password change, deactivation): it acts for
    no one, and the socket closes after this refusal."""

    def __init__(self) -> None:
        super().__init__(Code.NOT_A_PLAYER, "this socket's session has signed out")


class NotFound(GameError):
    def __init__(self, what: str) -> None:
        super().__init__(Code.NOT_FOUND, f"no such {what}")


LOBBY_SOCKET_PATH = "/ws/lobby/"  # cargosite/routing.py; Channels' routes have no reverse()


def game_socket_path(game_id: str) -> str:
    """The game's WebSocket path (cargosite/routing.py), for the page."""
    return f"/ws/game/{game_id}/"


# --- who sits where ------------------------------------------------------------------------


def holder_info(name: str | None, rated: dict[str, Any], bot: str | None,
                left: dict[str, Any] | None = None, title: str | None = None
                ) -> dict[str, Any] | None:
    """A seat's holder as the page shows them: name, `title` (a member's title, "BOT" for
    a BOT account: games.titles; None for anyone else), `rated` (`rating`, `rating_kind`,
    `rating_provisional`, `rating_change`, gathered by games.frames.states.player_info), the
    level of the bot that plays the seat, `left` (when and why the holder left, who plays
    on: games.frames.states.left_info); None for no one."""
    return None if name is None else {"name": name, "title": title or None, **rated,
                                      "bot": bot or None, "left": left}


def seats_of(game: Game, holders: list[dict[str, Any] | None]) -> list[dict[str, Any]]:
    """Each seat of `game` with its holder (`holders`, by seat, from `holder_info`)."""
    kind = game.kind
    out = []
    for seat, info in zip(game.seat_list, holders, strict=True):
        out.append({"seat": seat.index, "side": kind.seat_key(seat.index),
                    "label": kind.seat_label(seat.index), "holder": info,
                    # the site's place once the game is over (leavers last: games.turns.finish)
                    "place": seat.place if game.is_over else None,
                    **(info or {"name": None, "title": None, "rating": None,
                                "rating_kind": None,
                                "rating_provisional": False, "rating_change": None,
                                "bot": None, "left": None})})
    return out


def rematch_of(game: Game, url: str | None) -> dict[str, Any] | None:
    """The state's `rematch`: who offered, and the new game with its page's `url`."""
    if game.rematch_offered_by is None and game.rematch_id is None:
        return None
    offered = game.rematch_offered_by
    return {
        "offered_by": None if offered is None else game.kind.seat_key(offered),
        "game": game.rematch_id,
        "url": url if game.rematch_id else None,
    }


# --- the state -----------------------------------------------------------------------------


def state(game: Game, lg: LiveGame, *, viewer: Viewer, final: bool,
          seats: list[dict[str, Any]], rematch: dict[str, Any] | None,
          abandon: dict[str, Any] | None, clock: dict[str, Any] | None,
          history: bool = True) -> dict[str, Any]:
    """The state snapshot for `viewer` (a seat, None for a spectator, `EVERYTHING` for a
    finished game's replay), shaped from what the caller gathered (games.frames.states.state_of):
    `seats` (from `seats_of`), `rematch` (from `rematch_of`; None for an earlier ply), the
    `abandon` part (games.frames.away.state) and the clocks' state (`clock`, timed games'
    current state only). `final=False` describes an earlier ply (replays, catch-up): no
    resignation, no rematch, the status from the engine alone. With seat sequences, `seqs`
    says the number each seat's next decision carries (docs/live-protocol.md).
    `history=False` leaves out the decisions so far (`turns`) and the round's log (`log`):
    a frame's state, for a kind whose frames do not repeat them (`history_in_frames`)."""
    kind = game.kind
    seat = viewer if isinstance(viewer, int) else None
    # Once the site has ended a game, everything of it is public (Cargo Express's rule
    # 76), as its replay and record already are, even when the site ended it before the
    # kind's own game was over (the last person left, issue #42).
    shown: Viewer = EVERYTHING if final and game.is_over and kind.hidden_information \
        else viewer
    state = lg.view(shown)
    resigned = lg.resigned if final else []
    if final and game.termination in SITE_RESIGNS:  # the site resigned for them: `ending`
        resigned = []
    state.update(
        id=game.id,
        v=PROTOCOL_VERSION,
        game_type=game.game_type,
        status=game.status if final else ("finished" if lg.over else "active"),
        seats=seats,
        players={s["side"]: s.pop("holder") for s in seats},
        acting=[] if lg.over else lg.acting(),
        viewer=seat,
        you=None if seat is None else kind.seat_key(seat),
        resigned=kind.seat_key(resigned[0]) if resigned else None,
        rematch=rematch if final else None,
    )
    if final:  # the row's revision this state is of: what a frame's diff says it starts from
        state["rev"] = game.revision
    state.update(kind.facts(game.id, game.start, game.is_over if final else lg.over))
    if history:
        state["turns"] = lg.tokens_for(shown) if kind.hidden_information else list(lg.tokens)
        log = lg.log(viewer) if final else None  # the current state's only (LiveGame.log)
        if log is not None:
            state["log"] = log
    if kind.seat_sequences:  # public: how many decisions each seat has made
        state["seqs"] = [lg.sequence(s) for s in range(len(seats))]
    if final and game.status == Game.Status.VOIDED:
        state["voided"] = game.void_reason or "voided"
    _add_clock_fields(game, state, seats, final, abandon, clock)
    return state


SITE_ENDINGS = (Game.Termination.TIMED_OUT, Game.Termination.ABANDONED,
                Game.Termination.ABORTED)
# Endings where the kind's game was resigned for a seat that did not resign: the state's
# `resigned` stays empty (a loss on time is not a resignation) and `ending` says what it was.
SITE_RESIGNS = (Game.Termination.TIMED_OUT, Game.Termination.DAY_ENDED,
                Game.Termination.ABANDONED)


def _add_clock_fields(game: Game, state: dict[str, Any], seats: list[dict[str, Any]],
                      final: bool, abandon: dict[str, Any] | None,
                      clock: dict[str, Any] | None) -> None:
    """Each only when it has something to say (docs/clocks.md): the clocks (`clock`, timed
    games, in the current state only: an earlier ply's clocks are not kept), abort and
    claim (`abandon`, null when neither applies) and, once the game is over, `ending`: how
    it ended, in words (`ending_of`). A game the site ended is `over` with nobody acting,
    whatever the kind's game says (a draw called while its game goes on, an abort)."""
    # Always present (null when it has nothing to say): a page merges each state into the
    # one it holds, so a part that went away must say so (issue #27: "Abort the game"
    # stayed on screen all game against CargoBot).
    state["abandon"] = abandon
    if not final:
        return
    if clock is not None:
        state["clock"] = clock
    if game.is_over and game.termination:
        state["ending"] = ending_of(game, seats)
    if game.is_over:
        state["over"] = True
        state["acting"] = []


def ending_of(game: Game, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """How a finished game ended, in words, for every ending (issue #27: a loss on time was
    shown as a resignation): `termination`; `text`, the status line's sentence ("Orange
    (bob) ran out of time: Blue (alice) wins"), None for a game played out (the game's view
    words its own result: "Shift over: …"); `reason`, the ending alone ("Orange ran out of
    time"), None when played out; `out`, the sides the ending put out (who resigned, ran
    out of time, left, or whose day ended); `by`, the side that ended it (aborted, claimed).
    """

    def who(index: int) -> str:
        seat = seats[index]
        return f"{seat['label']} ({seat['name']})" if seat["name"] else seat["label"]

    def label(index: int) -> str:
        return str(seats[index]["label"])

    rows = game.seat_list
    winners = [s.index for s in rows if s.outcome == Seat.Outcome.WIN]
    by = game.ended_by
    term = game.termination
    out = [s.index for s in rows if s.resigned] \
        or [s.index for s in rows if s.outcome == Seat.Outcome.LOSS]
    wins = f"{' and '.join(who(i) for i in winners)} wins" if winners else "a draw"
    reason: str | None
    text: str | None
    def why(index: int) -> str:
        """How a seat's holder left, in words ("timed out twice in a row")."""
        left = rows[index].left or {}
        return Seat.LEFT_REASONS.get(left.get("reason") or "", "left the game")

    gone = [s.index for s in rows if s.stand_in]
    last = [s.index for s in rows if s.left and not s.stand_in and s.resigned]
    if term == Game.Termination.ABORTED and by is None and gone \
            and all(s.bot_level or s.stand_in for s in rows):
        # Every person left a casual game (web.md 4, games.turns.play._everyone_left).
        out = gone
        reason = " and ".join(f"{label(i)} {why(i)}" for i in gone)
        text = " and ".join(f"{who(i)} {why(i)}" for i in gone) + \
            ": every person at the table left this casual game, so it is aborted: no " \
            "result, no rating change"
    elif term in (Game.Termination.TIMED_OUT, Game.Termination.RESIGNED) and last:
        # The last person at the table left a rated game once every seat had moved: the
        # game ended on the standings (games.turns.play._last_person_left).
        out = last
        reason = " and ".join(f"{label(i)} {why(i)}" for i in last)
        text = " and ".join(f"{who(i)} {why(i)}" for i in last) + \
            f", the last person at the table: the game ends on the standings, {wins}"
    elif term == Game.Termination.ABORTED:
        out = []
        reason = "aborted" + (f" by {label(by)}" if by is not None else "")
        text = "Game aborted" + (f" by {who(by)}" if by is not None else "") \
            + " before every player had moved: no result, no rating change"
    elif term == Game.Termination.VOIDED:
        out = []
        reason = f"voided: {game.void_reason or 'by the site'}"
        text = f"Game voided ({game.void_reason or 'by the site'}): no result, no rating change"
    elif term == Game.Termination.TIMED_OUT:
        reason = " and ".join(label(i) for i in out) + " ran out of time"
        text = " and ".join(who(i) for i in out) + f" ran out of time: {wins}"
    elif term == Game.Termination.RESIGNED:
        reason = " and ".join(label(i) for i in out) + " resigned"
        text = " and ".join(who(i) for i in out) + f" resigned: {wins}"
    elif term == Game.Termination.DAY_ENDED:
        reason = "the day ended before the shift was over"
        text = ("The Daily Challenge's day ended before "
                + " and ".join(who(i) for i in out) + f" finished: {wins}")
    elif term == Game.Termination.ABANDONED:
        out = [s.index for s in rows if s.index != by]
        left = " and ".join(who(i) for i in out) + " left the game"
        claimant = who(by) if by is not None else "the other player"
        reason = " and ".join(label(i) for i in out) + " left the game"
        text = f"{left}: {claimant} " + ("claimed the win" if winners else "called it a draw")
    else:  # played out: the game's view words its result
        out, reason, text = [], None, None
    return {"termination": term, "text": text, "reason": reason,
            "out": [game.kind.seat_key(i) for i in out],
            "by": None if by is None else game.kind.seat_key(by)}


# --- frames --------------------------------------------------------------------------------


class TurnLike(Protocol):
    """A turn as a frame shows it: a stored `Turn`, or the fast path's `NewTurn`."""

    @property
    def ply(self) -> int: ...
    @property
    def token(self) -> str: ...
    @property
    def seat(self) -> int: ...
    @property
    def events(self) -> Any: ...


def turn_frame(game: Game, turn: TurnLike, state: dict[str, Any], lg: LiveGame,
               viewer: Viewer = None) -> dict[str, Any]:
    """A decision's frame for `viewer`, from `lg` just after it: the decision's token as
    that viewer may see it, its events for that viewer, and `state`. A kind with seat
    sequences also says which of its seat's decisions it was (`seq`)."""
    kind = game.kind
    token = lg.tokens_for(viewer)[turn.ply] if kind.hidden_information else turn.token
    frame = {"type": "turn", "ply": turn.ply, "token": token, "seat": turn.seat,
             "side": kind.seat_key(turn.seat),
             "events": lg.events_for(turn.events, viewer), "state": state}
    if kind.seat_sequences:
        frame["seq"] = lg.sequence(turn.seat) - 1
    return frame
