"""Swiss-system pairing and tie breaks as pure functions (no Django, no database).

It owns the FIDE Dutch pairing of a Cargo Connect round (:mod:`.dutch`, by the
caissify-pairings library), the records it reads (:mod:`.records`: who played whom, in which
seat, with what result) and the tie breaks Buchholz and Sonneborn–Berger
(:mod:`.tiebreaks`); and Cargo Express's tables of 3 or 4 by score groups, their seats, points
by place, tie breaks and standings (:mod:`.express_tables`). The callers turn their rows
into these values and store what comes back; docs/tournaments.md says why this library and
how it was checked, docs/tournaments-express-swiss.md the Express rules.
"""

from tournaments.swiss.dutch import Board, Pairing, PairingError, pair_round
from tournaments.swiss.records import Entrant, Outcome, RoundRecord, Seat, absent_rounds

__all__ = [
    "Board",
    "Entrant",
    "Outcome",
    "Pairing",
    "PairingError",
    "RoundRecord",
    "Seat",
    "absent_rounds",
    "pair_round",
]
