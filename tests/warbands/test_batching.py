"""``roster_batch``: many roster services on one warband as one change (one lock, one rating
refresh, one version bump, one house-rule check), with the same end state as calling them one
by one."""

import pytest
from django.core.exceptions import ValidationError

from annuminas.errors import Conflict
from tests.warbands.fixtures import fighter_type
from warbands import constraints, services
from warbands.models import Fighter, HenchmanGroup, LedgerEntry, Warband

pytestmark = pytest.mark.django_db


def roster(warband):
    """Leader and a group of two: what a post-battle sequence typically changes."""
    leader = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Capitán"
    )
    group = services.fighter_hire(
        warband=warband,
        fighter_type=fighter_type("guerrero-mercenario"),
        name="Guerreros",
        count=2,
    )
    return leader, group


def changes(warband, leader, group):
    services.fighter_add_experience(fighter=leader, amount=9)
    services.fighter_add_experience(group=group, amount=2)
    services.ledger_record(
        warband=warband, amount=0, finds_delta=3, reason="exploration", description="found"
    )
    services.ledger_record(
        warband=warband, amount=45, finds_delta=-3, reason="sell_finds", description="sold"
    )
    services.fighter_add_injury(fighter=leader, code="old_battle_wound", label="Old wound")
    member = group.members.order_by("pk").first()
    services.fighter_set_status(fighter=member, status="misses_next", misses_battles=1)


def state(warband):
    warband = Warband.objects.get(pk=warband.pk)
    return {
        "treasury": warband.treasury,
        "finds": warband.finds,
        "rating": warband.rating,
        "fighters": sorted(
            Fighter.objects.filter(warband=warband).values_list(
                "name", "experience", "advances_due", "status", "misses_battles", "injuries"
            )
        ),
        "groups": sorted(
            HenchmanGroup.objects.filter(warband=warband).values_list(
                "name", "experience", "advances_due"
            )
        ),
        "ledger": list(
            LedgerEntry.objects.filter(warband=warband)
            .order_by("pk")
            .values_list("amount", "finds_delta", "treasury_after", "finds_after", "reason")
        ),
    }


def test_a_batch_ends_as_the_same_calls_one_by_one_with_one_version_bump(make_warband, content):
    one_by_one = make_warband(name="Uno a uno")
    batched = make_warband(name="En lote")
    leader_a, group_a = roster(one_by_one)
    leader_b, group_b = roster(batched)
    before = Warband.objects.get(pk=batched.pk).version

    changes(one_by_one, leader_a, group_a)
    with services.roster_batch(warband=batched) as batch:
        changes(batched, leader_b, group_b)
        assert Warband.objects.get(pk=batched.pk).version == before  # not yet written

    assert state(batched) == state(one_by_one)
    assert Warband.objects.get(pk=batched.pk).version == before + 1
    assert batched.version == before + 1  # the instance passed in gets the final values
    assert batched.treasury == state(one_by_one)["treasury"]
    assert batch.warband.rating == state(one_by_one)["rating"]


def test_house_rules_run_once_on_the_roster_as_the_batch_leaves_it(warband, monkeypatch):
    leader, group = roster(warband)
    seen = []
    monkeypatch.setattr(constraints, "_validators", [lambda w: seen.append(w.rating)])

    with services.roster_batch(warband=warband):
        services.fighter_add_experience(fighter=leader, amount=3)
        services.fighter_add_experience(group=group, amount=1)

    assert seen == [Warband.objects.get(pk=warband.pk).rating]


def test_a_failing_house_rule_rolls_the_whole_batch_back(warband, monkeypatch):
    leader, group = roster(warband)
    before = state(warband)
    version = Warband.objects.get(pk=warband.pk).version

    def refuse(w):
        raise ValidationError("over the cap")

    monkeypatch.setattr(constraints, "_validators", [refuse])
    with (
        pytest.raises(ValidationError, match="over the cap"),
        services.roster_batch(warband=warband),
    ):
        services.fighter_add_experience(fighter=leader, amount=3)
        services.ledger_record(warband=warband, amount=10, reason="adjustment", description="x")

    assert state(warband) == before
    assert Warband.objects.get(pk=warband.pk).version == version


def test_an_error_inside_rolls_the_whole_batch_back(warband):
    leader, _group = roster(warband)
    before = state(warband)
    treasury = Warband.objects.get(pk=warband.pk).treasury

    with (
        pytest.raises(ValidationError, match="Not enough coronas"),
        services.roster_batch(warband=warband),
    ):
        services.fighter_add_experience(fighter=leader, amount=3)
        services.ledger_record(
            warband=warband, amount=-(treasury + 1), reason="adjustment", description="x"
        )

    assert state(warband) == before


def test_a_stale_version_is_refused_before_anything(warband):
    leader, _group = roster(warband)
    stale = Warband.objects.get(pk=warband.pk).version - 1
    with pytest.raises(Conflict), services.roster_batch(warband=warband, expected_version=stale):
        services.fighter_add_experience(fighter=leader, amount=3)
    assert Fighter.objects.get(pk=leader.pk).experience == leader.experience


def test_nested_batches_of_one_warband_join_and_an_empty_batch_changes_nothing(warband):
    leader, _group = roster(warband)
    version = Warband.objects.get(pk=warband.pk).version

    with services.roster_batch(warband=warband):
        pass
    assert Warband.objects.get(pk=warband.pk).version == version

    with services.roster_batch(warband=warband) as outer:
        with services.roster_batch(warband=warband.pk) as inner:
            assert inner is outer
            services.fighter_add_experience(fighter=leader, amount=1)
        services.fighter_add_experience(fighter=leader, amount=1)
    assert Warband.objects.get(pk=warband.pk).version == version + 1


def test_refresh_gives_the_advances_due_mid_batch(warband):
    leader, _group = roster(warband)
    with services.roster_batch(warband=warband) as batch:
        services.fighter_add_experience(fighter=leader, amount=20)
        assert not batch.fresh
        batch.refresh()
        assert batch.fresh
        due = Fighter.objects.get(pk=leader.pk).advances_due
        assert due > 0
        assert [f.advances_due for f in batch.fighters if f.pk == leader.pk] == [due]
        # A ledger entry changes neither rating nor advances: the refresh stays valid.
        services.ledger_record(warband=warband, amount=5, reason="adjustment", description="x")
        assert batch.fresh
    assert Fighter.objects.get(pk=leader.pk).advances_due == due
