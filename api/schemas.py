"""The shapes the API answers, as pydantic models (django-ninja turns them into the OpenAPI
description's JSON Schemas, 2020-12 as 3.1 has it). Field names are snake_case, as the
site's own JSON (the live protocol) has them. A game's `state` is the live protocol's state
for the asking viewer (docs/live-protocol.md), whose shape is each game kind's: an object
here."""

from __future__ import annotations

from typing import Any

from ninja import Schema
from pydantic import Field


class ErrorOut(Schema):
    code: str
    error: str


class RatingOut(Schema):
    game: str  # the game type's key, e.g. cargo-connect
    game_name: str
    system: str  # "elo", "openskill" or "vs_cargobot"
    rating: int
    games: int
    provisional: bool


class ProfileOut(Schema):
    username: str
    title: str | None  # "BOT" for a BOT account (lichess's title), else None
    url: str
    joined: str  # ISO 8601
    games_counted: int  # online and casual-vs-bot games the profile counts
    ratings: list[RatingOut]


class PlayerOut(Schema):
    seat: int  # 0-based
    side: str  # the kind's name for the seat ("blue", "orange"; "1".."4")
    name: str
    username: str | None  # a member's; None for a guest or a bot
    title: str | None  # "BOT" for a BOT account (a member); None for anyone else
    bot: str | None  # the site's own bot's level when one plays the seat
    score: int | None
    place: int | None
    outcome: str  # "win", "loss", "draw" or "" while the game goes on
    resigned: bool


class GameOut(Schema):
    id: str
    url: str
    game: str
    mode: str  # "online", "bot" or "daily"
    rated: bool
    status: str  # "active", "finished", "aborted", "voided"
    termination: str
    created_at: str
    finished_at: str | None
    ply: int
    players: list[PlayerOut]
    viewer: str  # "seat", "spectator" or "everything" (a finished game: all of it)
    seat: int | None  # the asker's seat, if they hold one
    record: str  # the record in the game's notation, as this viewer may have it
    state: dict[str, Any]  # the live protocol's state for this viewer


class GameLine(Schema):
    """One line of the NDJSON export: a finished game, everything in it public."""

    id: str
    url: str
    game: str
    mode: str
    rated: bool
    status: str
    termination: str
    created_at: str
    finished_at: str | None
    ply: int
    tokens: list[str]  # every turn's token, in order (the game's notation)
    players: list[PlayerOut]


class RankOut(Schema):
    rank: int
    username: str
    title: str | None
    rating: int
    games: int
    provisional: bool


class BoardOut(Schema):
    game: str
    rating: str  # "elo" (online; the game's method) or "bot" (vs CargoBot)
    title: str
    rules: str
    rows: list[RankOut]


class DailyStandingOut(Schema):
    difficulty: str
    state: str  # "not_started", "in_progress", "finished", "voided"
    game_id: str | None
    score: int | None
    bot_score: int | None
    outcome: str
    shown: str | None


class DailyOut(Schema):
    day: str  # the Pacific date
    size: int
    ends_at: str
    players: int
    url: str
    you: list[DailyStandingOut]  # the asker's own games of the day, per difficulty


class PuzzleOut(Schema):
    date: str
    day: str  # "Monday" … "Sunday"
    open: bool  # its day has come; a day to come tells nothing of its puzzle
    url: str | None
    size: int | None
    goal: str | None
    turns: int | None
    start: str | None  # the start position, in Cargo Connect's notation


class WeekOut(Schema):
    monday: str
    published: bool
    puzzles: list[PuzzleOut]


class TournamentRow(Schema):
    id: str
    url: str
    name: str
    game: str
    system: str
    status: str
    rounds: int
    time_control: str
    rated: bool
    bots_allowed: bool
    table_size: int
    starts_at: str
    players: int


class TournamentsOut(Schema):
    upcoming: list[TournamentRow]
    running: list[TournamentRow]
    finished: list[TournamentRow]


class StandingOut(Schema):
    rank: int
    username: str
    title: str | None
    points: str
    tie_breaks: list[str]
    games: int
    byes: int
    withdrawn: bool


class PlaceOut(Schema):
    username: str
    seat: str
    result: str
    forfeit: bool


class TableOut(Schema):
    number: int
    game_id: str | None
    result: str
    active: bool
    places: list[PlaceOut]


class RoundOut(Schema):
    number: int
    finished: bool
    tables: list[TableOut]
    byes: list[str]


class TournamentOut(TournamentRow):
    tie_breaks: list[str]
    entrants: list[str]
    standings: list[StandingOut]
    rounds_played: list[RoundOut]


class StreamLine(Schema):
    """A line of a live stream: a live-protocol frame (docs/live-protocol.md), whose fields
    besides `type` are the frame's own; an empty line between them is the keep-alive."""

    model_config = {"extra": "allow"}
    type: str  # "state", "turn", "resigned", "ended", "presence", "gameStart", ...


class DecisionIn(Schema):
    """A decision as a seat's socket sends it (`{"type": "turn"}`): its number and token."""

    ply: int = Field(ge=0, le=1_000_000, description=(
        "The decision's number: the game's ply for a game of turns (Cargo Connect), the "
        "seat's own count for one whose seats decide at once (Cargo Express: the state's "
        "`seqs`)."))
    token: str = Field(min_length=1, max_length=256, description=(
        "The decision in the game's notation (docs/live-protocol.md), as the game page "
        "sends it."))


class ResignIn(Schema):
    ply: int | None = Field(None, ge=0, le=1_000_000,
                            description="The game's ply the client knew (optional).")


class QueueIn(Schema):
    """A pre-turn as a seat's socket queues it (`{"type": "queue"}`, Cargo Express)."""

    key: str = Field(min_length=1, max_length=16, description=(
        "The turn the steps are for: the seat's state's `legal.next.key` (another turn's "
        "key is refused as stale)."))
    steps: list[str] = Field(max_length=12, description=(
        "The turn's steps in the game's notation, played at the reveal if still legal; "
        "none cancels what was queued."))


class PlayOut(Schema):
    """A decision or a resignation taken: the frame the seat's socket gets for it (its
    audience's), which every viewer's stream carries too."""

    ok: bool
    frame: dict[str, Any]


class ClaimIn(Schema):
    """A claim as a seat's socket sends it (`{"type": "claim"}`): the whole game with two
    seats, or with more the seat of a player who left."""

    result: str | None = Field(None, max_length=8, description=(
        "Two seats: `win` (the absent opponent's seat resigns) or `draw`."))
    seat: int | None = Field(None, ge=0, le=7, description=(
        "More than two seats: the seat (0-based) whose player has been away long enough, "
        "handed to its stand-in (a bot plays it on, or it goes dormant)."))


class ChatIn(Schema):
    text: str = Field(description=(
        "The message: one line of plain text, cleaned as the game page's chat cleans it "
        "(control characters dropped, whitespace runs made one space, NFKC), at most the "
        "chat's length limit once cleaned."))


class ChatLineOut(Schema):
    seq: int  # its number in its room
    author: str
    text: str
    at: str  # ISO 8601


class ChatSaidOut(ChatLineOut):
    """The `chat` frame the room's readers get (the socket's, and the game stream's)."""

    type: str  # "chat"
    room: str  # "players" or "spectators"


class ChatPostOut(Schema):
    ok: bool
    frame: ChatSaidOut


class ChatRoomOut(Schema):
    room: str  # "players" or "spectators"
    seq: int  # the room's last number
    messages: list[ChatLineOut]  # after the number asked for, at most the last 100
    hidden: list[int]  # numbers up to the one asked for that a moderator hid
    version: int  # the room's moderation number


class ChatStateOut(Schema):
    """The chat as the game page's socket gets it (`chat_state`): each room the asker
    reads now, with its messages."""

    type: str  # "chat_state"
    rooms: list[ChatRoomOut]
    you: str | None
    write: str | None  # the room the asker writes in, or None (`reason` says why)
    limit: int  # the longest message, in characters
    muted: list[str]  # whom the asker muted (their lines are left out)
    reason: str


class UpgradeOut(Schema):
    """The account is a BOT account now (lichess's title: "BOT")."""

    ok: bool
    username: str
    title: str  # "BOT"
    bot_since: str  # ISO 8601


class ChallengerOut(Schema):
    username: str
    title: str | None  # "BOT" for a BOT account
    rating: int  # the online rating of the challenge's game type


class DestOut(Schema):
    username: str
    title: str | None


class TableSeatOut(Schema):
    index: int  # 0-based
    label: str  # "Blue", or "Seat 2" when the seats are drawn at the start
    key: str  # the seat's key when the seats are placed, else ""
    name: str | None  # who sits there; None: free
    title: str | None
    holder: str | None  # "member", "guest", "bot" or None (free)
    bot_level: str | None
    host: bool


class ChallengeOut(Schema):
    """A challenge or table, as its members' events (`challenge`, `challengeDeclined`,
    `challengeCanceled`) carry it too (`games.tables.lobby.challenge_info`)."""

    id: str
    url: str
    status: str  # "open", "accepted", "cancelled" or "declined"
    game: str  # the game type's key
    game_name: str
    options: dict[str, Any]
    description: str  # the options in words ("6×6", "3 players")
    rated: bool
    time_control: str  # a clock's code ("10+5", "3d"), "" untimed
    time_control_label: str
    seat_count: int
    color: str  # the challenger's seat's key, or "random" (drawn at the start)
    public: bool  # in the lobby
    challenger: ChallengerOut
    dest: DestOut | None  # the member it is to; None: anyone with it may take it
    seats: list[TableSeatOut]
    free: int
    decline_reason: str | None  # lichess's key, once declined
    game_id: str | None  # the game, once it started


class ChallengeIn(Schema):
    """A challenge to a member, as the site's table form makes one (docs/tables.md)."""

    game: str | None = Field(None, max_length=32, description=(
        "The game type's key (`cargo-connect`, `cargo-express`); the site's default game "
        "when left out."))
    options: dict[str, Any] = Field(default_factory=dict, description=(
        "The game's options by the names its table form has (Cargo Connect: "
        "`{\"size\": 6}`); each left out takes its default."))
    time_control: str | None = Field(None, max_length=16, description=(
        "One of the time controls the site's table form offers for this game (`10+5`, "
        "`3d`, `untimed`: an untimed game is casual); the form's default when left out."))
    rated: bool = Field(True, description="Rated (members only, no bots) or casual.")
    color: str = Field("random", max_length=16, description=(
        "Your seat by its key (`blue`, `seat2`), or `random`: every seat drawn at the "
        "start."))
    seats: int | None = Field(None, ge=2, le=8, description=(
        "How many players, for a game of several counts (Cargo Express: 2 to 4); the "
        "challenge leaves one seat, the member's: the others take bots."))
    bots: dict[int, str] = Field(default_factory=dict, description=(
        "A bot level for each seat besides yours and the member's (0-based seat numbers), "
        "casual games only: `{\"2\": \"easy\"}`."))


class DeclineIn(Schema):
    reason: str = Field("generic", max_length=16, description=(
        "Why, lichess's keys: `generic`, `later`, `tooFast`, `tooSlow`, `timeControl`, "
        "`rated`, `casual`, `variant`, `noBot`, `onlyBot`."))


class JoinIn(Schema):
    seat: int | None = Field(None, ge=0, le=7, description=(
        "The seat to sit at (0-based) when the table's seats are as chosen; else the "
        "first free one."))


class TakenOut(Schema):
    """A seat taken at a challenge or table: its game when that started it, else None
    (the table waits for more players)."""

    ok: bool
    game_id: str | None
    game_url: str | None
    challenge: ChallengeOut


class DoneOut(Schema):
    """A challenge declined or cancelled, as it is now."""

    ok: bool
    challenge: ChallengeOut
