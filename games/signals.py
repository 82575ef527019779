"""What other apps may hear of live play besides a game's end (that is `games.results`,
the finish seam's bus): a turn passed to someone, a table joined, a table started, a rematch
offered, a challenge sent to a member. The games app sends these where they happen, inside
its services' transactions, and knows nothing of who listens; the notifications app
subscribes from its `ready()` (the "your turn" of a correspondence game, a table's
invitations, a rematch's offer, a challenge), the API's event stream from its own (a game's
start: `gameStart`). A receiver that
raises fails the sender's transaction, as a direct call would: receivers defer what must wait
for the commit themselves (notifications sends its frames on commit).

Each signal's sender is the module sending it; its arguments are keywords:
- `turn_passed`: game, live (the kind's game after the change, or None: read it), decided
  (the seat whose decision it was; None at the game's start).
- `table_joined`: challenge, name (who sat down, as shown).
- `table_started`: challenge, game, starter (the member id whose join or start made it,
  or None).
- `rematch_offered`: game, seat (the offerer's).
- `challenge_sent`: challenge (a challenge to one member, `Challenge.invited`, was made).
- `game_aborted`: game (ended with no result by `games.turns.finish.abort_game`: a player's
  abort, the idle sweep, every person gone; no `games.results` handler runs for it, as
  there is nothing to count, so an app that tells of every ending hears this too: the
  API's `gameFinish`).
"""

from django.dispatch import Signal

turn_passed = Signal()
table_joined = Signal()
table_started = Signal()
rematch_offered = Signal()
challenge_sent = Signal()
game_aborted = Signal()
