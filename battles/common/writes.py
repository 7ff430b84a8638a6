"""What every campaign and battle write starts with: who may do it, whether the campaign can
still change, and the row lock it holds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django.utils.translation import gettext as _

from annuminas.errors import Conflict
from battles.common import access
from battles.models import Battle, BattleParticipant, Campaign, Membership
from battles.models.history import history_written


def require_organiser(user, campaign: Campaign) -> None:
    if not access.is_organiser(user, campaign):
        raise PermissionDenied(_("Only an organiser of this campaign may do that."))


def require_writable(campaign: Campaign) -> None:
    if campaign.archived:
        raise Conflict(
            _("This campaign is archived: nothing in it can change."), code="campaign_archived"
        )


def lock_campaign(campaign: Campaign) -> Campaign:
    """The campaign row, locked (``select_for_update``) until the transaction ends."""
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


def lock_battle(battle: Battle, expected_version: int | None) -> Battle:
    """The battle row, locked, with its campaign and round; ``Conflict`` if the client's
    ``expected_version`` is stale."""
    locked = (
        Battle.objects.select_for_update(of=("self",))
        .select_related("campaign", "round")
        .get(pk=battle.pk)
    )
    if expected_version is not None and int(expected_version) != locked.version:
        raise Conflict(
            _("This battle was changed by someone else (now version %(version)s); reload it.")
            % {"version": locked.version},
            code="stale_version",
            version=locked.version,
        )
    return locked


@dataclass(frozen=True)
class Gate:
    """Who may write on a battle report, and from which statuses. Messages are lazy
    (``gettext_lazy``): translated when raised."""

    may: Callable[[object, Battle], bool]  # a rule of ``battles.common.access``
    refusal: str
    statuses: tuple[str, ...] | None = None  # None: any status
    clash: str = ""  # may name the battle's ``%(status)s``
    frozen_clash: str | None = None  # said instead when the battle is confirmed or resolved


def open_battle(battle: Battle, *, user, expected_version: int | None, gate: Gate) -> Battle:
    """The opening of every write on a battle report: lock the battle (checking the version),
    refuse an archived campaign, refuse ``user`` unless ``gate.may`` (given the battle with its
    participants' warbands), and refuse a battle not in one of ``gate.statuses``."""
    battle = lock_battle(battle, expected_version)
    require_writable(battle.campaign)
    with_people = Battle.objects.prefetch_related("participants__warband").get(pk=battle.pk)
    if not gate.may(user, with_people):
        raise PermissionDenied(str(gate.refusal))
    if gate.statuses is not None and battle.status not in gate.statuses:
        clash = gate.frozen_clash if gate.frozen_clash and battle.is_frozen else gate.clash
        raise Conflict(str(clash) % {"status": battle.get_status_display()}, code="battle_status")
    return battle


def active_players(campaign: Campaign) -> list[Membership]:
    """The memberships that play (active, with a warband), in joining order."""
    return list(
        campaign.memberships.filter(active=True, warband__isnull=False)
        .select_related("warband")
        .order_by("joined_at", "id")
    )


def _deletion_rows(model, objects, *, by, when) -> list:
    """The history rows simple-history writes when ``objects`` are deleted, made at once."""
    historical = model.history.model
    return [
        historical(
            history_date=when,
            history_type="-",
            history_user=by if getattr(by, "is_authenticated", False) else None,
            **{field.attname: getattr(obj, field.attname) for field in historical.tracked_fields},
        )
        for obj in objects
    ]


def battles_delete(battles, *, by) -> int:
    """Delete ``battles`` (a queryset) with their participants and everything that hangs on
    them, in a fixed number of statements whatever their number: the rows are read once, the
    deletions' history rows written in one statement per model. Returns how many battles."""
    doomed = list(battles)
    if not doomed:
        return 0
    seated = list(BattleParticipant.objects.filter(battle__in=doomed))
    when = timezone.now()
    with history_written(Battle, BattleParticipant):
        Battle.objects.filter(pk__in=[battle.pk for battle in doomed]).delete()
    for model, objects in ((Battle, doomed), (BattleParticipant, seated)):
        model.history.model.objects.bulk_create(_deletion_rows(model, objects, by=by, when=when))
    return len(doomed)
