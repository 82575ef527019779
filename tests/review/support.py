"""Helpers for the review tests."""

from games import services
from games.actors import Actor


def play_out(game, tokens, blue, orange):
    """Play the tokens through the one apply path, Blue and Orange in turn."""
    for ply, token in enumerate(tokens):
        who = blue if ply % 2 == 0 else orange
        services.apply_turn(game.id, actor=Actor.member(who), ply=ply, token=token)
    return services.get_game(game.id)
