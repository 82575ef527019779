"""The games app's pages, thin: they parse, call a service, and render or answer JSON. One
module per concern (games/urls.py maps the URLs to them):

- `pages`: a game's own pages: the live game page and its plain-HTTP fallback (turn,
  resign, abort, claim, events, rematch), the replay and the record download;
- `lobby`: the lobby, seeks, quick play, games against CargoBot and tables (challenges);
- `review`: the game review, its progress and the analysis board;
- `waiting`: the "Your turn" page (a member's games in progress, games.tables.waiting);
- `shared`: what they share (a game or 404, refusals as JSON, the access checks).
"""
