"""The transactional tests' tear-down (tests/conftest.py, `quick_flush`): every row a test
wrote is gone, on every table, while the content types and permissions stay whole, as the
migrations made them (Django's flush re-made them through post_migrate)."""

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from games import services
from games.actors import Actor
from tests.conftest import quick_flush


class OneDatabase:
    def _databases_names(self, include_mirrors=True):
        return ["default"]


def row_counts() -> dict[str, int]:
    counts = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.django_table_names(only_existing=True,
                                                                 include_views=False):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


@pytest.mark.django_db(transaction=True)
def test_it_empties_every_table_but_the_content_types_and_permissions(django_user_model):
    types, permissions = ContentType.objects.count(), Permission.objects.count()
    alice, bob = (django_user_model.objects.create_user(n, f"{n}@example.com", "pw")
                  for n in ("alice", "bob"))
    alice.user_permissions.add(Permission.objects.first())
    services.create_game(game_type="cargo-connect", options={"size": 6}, rated=True,
                         time_control="3+2", seats=[Actor.member(alice), Actor.member(bob)])
    assert sum(row_counts().values()) > types + permissions  # rows referring to each other

    quick_flush(OneDatabase())

    left = {table: n for table, n in row_counts().items() if n}
    assert left == {"django_content_type": types, "auth_permission": permissions}
    assert ContentType.objects.get_for_model(django_user_model).model_class() \
        is django_user_model
