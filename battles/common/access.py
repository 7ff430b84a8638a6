"""Who may see and do what in a campaign — one place, used by services, pages, API and admin.

- A campaign is visible to its members (organisers and players), to superusers, and — when the
  organiser made it public and it is no longer a draft — to anyone.
- Organisers of a campaign change it, its rounds, pairings and members, confirm and settle its
  battles, and correct confirmed reports.
- A player whose warband takes part in a battle reports it; a participant other than the one
  who reported confirms or disputes it.
- Nobody confirms his own battle alone: an organiser who plays in a battle reports it like any
  player, and its confirmation (or settlement, or correction) comes from the opponent or from an
  organiser who does not play in it. So does the revert of its post-battle sequence.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet

from battles.models import Battle, Campaign, Membership


def _is_user(user) -> bool:
    return bool(user and user.is_authenticated)


def visible_campaigns(user) -> QuerySet[Campaign]:
    campaigns = Campaign.objects.all()
    if _is_user(user) and user.is_superuser:
        return campaigns
    public = Q(public=True) & ~Q(state=Campaign.State.DRAFT)
    if not _is_user(user):
        return campaigns.filter(public)
    member = Membership.objects.filter(campaign=OuterRef("pk"), user=user)
    return campaigns.filter(public | Q(Exists(member)))


def organised_campaigns(user) -> QuerySet[Campaign]:
    if not _is_user(user):
        return Campaign.objects.none()
    if user.is_superuser:
        return Campaign.objects.all()
    organiser = Membership.objects.filter(
        campaign=OuterRef("pk"), user=user, role=Membership.Role.ORGANISER
    )
    return Campaign.objects.filter(Exists(organiser))


def visible_battles(user) -> QuerySet[Battle]:
    return Battle.objects.filter(campaign__in=visible_campaigns(user))


def battle_visible(user, battle_id: int, *, owner_ids: set[int]) -> bool:
    """Battle ``battle_id`` (whose warbands' owners are ``owner_ids``) is in
    ``visible_battles(user)``. Its players see it without a query (their warbands play in it and
    a player who leaves keeps his membership); anyone else, one query."""
    return _owns_one(user, owner_ids) or visible_battles(user).filter(pk=battle_id).exists()


def is_organiser(user, campaign: Campaign) -> bool:
    """Uses ``campaign.memberships`` when prefetched (pages and endpoints), else one query."""
    if not _is_user(user):
        return False
    if user.is_superuser:
        return True
    cache = getattr(campaign, "_prefetched_objects_cache", {})
    if "memberships" in cache:
        return any(
            m.user_id == user.pk and m.role == Membership.Role.ORGANISER
            for m in cache["memberships"]
        )
    return campaign.memberships.filter(user=user, role=Membership.Role.ORGANISER).exists()


def battle_owner_ids(battle: Battle) -> set[int]:
    """The users whose warbands take part (participants prefetched with their warband)."""
    return {p.warband.owner_id for p in battle.participants.all()}


def _owns_one(user, owner_ids: set[int]) -> bool:
    return _is_user(user) and user.pk in owner_ids


def is_participant(user, battle: Battle) -> bool:
    return _owns_one(user, battle_owner_ids(battle))


def is_opponent(user, battle: Battle) -> bool:
    """A participant other than the one who reported the battle."""
    return is_participant(user, battle) and user.pk != battle.reported_by_id


def can_report(user, battle: Battle) -> bool:
    return is_participant(user, battle) or is_organiser(user, battle.campaign)


def is_neutral_organiser(user, battle: Battle) -> bool:
    """An organiser of the battle's campaign whose warband does not take part in it."""
    return is_organiser(user, battle.campaign) and not is_participant(user, battle)


def can_confirm(user, battle: Battle) -> bool:
    return is_opponent(user, battle) or is_neutral_organiser(user, battle)


def can_settle(user, battle: Battle) -> bool:
    """Settle a dispute or correct a confirmed report: an organiser who does not play in it."""
    return is_neutral_organiser(user, battle)


def can_revert(user, battle: Battle) -> bool:
    """Undo a battle's post-battle sequence: an organiser who does not play in it (a player
    could otherwise re-roll his own results)."""
    return is_neutral_organiser(user, battle)


def can_dispute(user, battle: Battle) -> bool:
    return is_opponent(user, battle)
