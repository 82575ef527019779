from django.urls import path, register_converter

from . import views

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
    path("play/", views.lobby, name="index"),
    path("play/seek", views.create_seek, name="create_seek"),
    path("play/quick", views.quick_play, name="quick_play"),
    path("play/bot", views.create_bot_game, name="create_bot_game"),
    path("play/seeks.json", views.seeks_json, name="seeks_json"),
    path("challenge/<gid:challenge_id>", views.challenge, name="challenge"),
    path("challenge/<gid:challenge_id>.json", views.challenge_json, name="challenge_json"),
    path("challenge/<gid:challenge_id>/accept", views.accept, name="accept"),
    path("challenge/<gid:challenge_id>/cancel", views.cancel, name="cancel"),
    path("challenge/<gid:challenge_id>/leave", views.leave, name="leave"),
    path("challenge/<gid:challenge_id>/start", views.start, name="start"),
    path("g/<gid:game_id>", views.game, name="game"),
    path("g/<gid:game_id>.ccn", views.record, name="record"),
    path("g/<gid:game_id>/record.ccn", views.record, name="record_alt"),
    path("g/<gid:game_id>/turn", views.turn, name="turn"),
    path("g/<gid:game_id>/resign", views.resign, name="resign"),
    path("g/<gid:game_id>/abort", views.abort, name="abort"),
    path("g/<gid:game_id>/claim", views.claim, name="claim"),
    path("g/<gid:game_id>/events", views.events, name="events"),
    path("g/<gid:game_id>/rematch", views.rematch, name="rematch"),
    path("g/<gid:game_id>/replay", views.replay, name="replay"),
    path("g/<gid:game_id>/replay.json", views.replay_json, name="replay_json"),
    path("g/<gid:game_id>/review", views.review, name="review"),
    path("g/<gid:game_id>/review.json", views.review_json, name="review_json"),
    path("g/<gid:game_id>/analysis.json", views.analysis, name="analysis"),
]
