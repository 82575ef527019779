"""The API's endpoints by concern, each a django-ninja router that `api.site` mounts:
`members` (a profile), `games` (one game for the asking viewer), `export` (a member's
games as NDJSON, streamed), `boards` (the rankings), `puzzles` (the Daily Challenge and
the week's puzzles), `tournaments`. Each reads through its app's own queries and the games
app's per-viewer builders; none writes."""
