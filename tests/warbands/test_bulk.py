"""``warbands.bulk.rows_update``: one UPDATE for many rows (PostgreSQL: ``UPDATE … FROM
(VALUES …)``; elsewhere Django's ``bulk_update``) writes exactly what ``save()`` would."""

import pytest

from tests.warbands.fixtures import fighter_type
from warbands import services
from warbands.bulk import rows_update
from warbands.models import Fighter, HenchmanGroup

pytestmark = pytest.mark.django_db


def test_every_kind_of_column_round_trips(warband):
    captain = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Aranarth"
    )
    group = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("guerrero-mercenario"), name="Lanzas", count=2
    )
    fighters = list(Fighter.objects.filter(warband=warband).order_by("pk"))
    for number, fighter in enumerate(fighters):
        fighter.m = 7.5 + number  # float
        fighter.experience = 40 + number  # integer
        fighter.is_leader = fighter.pk == captain.pk  # boolean
        fighter.name = f"Ñoño «{number}» 'x' \"y\""  # text that needs quoting
        fighter.injuries = [{"code": "leg", "label": "Pierna ñ", "nested": {"a": [1, None]}}]
        fighter.group = None if fighter.pk == captain.pk else group  # a nullable key
    rows_update(Fighter, fighters, ["m", "experience", "is_leader", "name", "injuries", "group"])
    for before in fighters:
        after = Fighter.objects.get(pk=before.pk)
        assert (after.m, after.experience, after.is_leader, after.name, after.injuries) == (
            before.m,
            before.experience,
            before.is_leader,
            before.name,
            before.injuries,
        )
        assert after.group_id == (None if before.pk == captain.pk else group.pk)
    # Rows not given, and columns not named, are untouched.
    assert HenchmanGroup.objects.get(pk=group.pk).name == "Lanzas"


def test_nothing_to_write_is_no_statement(django_assert_num_queries):
    with django_assert_num_queries(0):
        rows_update(Fighter, [], ["m"])


def test_a_text_too_long_for_its_column_is_refused_not_cut(warband):
    """Values are cast to text, so the column's own length check refuses an over-long one (a
    cast to varchar(n) would cut it silently)."""
    from django.db import DataError, connection, transaction

    if connection.vendor != "postgresql":
        pytest.skip("SQLite does not enforce a column's length")
    captain = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Aranarth"
    )
    captain.name = "x" * 500
    with pytest.raises(DataError), transaction.atomic():
        rows_update(Fighter, [captain], ["name"])
    assert Fighter.objects.get(pk=captain.pk).name == "Aranarth"
