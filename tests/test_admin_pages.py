"""The admin's small mends (issue #42, point 18): every model's name reads right in the
plural ("progress entries", not "progresss"), and the site's icon answers at /favicon.ico
and is named by every admin page, so that no admin page draws a 404."""

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client

ENDINGS = ("s", "x", "z", "ch", "sh")


def test_every_admin_models_plural_reads_right():
    wrong = []
    for model in admin.site._registry:
        name, plural = str(model._meta.verbose_name), str(model._meta.verbose_name_plural)
        if name.endswith(ENDINGS) and plural == name + "s":
            wrong.append(f"{model._meta.label}: {plural}")
    assert wrong == []
    from puzzles.models import Progress

    assert str(Progress._meta.verbose_name_plural) == "progress entries"


@pytest.mark.django_db
def test_the_icon_answers_at_favicon_ico():
    answer = Client().get("/favicon.ico")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "image/svg+xml"
    assert answer.content.startswith(b"<svg") and b"#ff8c32" in answer.content
    assert "max-age=86400" in answer["Cache-Control"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/admin/login/", "/admin/", "/admin/puzzles/progress/",
                                  "/admin/daily/dailygame/", "/admin/puzzles/puzzle/add/"])
def test_every_admin_page_names_the_icon(path):
    client = Client()
    if path != "/admin/login/":
        client.force_login(get_user_model().objects.create_superuser(
            "boss", "b@example.com", "pw-long-boss"))
    answer = client.get(path)
    assert answer.status_code == 200
    page = answer.content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
