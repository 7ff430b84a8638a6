"""After any sequence of roster operations the treasury is the ledger's sum, never negative,
and the rating is 5 per warrior (20 per large creature) plus experience."""

import contextlib

import pytest
from django.core.exceptions import ValidationError
from django.db.models import Sum
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from warbands import services
from warbands.models import (
    Equipment,
    EquipmentItem,
    Fighter,
    FighterType,
    HenchmanGroup,
    Warband,
    WarbandType,
)

pytestmark = pytest.mark.django_db

WARBAND_TYPE = "orcos-de-angmar"  # has a large creature (troll) and goblins
ITEMS = ["daga", "espada", "hacha", "lanza", "escudo", "arco", "arma-a-dos-manos", "honda"]


def pick(queryset, index):
    rows = list(queryset.order_by("pk"))
    return rows[index % len(rows)] if rows else None


class RosterMachine(RuleBasedStateMachine):
    owner = None

    def __init__(self):
        super().__init__()
        self.warband = services.warband_create(
            owner=self.owner, warband_type=WarbandType.objects.get(slug=WARBAND_TYPE), name="M"
        )
        self.types = list(FighterType.objects.filter(warband_type=self.warband.warband_type))

    def attempt(self, action, **kwargs):
        # A refusal (with its message) is fine: the invariants prove nothing leaked.
        with contextlib.suppress(ValidationError):
            action(**kwargs)

    @rule(index=st.integers(0, 50), count=st.integers(1, 5))
    def hire(self, index, count):
        fighter_type = self.types[index % len(self.types)]
        self.attempt(
            services.fighter_hire,
            warband=self.warband,
            fighter_type=fighter_type,
            name=f"{fighter_type.slug}-{index}",
            count=1 if fighter_type.is_hero else count,
        )

    @rule(item=st.sampled_from(ITEMS), index=st.integers(0, 50), holder=st.sampled_from("fgs"))
    def buy(self, item, index, holder):
        kwargs = {}
        if holder == "f":
            kwargs["fighter"] = pick(self.warband.fighters.filter(group=None), index)
        elif holder == "g":
            kwargs["group"] = pick(self.warband.groups.all(), index)
        self.attempt(
            services.equipment_buy,
            warband=self.warband,
            equipment=Equipment.objects.get(slug=item),
            **kwargs,
        )

    @rule(index=st.integers(0, 50))
    def sell(self, index):
        item = pick(EquipmentItem.objects.filter(warband=self.warband), index)
        if item:
            self.attempt(services.equipment_sell, item=item)

    @rule(index=st.integers(0, 50))
    def stash(self, index):
        item = pick(EquipmentItem.objects.filter(warband=self.warband), index)
        if item:
            self.attempt(services.equipment_stash, item=item)

    @rule(index=st.integers(0, 50), to=st.integers(0, 50))
    def assign(self, index, to):
        item = pick(
            EquipmentItem.objects.filter(warband=self.warband, fighter=None, group=None), index
        )
        fighter = pick(self.warband.fighters.filter(status__in=Fighter.IN_ROSTER), to)
        if item and fighter:
            self.attempt(services.equipment_assign, item=item, fighter=fighter)

    @rule(index=st.integers(0, 50), how=st.sampled_from(["dismiss", "retire", "kill"]))
    def leave(self, index, how):
        fighter = pick(self.warband.fighters.filter(status__in=Fighter.IN_ROSTER), index)
        if fighter:
            action = {
                "dismiss": services.fighter_dismiss,
                "retire": services.fighter_retire,
                "kill": services.fighter_kill,
            }[how]
            self.attempt(action, fighter=fighter)

    @rule(index=st.integers(0, 50))
    def dismiss_group(self, index):
        group = pick(self.warband.groups.all(), index)
        if group:
            self.attempt(services.group_dismiss, group=group)

    @rule(index=st.integers(0, 50), amount=st.integers(1, 6))
    def experience(self, index, amount):
        fighter = pick(self.warband.fighters.filter(status__in=Fighter.IN_ROSTER), index)
        if fighter:
            self.attempt(services.fighter_add_experience, fighter=fighter, amount=amount)

    @rule(amount=st.integers(-400, 400), finds=st.integers(-3, 3))
    def adjust(self, amount, finds):
        self.attempt(
            services.ledger_record,
            warband=self.warband,
            amount=amount,
            finds_delta=finds,
            reason="adjustment",
            description="machine",
        )

    @invariant()
    def treasury_is_the_ledger(self):
        warband = Warband.objects.get(pk=self.warband.pk)
        sums = warband.ledger.aggregate(t=Sum("amount"), f=Sum("finds_delta"))
        assert warband.treasury == sums["t"] >= 0
        assert warband.finds == (sums["f"] or 0) >= 0

    @invariant()
    def rating_is_current(self):
        warband = Warband.objects.get(pk=self.warband.pk)
        expected = sum(
            (20 if f.fighter_type.is_large else 5) + f.experience
            for f in warband.fighters.filter(status__in=Fighter.IN_ROSTER).select_related(
                "fighter_type"
            )
        )
        assert warband.rating == expected

    @invariant()
    def groups_are_not_empty_of_records(self):
        for group in HenchmanGroup.objects.filter(warband=self.warband):
            assert group.members.exists()


def test_ledger_equals_treasury_after_any_sequence(content, user):
    RosterMachine.owner = user
    run_state_machine_as_test(
        RosterMachine,
        settings=settings(
            max_examples=30,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
