"""What one viewer of a Cargo Express game is shown: the table's state for that viewer
(`express.describe.TableView`), the platform's viewers mapped onto the table's: a seat's
index, a spectator (None), or `EVERYTHING` (a finished game's replay and record)."""

from __future__ import annotations

from express.describe import TableView
from express.live_table import LiveTable
from games.kinds import EVERYTHING, Viewer


class ExpressView(TableView):
    """One viewer's state of a game (docs/live-protocol.md, "Cargo Express")."""

    def __init__(self, game: LiveTable, viewer: Viewer) -> None:
        super().__init__(game, viewer if isinstance(viewer, int) else None,
                         everything=viewer == EVERYTHING)
        self.viewer = viewer
