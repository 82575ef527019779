"""A game's record after the fact: history, catch-up, replays and export (`history`), and the
game review (`review`)."""
