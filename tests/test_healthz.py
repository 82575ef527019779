"""/healthz answers 200 when the database and channel layer work, 503 naming what failed."""

from unittest import mock

import pytest
from django.test import override_settings

UNREACHABLE_REDIS = {
    "default": {
        "BACKEND": "cargosite.channel_layer.PipelinedPubSubChannelLayer",
        "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
    }
}


@pytest.mark.django_db
def test_it_reports_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "channel_layer": "ok"},
    }
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
@override_settings(CHANNEL_LAYERS=UNREACHABLE_REDIS, HEALTHZ_TIMEOUT_SECONDS=2)
def test_it_names_an_unreachable_channel_layer(client):
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["failed"] == ["channel_layer"]
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["channel_layer"] == "failed"
    # Nothing of the error's text (Redis's host and port) reaches the client (#28, point 10).
    assert "127.0.0.1" not in response.content.decode()
    assert "Error" not in response.content.decode()


@pytest.mark.django_db
def test_it_names_a_broken_database_and_logs_why(client, caplog):
    error = RuntimeError("db down at 10.1.2.3:5432")
    with mock.patch("cargosite.health.check_database", side_effect=error):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["failed"] == ["database"]
    assert response.json()["checks"]["database"] == "failed"
    assert "10.1.2.3" not in response.content.decode()
    logged = [r for r in caplog.records if r.name == "cargosite.health"]
    assert [r.getMessage() for r in logged] == [
        "healthz: database failed: RuntimeError: db down at 10.1.2.3:5432"]
    assert not logged[0].exc_info


@pytest.mark.django_db
def test_it_times_out_a_hanging_check(client):
    async def hang():
        import asyncio

        await asyncio.sleep(10)

    with (
        override_settings(HEALTHZ_TIMEOUT_SECONDS=0.2),
        mock.patch("cargosite.health.check_channel_layer", hang),
    ):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["channel_layer"] == "timeout"


@pytest.mark.asyncio
async def test_it_leaves_no_channel_behind():
    from channels.layers import get_channel_layer

    from cargosite.health import check_channel_layer

    layer = get_channel_layer()
    await check_channel_layer()
    if hasattr(layer, "channels"):  # the in-memory layer
        assert not [name for name in layer.channels if name.startswith("healthz.")]
    else:  # the Redis pub/sub layer keeps one loop layer per event loop
        loop_layer = layer._get_layer()
        assert not [name for name in loop_layer.channels if "healthz." in name]
