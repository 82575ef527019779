"""Table chat (issue #29): the players' room and the spectators' room of each game,
delivered over the game's socket, with its moderation (docs/chat.md)."""
