"""The tournaments app's management commands (`arena_load_setup`: the members, sessions
and arena of scripts/load_arena.py)."""
