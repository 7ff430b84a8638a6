"""The "what next" home of a signed-in user: a selector that gathers, in a fixed number of
queries whatever the number of warbands, battles or campaigns, what waits for him.

- As a player: his warbands (treasury, rating, advances due), the battles he has to report, to
  confirm or to run the post-battle sequence of, the post-battle decisions left to him, and his
  campaigns with their current round.
- As an organiser: disputed reports to settle, rounds to pair, resolve or close, running
  campaigns with no open round, and the batch jobs still running.

``Dashboard.waiting_count`` (the number shown in the navigation) counts what he can act on; the
battles that wait for somebody else are listed but not counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import (
    Count,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from battles.models import Battle, BattleParticipant, Campaign, Job, Membership, PendingDecision
from battles.models import Round as CampaignRound
from warbands.models import Fighter, HenchmanGroup, Warband


class BattleAction:
    """What a battle on the home page waits for."""

    REPORT = "report"
    CONFIRM = "confirm"
    POSTBATTLE = "postbattle"
    SETTLE = "settle"
    WAIT_OPPONENT = "wait_opponent"
    WAIT_ORGANISER = "wait_organiser"

    ACTIONABLE = frozenset({REPORT, CONFIRM, POSTBATTLE, SETTLE})


class RoundAction:
    PAIR = "pair"
    RESOLVE = "resolve"
    CLOSE = "close"
    OPEN_NEXT = "open_next"


@dataclass(frozen=True)
class BattleItem:
    battle: Battle
    action: str
    own_warbands: tuple[str, ...]
    opponents: tuple[str, ...]

    @property
    def actionable(self) -> bool:
        return self.action in BattleAction.ACTIONABLE


@dataclass(frozen=True)
class RoundItem:
    campaign: Campaign
    action: str
    number: int
    count: int = 0


@dataclass
class Dashboard:
    warbands: list[Warband] = field(default_factory=list)
    battles: list[BattleItem] = field(default_factory=list)
    decisions: list[PendingDecision] = field(default_factory=list)
    memberships: list[Membership] = field(default_factory=list)
    organised: list[Campaign] = field(default_factory=list)
    settle: list[BattleItem] = field(default_factory=list)
    rounds: list[RoundItem] = field(default_factory=list)
    jobs: list[Job] = field(default_factory=list)

    @property
    def to_do(self) -> list[BattleItem]:
        return [item for item in self.battles if item.actionable]

    @property
    def waiting_on_others(self) -> list[BattleItem]:
        return [item for item in self.battles if not item.actionable]

    @property
    def advances_due(self) -> int:
        return sum(warband.advances_due for warband in self.warbands)

    @property
    def waiting_count(self) -> int:
        """What he can act on now: battles, decisions and the organiser's tasks."""
        return len(self.to_do) + len(self.decisions) + len(self.settle) + len(self.rounds)


# Battles in these states still wait for somebody; resolved ones (and byes) are done.
_OPEN_BATTLE_STATES = (
    Battle.Status.SCHEDULED,
    Battle.Status.REPORTED,
    Battle.Status.DISPUTED,
    Battle.Status.CONFIRMED,
)
_LIVE_CAMPAIGN_STATES = (Campaign.State.OPEN, Campaign.State.RUNNING)


def _sum_of(model, *, extra: Q | None = None) -> Coalesce:
    """Per warband: the sum of ``advances_due`` of its fighters (or groups), as a subquery so
    the warband rows are not multiplied by a join."""
    rows = model.objects.filter(warband=OuterRef("pk"))
    if extra is not None:
        rows = rows.filter(extra)
    total = rows.order_by().values("warband").annotate(total=Sum("advances_due")).values("total")
    return Coalesce(Subquery(total, output_field=IntegerField()), Value(0))


def _count_of(model, *, extra: Q) -> Coalesce:
    rows = model.objects.filter(warband=OuterRef("pk")).filter(extra)
    total = rows.order_by().values("warband").annotate(total=Count("pk")).values("total")
    return Coalesce(Subquery(total, output_field=IntegerField()), Value(0))


def _warbands(user) -> list[Warband]:
    """His warbands, with advances due (heroes in the roster and groups), the number of
    fighters in the roster and the live campaign each plays in (two queries)."""
    in_roster = Q(status__in=Fighter.IN_ROSTER)
    warbands = (
        Warband.objects.filter(owner=user)
        .select_related("warband_type")
        .annotate(
            hero_advances_due=_sum_of(Fighter, extra=in_roster & Q(group__isnull=True)),
            group_advances_due=_sum_of(HenchmanGroup),
            fighters_in_roster=_count_of(Fighter, extra=in_roster),
        )
        .prefetch_related(
            Prefetch(
                "campaign_memberships",
                queryset=Membership.objects.filter(
                    active=True,
                    campaign__archived=False,
                    campaign__state__in=_LIVE_CAMPAIGN_STATES,
                ).select_related("campaign"),
                to_attr="live_memberships",
            )
        )
        .order_by("-updated_at", "pk")
    )
    out = list(warbands)
    for warband in out:
        warband.advances_due = warband.hero_advances_due + warband.group_advances_due
    return out


def _memberships(user) -> list[Membership]:
    """His campaigns (not archived), each with its open round and its last round (one query)."""
    rounds = CampaignRound.objects.filter(campaign=OuterRef("campaign_id")).order_by("-number")
    return list(
        Membership.objects.filter(user=user, active=True, campaign__archived=False)
        .select_related("campaign", "warband")
        .annotate(
            open_round=Subquery(
                rounds.filter(status=CampaignRound.Status.OPEN).values("number")[:1]
            ),
            last_round=Subquery(rounds.values("number")[:1]),
        )
        .order_by("-campaign__created_at", "-campaign_id")
    )


def _battles(user, organised_ids: list[int]) -> QuerySet[Battle]:
    mine = Q(
        participants__warband__owner=user,
        status__in=_OPEN_BATTLE_STATES,
        campaign__archived=False,
    )
    to_settle = Q(campaign_id__in=organised_ids, status=Battle.Status.DISPUTED)
    ids = Battle.objects.filter(is_bye=False).filter(mine | to_settle).values("pk")
    participants = BattleParticipant.objects.select_related("warband").order_by("id")
    return (
        Battle.objects.filter(pk__in=ids)
        .select_related("campaign", "round")
        .prefetch_related(Prefetch("participants", queryset=participants))
        .order_by("campaign_id", "round__number", "id")
    )


def _battle_action(battle: Battle, *, user, organised: set[int]) -> str | None:
    playing = any(p.warband.owner_id == user.pk for p in battle.participants.all())
    status = battle.status
    if status == Battle.Status.DISPUTED:
        # An organiser who plays in the battle may not settle it (battles.reports.services).
        if battle.campaign_id in organised and not playing:
            return BattleAction.SETTLE
        return BattleAction.WAIT_ORGANISER if playing else None
    if not playing:
        return None
    if status == Battle.Status.SCHEDULED:
        return BattleAction.REPORT
    if status == Battle.Status.REPORTED:
        if battle.reported_by_id == user.pk:
            return BattleAction.WAIT_OPPONENT
        return BattleAction.CONFIRM
    if status == Battle.Status.CONFIRMED:
        return BattleAction.POSTBATTLE
    return None


def _battle_item(battle: Battle, action: str, user) -> BattleItem:
    own, others = [], []
    for participant in battle.participants.all():
        (own if participant.warband.owner_id == user.pk else others).append(
            participant.warband.name
        )
    return BattleItem(
        battle=battle, action=action, own_warbands=tuple(own), opponents=tuple(others)
    )


def _decisions(user) -> list[PendingDecision]:
    return list(
        PendingDecision.objects.filter(warband__owner=user, status=PendingDecision.Status.OPEN)
        .select_related("warband", "fighter", "group", "result__run")
        .order_by("pk")
    )


def _rounds(organised: list[Campaign]) -> list[RoundItem]:
    """Rounds of his running campaigns that wait for him (one query), and running campaigns
    with no open round."""
    ids = [campaign.pk for campaign in organised]
    if not ids:
        return []
    settled = [Battle.Status.CONFIRMED, Battle.Status.RESOLVED]
    rounds = (
        CampaignRound.objects.filter(campaign_id__in=ids)
        .annotate(
            battle_count=Count("battles", distinct=True),
            unsettled=Count("battles", filter=~Q(battles__status__in=settled), distinct=True),
            to_resolve=Count(
                "battles",
                filter=Q(battles__status=Battle.Status.CONFIRMED, battles__is_bye=False),
                distinct=True,
            ),
        )
        .filter(Q(status=CampaignRound.Status.OPEN) | Q(to_resolve__gt=0))
        .order_by("campaign_id", "number")
    )
    campaigns = {campaign.pk: campaign for campaign in organised}
    items: list[RoundItem] = []
    with_open_round: set[int] = set()
    for row in rounds:
        campaign = campaigns[row.campaign_id]
        is_open = row.status == CampaignRound.Status.OPEN
        if is_open:
            with_open_round.add(row.campaign_id)
        if row.to_resolve:
            items.append(RoundItem(campaign, RoundAction.RESOLVE, row.number, row.to_resolve))
        elif is_open and not row.battle_count:
            items.append(RoundItem(campaign, RoundAction.PAIR, row.number))
        elif is_open and not row.unsettled:
            items.append(RoundItem(campaign, RoundAction.CLOSE, row.number))
    for campaign in organised:
        if campaign.state == Campaign.State.RUNNING and campaign.pk not in with_open_round:
            next_number = (campaign.last_round or 0) + 1
            items.append(RoundItem(campaign, RoundAction.OPEN_NEXT, next_number))
    return items


def _jobs(organised_ids: list[int]) -> list[Job]:
    if not organised_ids:
        return []
    return list(
        Job.objects.filter(campaign_id__in=organised_ids, status__in=Job.ACTIVE)
        .select_related("campaign", "round", "battle")
        .order_by("-created_at", "-pk")
    )


def dashboard_for(*, user) -> Dashboard:
    """Everything the home page shows to ``user``; the number of queries does not depend on how
    many warbands, battles, decisions or campaigns he has."""
    memberships = _memberships(user)
    organised = []
    for membership in memberships:
        if membership.is_organiser:
            campaign = membership.campaign
            campaign.last_round = membership.last_round
            organised.append(campaign)
    live_organised = [c for c in organised if c.state in _LIVE_CAMPAIGN_STATES]
    organised_ids = [campaign.pk for campaign in live_organised]
    organised_set = set(organised_ids)

    battles, settle = [], []
    for battle in _battles(user, organised_ids):
        action = _battle_action(battle, user=user, organised=organised_set)
        if action is None:
            continue
        item = _battle_item(battle, action, user)
        (settle if action == BattleAction.SETTLE else battles).append(item)

    return Dashboard(
        warbands=_warbands(user),
        battles=battles,
        decisions=_decisions(user),
        memberships=memberships,
        organised=organised,
        settle=settle,
        rounds=_rounds(live_organised),
        jobs=_jobs(organised_ids),
    )
