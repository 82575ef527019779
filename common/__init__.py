"""What every app of the site shares, below them all: the read-only admin (`admin_views`),
tasks sent by name (`queue`), the styled error pages (`errors`), the site's day
(`timezones`), the one normalisation of typed text (`text`) and the site's deploy checks
(`checks`, registered by `apps`).

`common` imports Django and the libraries the site depends on, never an app of the site
(`accounts`, `games`, `puzzles`, `rankings`, `chat`, `notifications`) nor `cargosite`, the
top layer that assembles them (settings, URLs, ASGI, the home page);
tests/platform/test_boundaries.py holds both ways: no app imports `cargosite`.
"""
