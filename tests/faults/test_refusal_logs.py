"""A staff member refused an admin page (403) is one log line, not a traceback (issue #28,
"also seen"): a refusal is the site working."""

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def installed_filters():
    import cargosite.asgi  # noqa: F401  (installs cargosite.logs, as the server does)


@pytest.mark.django_db
def test_a_staff_403_on_an_admin_page_logs_no_traceback(installed_filters, log_records,
                                                         client):
    staff = get_user_model().objects.create_user("clerk", "clerk@example.com", "pw-" * 4,
                                                 is_staff=True)
    client.force_login(staff)
    response = client.get("/admin/games/game/")
    assert response.status_code == 403
    refused = [r for r in log_records.records if r.name == "django.request"]
    assert len(refused) == 1 and "Forbidden" in refused[0].getMessage()
    assert log_records.tracebacks() == []
