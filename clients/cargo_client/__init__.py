"""cargo_client: a small reference client of the Cargo site's public API (docs/api.md).

It connects any engine to the site: it follows a game's stream (NDJSON), rebuilds the
seat's whole state from each line, asks the engine for a decision whenever the seat must
decide, and posts it. `api` speaks HTTP, `diff` and `held` rebuild states, `engines` says
what an engine is, `play` runs games, `cargobot` and `expressbot` adapt the site's own
bots. Standard library only (the adapters need the site's `engine/` and `express/`)."""

__version__ = "1.0"
