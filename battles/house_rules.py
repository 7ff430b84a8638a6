"""Checking a warband against the house rules of the campaigns it plays in.

The check itself is a plain function over simple facts (``roster_violations``); the Django side
gathers the facts and is registered with ``warbands.constraints`` in ``BattlesConfig.ready()``,
so every roster change (a purchase, a hire) is refused, inside its transaction, when it would
break the rules of an active campaign the warband plays in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


@dataclass(frozen=True)
class HouseRules:
    campaign_name: str
    rating_cap: int | None = None
    allowed_warband_type_ids: frozenset = frozenset()
    allowed_warband_type_names: tuple[str, ...] = ()
    max_fighter_type_copies: int | None = None


@dataclass(frozen=True)
class RosterFacts:
    name: str
    rating: int
    warband_type_id: int
    warband_type_name: str
    # fighter type name → how many warriors of that type the warband fields
    fighter_type_counts: Mapping[str, int] = field(default_factory=dict)


def roster_violations(rules: HouseRules, roster: RosterFacts) -> list[str]:
    problems = []
    if rules.rating_cap is not None and roster.rating > rules.rating_cap:
        problems.append(
            _(
                "%(warband)s would have a rating of %(rating)s, over the cap of %(cap)s "
                "of the campaign %(campaign)s."
            )
            % {
                "warband": roster.name,
                "rating": roster.rating,
                "cap": rules.rating_cap,
                "campaign": rules.campaign_name,
            }
        )
    if (
        rules.allowed_warband_type_ids
        and roster.warband_type_id not in rules.allowed_warband_type_ids
    ):
        problems.append(
            _("The campaign %(campaign)s does not allow %(type)s; it allows: %(allowed)s.")
            % {
                "campaign": rules.campaign_name,
                "type": roster.warband_type_name,
                "allowed": ", ".join(rules.allowed_warband_type_names),
            }
        )
    if rules.max_fighter_type_copies is not None:
        for type_name, count in sorted(roster.fighter_type_counts.items()):
            if count > rules.max_fighter_type_copies:
                problems.append(
                    _(
                        "%(warband)s would field %(count)s × %(type)s; the campaign %(campaign)s "
                        "allows at most %(max)s of one fighter type."
                    )
                    % {
                        "warband": roster.name,
                        "count": count,
                        "type": type_name,
                        "campaign": rules.campaign_name,
                        "max": rules.max_fighter_type_copies,
                    }
                )
    return problems


def rules_of(campaign) -> HouseRules:
    types = list(campaign.allowed_warband_types.all()) if _restricts_types(campaign) else []
    return HouseRules(
        campaign_name=campaign.name,
        rating_cap=campaign.rating_cap,
        allowed_warband_type_ids=frozenset(t.pk for t in types),
        allowed_warband_type_names=tuple(sorted(t.name for t in types)),
        max_fighter_type_copies=campaign.max_fighter_type_copies,
    )


def _restricts_types(campaign) -> bool:
    # Annotated by validate_warband_in_campaigns; other callers load the list.
    return getattr(campaign, "allowed_type_count", 1) > 0


def roster_facts(warband, *, count_types: bool = True) -> RosterFacts:
    from .roster import fighter_type_counts

    return RosterFacts(
        name=warband.name,
        rating=warband.rating,
        warband_type_id=warband.warband_type_id,
        warband_type_name=warband.warband_type.name,
        fighter_type_counts=fighter_type_counts(warband) if count_types else {},
    )


def check_warband(warband, campaigns: Iterable) -> None:
    """Raise ``ValidationError`` listing every house rule ``warband`` breaks in ``campaigns``."""
    campaigns = list(campaigns)
    if not campaigns:
        return
    count_types = any(c.max_fighter_type_copies is not None for c in campaigns)
    facts = roster_facts(warband, count_types=count_types)
    problems = [p for campaign in campaigns for p in roster_violations(rules_of(campaign), facts)]
    if problems:
        raise ValidationError(problems)


def validate_warband_in_campaigns(warband) -> None:
    """The validator registered with ``warbands.constraints``: the active campaigns only.

    It runs on every roster change, so it reads only what the campaigns' rules need: one query
    in the common case (no type restriction, no copy limit)."""
    from django.db.models import Count

    from .models import Campaign

    campaigns = (
        Campaign.objects.filter(
            memberships__warband=warband,
            memberships__active=True,
            state__in=[Campaign.State.OPEN, Campaign.State.RUNNING],
            archived=False,
        )
        .annotate(allowed_type_count=Count("allowed_warband_types", distinct=True))
        .distinct()
    )
    check_warband(warband, campaigns)
