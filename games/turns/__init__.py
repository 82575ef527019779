"""Play and decisions: making a game, applying a seat's decision (`play`, the one apply path),
what both turn paths share once applied (`applied`), pre-turns (`preturns`), loading rows
(`store`), and the finish seam (`finish`). May import frames, timing, bots and the kinds;
never the sockets, views or tables."""
