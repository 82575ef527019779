"""The games app's public functions, in one place: other apps (the Daily Challenge, the
Weekly Puzzles' pages, scripts) start, play and end games only through these.

Each lives in the module that owns its concern:
- `games.turns.play`: making games, applying a seat's decision, resigning, rematches;
- `games.turns.finish`: the finish seam (`void_game`; `finish` is called by `play`);
- `games.tables.lobby`: seeks and challenges;
- `games.botplay.bot_games`, `games.botplay.bots`: games with bot seats, a bot's decision, and their
  Celery tasks;
- `games.timing.timeouts`, `games.timing.abandonment`: flags falling, aborts, claims,
  players' presence;
- `games.records.history`: catch-up, replays, records;
- `games.records.review`: the game review, its spoiler shield and the analysis board;
- `games.frames.protocol`: the state, frames and the error type; `games.turns.store`: loading rows;
- `games.actors`: who is acting and which seat they hold;
- `games.kinds`: the registry of game kinds, the only door to an engine.
"""

from games.actors import Actor, seat_of
from games.botplay.bot_games import (
    active_bot_games,
    bots_in_words,
    create_bot_game,
    create_game_against_bots,
    play_bot_turn,
)
from games.botplay.bots import (
    BOT_SWEEP_AFTER,
    enqueue_bot_turn,
    nudge_bot,
    stalled_bot_games,
    sweep_bot_games,
)
from games.frames.away import arrived as player_arrived
from games.frames.away import went_away as player_went_away
from games.frames.protocol import MAX_TOKEN_LENGTH, Code, GameError, NotFound
from games.frames.states import public_state, state_of
from games.records.history import (
    catch_up,
    current_ply,
    current_revision,
    record_text,
    replay_data,
    replay_viewer,
    turn_frames,
)
from games.records.review import (
    analyse,
    check_reviewable,
    request_review,
    review_page_data,
    review_status,
    spoiler_shielded,
)
from games.tables.lobby import (
    DECLINE_REASONS,
    accept_challenge,
    cancel_challenge,
    challenge_info,
    create_challenge,
    decline_challenge,
    join_table,
    leave_table,
    open_seeks,
    start_table,
)
from games.tables.waiting import waiting_game, waiting_games
from games.timing.abandonment import abort as abort_game
from games.timing.abandonment import claim as claim_game
from games.timing.abandonment import claim_seat
from games.timing.timeouts import cut_clock, flag_due_games, flag_if_due
from games.turns.finish import void_game
from games.turns.play import TurnResult, apply_turn, create_game, offer_rematch, resign, resign_seat
from games.turns.preturns import MAX_KEY as MAX_QUEUE_KEY
from games.turns.preturns import MAX_STEPS as MAX_QUEUE_STEPS
from games.turns.preturns import queue as queue_turn
from games.turns.preturns import with_queue
from games.turns.store import get_game, live, replayed

__all__ = [
    "BOT_SWEEP_AFTER",
    "DECLINE_REASONS",
    "MAX_QUEUE_KEY",
    "MAX_QUEUE_STEPS",
    "MAX_TOKEN_LENGTH",
    "Actor",
    "Code",
    "GameError",
    "NotFound",
    "TurnResult",
    "abort_game",
    "accept_challenge",
    "active_bot_games",
    "bots_in_words",
    "analyse",
    "apply_turn",
    "cancel_challenge",
    "challenge_info",
    "catch_up",
    "check_reviewable",
    "claim_game",
    "claim_seat",
    "current_ply",
    "cut_clock",
    "current_revision",
    "create_bot_game",
    "create_game_against_bots",
    "create_challenge",
    "create_game",
    "decline_challenge",
    "enqueue_bot_turn",
    "flag_due_games",
    "flag_if_due",
    "get_game",
    "join_table",
    "leave_table",
    "live",
    "nudge_bot",
    "offer_rematch",
    "open_seeks",
    "play_bot_turn",
    "player_arrived",
    "player_went_away",
    "public_state",
    "queue_turn",
    "record_text",
    "replay_data",
    "replay_viewer",
    "replayed",
    "request_review",
    "resign",
    "resign_seat",
    "review_page_data",
    "review_status",
    "seat_of",
    "spoiler_shielded",
    "start_table",
    "stalled_bot_games",
    "state_of",
    "sweep_bot_games",
    "turn_frames",
    "void_game",
    "waiting_game",
    "waiting_games",
    "with_queue",
]
