"""The games app's public functions, in one place: other apps (the Daily Challenge, the
Weekly Puzzles' pages, scripts) start, play and end games only through these.

Each lives in the module that owns its concern:
- `games.play`: making games, applying a seat's decision, resigning, rematches;
- `games.finish`: the finish seam (`void_game`; `finish` is called by `play`);
- `games.lobby`: seeks and challenges;
- `games.bot_games`, `games.bots`: games with bot seats, a bot's decision, and their
  Celery tasks;
- `games.timeouts`, `games.abandonment`: flags falling, aborts, claims, players' presence;
- `games.history`: catch-up, replays, records;
- `games.review`: the game review, its spoiler shield and the analysis board;
- `games.protocol`: the state, frames and the error type; `games.store`: loading rows;
- `games.actors`: who is acting and which seat they hold;
- `games.kinds`: the registry of game kinds, the only door to an engine.
"""

from .abandonment import abort as abort_game
from .abandonment import arrived as player_arrived
from .abandonment import claim as claim_game
from .abandonment import claim_seat
from .abandonment import went_away as player_went_away
from .actors import Actor, seat_of
from .bot_games import (
    active_bot_games,
    bots_in_words,
    create_bot_game,
    create_game_against_bots,
    play_bot_turn,
)
from .bots import (
    BOT_SWEEP_AFTER,
    enqueue_bot_turn,
    nudge_bot,
    stalled_bot_games,
    sweep_bot_games,
)
from .finish import void_game
from .history import (
    catch_up,
    current_ply,
    current_revision,
    record_text,
    replay_data,
    replay_viewer,
    turn_frames,
)
from .lobby import (
    accept_challenge,
    cancel_challenge,
    create_challenge,
    join_table,
    leave_table,
    open_seeks,
    start_table,
)
from .play import TurnResult, apply_turn, create_game, offer_rematch, resign, resign_seat
from .preturns import queue as queue_turn
from .preturns import with_queue
from .protocol import (
    MAX_TOKEN_LENGTH,
    Code,
    GameError,
    NotFound,
)
from .review import (
    analyse,
    check_reviewable,
    request_review,
    review_page_data,
    review_status,
    spoiler_shielded,
)
from .states import public_state, state_of
from .store import get_game, live, replayed
from .timeouts import flag_due_games, flag_if_due

__all__ = [
    "BOT_SWEEP_AFTER",
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
    "catch_up",
    "check_reviewable",
    "claim_game",
    "claim_seat",
    "current_ply",
    "current_revision",
    "create_bot_game",
    "create_game_against_bots",
    "create_challenge",
    "create_game",
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
    "with_queue",
]
