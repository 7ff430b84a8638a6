"""Who plays and who organises: joining with a warband (and its starting treasury), adding a
co-organiser, withdrawing. Every write locks the campaign row; a join also locks the warband."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from annuminas.errors import Conflict
from battles.campaigns.house_rules import check_warband
from battles.common.writes import lock_campaign, require_organiser, require_writable
from battles.models import Campaign, Membership
from warbands import services as warband_services
from warbands.models import LedgerEntry, Warband


@transaction.atomic
def campaign_join(*, campaign: Campaign, user, warband, join_code: str) -> Membership:
    """``user`` joins with ``warband`` (his own), which must meet the house rules."""
    if not (user and user.is_authenticated):
        raise PermissionDenied(_("Log in to join a campaign."))
    campaign = lock_campaign(campaign)
    if (join_code or "").strip().upper() != campaign.join_code:
        raise ValidationError({"join_code": _("That join code is not right for this campaign.")})
    require_writable(campaign)
    if campaign.state not in (Campaign.State.OPEN, Campaign.State.RUNNING):
        raise ValidationError(_("This campaign is not taking new warbands."))
    if warband is None:
        raise ValidationError({"warband": _("Choose the warband you will play with.")})
    warband = (
        Warband.objects.select_for_update(of=("self",))
        .select_related("warband_type")
        .get(pk=warband.pk)
    )
    if warband.owner_id != user.pk:
        raise ValidationError({"warband": _("You can only join with one of your own warbands.")})
    membership = campaign.memberships.filter(user=user).first()
    if membership and membership.warband_id:
        raise ValidationError(
            _("You already play in this campaign with %(warband)s.")
            % {"warband": membership.warband}
        )
    if campaign.memberships.filter(warband=warband).exists():
        raise ValidationError({"warband": _("This warband is already in the campaign.")})
    if warband.imported:
        # An imported file can say anything about its treasury and history: leagues start from
        # rosters built here, under the ledger's rules.
        raise ValidationError(
            {"warband": _("A warband imported from a file cannot join a campaign; build it here.")}
        )
    if warband.warband_type.pack_version_id != campaign.pack_version_id:
        raise ValidationError(
            {
                "warband": _(
                    "This warband was built with another content pack than the campaign's: "
                    "build one from the campaign's pack."
                )
            }
        )
    other_campaigns_check(campaign, warband)
    check_warband(warband, [campaign])
    _apply_starting_treasury(campaign, warband)
    if membership:
        membership.warband = warband
        membership.active = True
        membership.save(update_fields=["warband", "active"])
        return membership
    try:
        with transaction.atomic():
            return Membership.objects.create(
                campaign=campaign, user=user, warband=warband, role=Membership.Role.PLAYER
            )
    except IntegrityError as error:  # a concurrent join of the same user
        raise Conflict(_("You already joined this campaign."), code="already_joined") from error


WARBAND_IN_RUNNING_CAMPAIGN = "warband_in_running_campaign"


def other_campaigns_check(campaign: Campaign, warband: Warband) -> None:
    """A warband that plays in another running campaign joins ``campaign`` only if its house
    rule ``warbands_in_other_campaigns`` allows it (off by default); else ``Conflict`` (409)."""
    if campaign.warbands_in_other_campaigns:
        return
    elsewhere = (
        Campaign.objects.filter(
            memberships__warband=warband,
            memberships__active=True,
            state=Campaign.State.RUNNING,
            archived=False,
        )
        .exclude(pk=campaign.pk)
        .order_by("pk")
        .first()
    )
    if elsewhere is not None:
        raise Conflict(
            _(
                "%(warband)s plays in %(campaign)s, which is running, and this campaign's house "
                "rules do not let a warband play in two running campaigns. Join with another "
                "warband, or once %(campaign)s ends."
            )
            % {"warband": warband.name, "campaign": elsewhere.name},
            code="warband_in_running_campaign",
        )


def _apply_starting_treasury(campaign: Campaign, warband: Warband) -> None:
    """A new warband (no campaign, no battle yet) starts with the campaign's treasury instead of
    its type's: the difference goes into its ledger. Veterans keep what they have."""
    difference = campaign.starting_treasury - warband.warband_type.starting_treasury
    fresh = not (warband.campaign_memberships.exists() or warband.battle_participations.exists())
    if not difference or not fresh:
        return
    if warband.treasury + difference < 0:
        raise ValidationError(
            _(
                "This campaign starts warbands with %(start)s co, and %(warband)s has already "
                "spent more than that."
            )
            % {"start": campaign.starting_treasury, "warband": warband.name}
        )
    warband_services.ledger_record(
        warband=warband,
        amount=difference,
        reason=LedgerEntry.Reason.ADJUSTMENT,
        code="campaign_starting_treasury",
        params={"campaign": campaign.name},
        source=campaign,
    )


@transaction.atomic
def campaign_add_organiser(*, campaign: Campaign, by, username: str) -> Membership:
    """Make another user a co-organiser (keeping his warband if he already plays)."""
    require_organiser(by, campaign)
    campaign = lock_campaign(campaign)
    require_writable(campaign)
    user = get_user_model().objects.filter(username__iexact=(username or "").strip()).first()
    if user is None:
        raise ValidationError({"username": _("There is no user with that name.")})
    membership, _created = Membership.objects.get_or_create(
        campaign=campaign, user=user, defaults={"role": Membership.Role.ORGANISER}
    )
    if membership.role != Membership.Role.ORGANISER:
        membership.role = Membership.Role.ORGANISER
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_withdraw(*, membership: Membership, by) -> Membership:
    """A player leaves (or an organiser removes him): past battles stay; no new pairings."""
    campaign = membership.campaign
    if by.pk != membership.user_id:
        require_organiser(by, campaign)
    lock_campaign(campaign)
    require_writable(campaign)
    if membership.is_organiser and not membership.warband_id:
        others = campaign.memberships.filter(role=Membership.Role.ORGANISER).exclude(
            pk=membership.pk
        )
        if not others.exists():
            raise ValidationError(_("A campaign needs at least one organiser."))
        membership.delete()
        return membership
    membership.active = False
    membership.save(update_fields=["active"])
    return membership
