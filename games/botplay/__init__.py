"""Bots: bot seats in the turn path (`bots`: who waits on a bot, sending its task after commit,
the sweep) and games with bot seats (`bot_games`: making them, the task's body). Tasks are
sent by name (common.queue)."""
