from django.urls import path, register_converter

from games.views import lobby, pages, review, waiting

app_name = "games"


class IdConverter:
    """A game or challenge id: 10 base62 characters (so `<id>.ccn` is not an id)."""

    regex = "[0-9A-Za-z]{10}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(IdConverter, "gid")

urlpatterns = [
    path("play/", lobby.lobby, name="index"),
    path("games/waiting", waiting.waiting, name="waiting"),
    path("play/seek", lobby.create_seek, name="create_seek"),
    path("play/quick", lobby.quick_play, name="quick_play"),
    path("play/bot", lobby.create_bot_game, name="create_bot_game"),
    path("play/bots", lobby.play_bots, name="play_bots"),
    path("play/seeks.json", lobby.seeks_json, name="seeks_json"),
    path("challenge/<gid:challenge_id>", lobby.challenge, name="challenge"),
    path("challenge/<gid:challenge_id>.json", lobby.challenge_json, name="challenge_json"),
    path("challenge/<gid:challenge_id>/accept", lobby.accept, name="accept"),
    path("challenge/<gid:challenge_id>/cancel", lobby.cancel, name="cancel"),
    path("challenge/<gid:challenge_id>/decline", lobby.decline, name="decline"),
    path("challenge/<gid:challenge_id>/leave", lobby.leave, name="leave"),
    path("challenge/<gid:challenge_id>/start", lobby.start, name="start"),
    path("g/<gid:game_id>", pages.game, name="game"),
    path("g/<gid:game_id>.ccn", pages.record, name="record"),
    path("g/<gid:game_id>/record.ccn", pages.record, name="record_alt"),
    path("g/<gid:game_id>/turn", pages.turn, name="turn"),
    path("g/<gid:game_id>/resign", pages.resign, name="resign"),
    path("g/<gid:game_id>/abort", pages.abort, name="abort"),
    path("g/<gid:game_id>/claim", pages.claim, name="claim"),
    path("g/<gid:game_id>/events", pages.events, name="events"),
    path("g/<gid:game_id>/rematch", pages.rematch, name="rematch"),
    path("g/<gid:game_id>/replay", pages.replay, name="replay"),
    path("g/<gid:game_id>/replay.json", pages.replay_json, name="replay_json"),
    path("g/<gid:game_id>/review", review.review, name="review"),
    path("g/<gid:game_id>/review.json", review.review_json, name="review_json"),
    path("g/<gid:game_id>/analysis.json", review.analysis, name="analysis"),
]
