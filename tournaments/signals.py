"""What other apps may hear of the tournaments (the notifications and accounts apps
subscribe from their `ready()`); the tournaments app knows nothing of who listens.

- `round_started`: sent once a round's start has committed (never for a round rolled back),
  by `tournaments.rounds`. Keywords: `tournament`, `round` (the `Round`), `games`: each
  paired member's user id to their game of the round, or None for a bye.

- `arena_paired`: sent once an arena's pairing pass has committed, per game made, by
  `tournaments.arenas`. Keywords: `tournament`, `game` (the `games.Game`), `users`: the two
  players' user ids, Blue's first.

- `tournament_finished`: sent once a tournament's finish has committed (a Swiss after its
  last round or with too few left to pair, an arena after its last game; never for a
  cancelled one), by `tournaments.results.record_final`. Keywords: `tournament`, `places`:
  each member who played, by user id, to their final place (1 = first; level entrants of
  a Swiss share a place).

A receiver that raises is logged by `send_robust`'s caller and changes nothing: the round
has started already.
"""

from django.dispatch import Signal

round_started = Signal()
arena_paired = Signal()
tournament_finished = Signal()
