"""A campaign's life: create, change its house rules, move it through its states, archive it,
hand out a new join code. Every write locks the campaign row."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from annuminas.errors import Conflict
from battles.campaigns.house_rules import check_warband, house_rules_clean
from battles.campaigns.league_settings import house_rule_keys, preset_values, scoring_keys
from battles.campaigns.presets import PRESETS_BY_SLUG
from battles.campaigns.scoring import scoring_changed
from battles.common.writes import lock_campaign, require_organiser, require_writable
from battles.models import Campaign, Membership, Round
from warbands.limits import clean_name

CAMPAIGN_NAME_MAX_LENGTH = Campaign._meta.get_field("name").max_length
# The campaign's own fields; its settings are the declarations' (``league_settings``).
OWN_FIELDS = ("name", "description", "public", "preset")
TRANSITIONS = {
    Campaign.State.DRAFT: {Campaign.State.OPEN},
    Campaign.State.OPEN: {Campaign.State.DRAFT, Campaign.State.RUNNING},
    Campaign.State.RUNNING: {Campaign.State.FINISHED},
    Campaign.State.FINISHED: set(),
}
JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def _new_join_code() -> str:
    while True:
        code = "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(8))
        if not Campaign.objects.filter(join_code=code).exists():
            return code


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "campaign"
    slug, number = base, 1
    while Campaign.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


def _clean_campaign(values: Mapping[str, Any], *, current=None) -> dict[str, Any]:
    """The campaign's own fields (name, preset…) and its house rules (``house_rules_clean``),
    checked together so that every wrong field is reported at once."""
    rule_keys = house_rule_keys()
    unknown = set(values) - {*OWN_FIELDS, *rule_keys}
    if unknown:
        raise ValidationError(
            _("Unknown campaign settings: %(names)s.") % {"names": ", ".join(sorted(unknown))}
        )
    errors: dict[str, Any] = {}
    clean = {name: value for name, value in values.items() if name not in rule_keys}
    if "name" in clean:
        try:
            clean["name"] = clean_name(clean["name"], max_length=CAMPAIGN_NAME_MAX_LENGTH)
        except ValidationError as error:
            errors.update(error.message_dict)
    if "preset" in clean and clean["preset"] not in PRESETS_BY_SLUG:
        errors["preset"] = _("Unknown size preset.")
    try:
        rules = {name: value for name, value in values.items() if name in rule_keys}
        clean.update(house_rules_clean(rules, current=current))
    except ValidationError as error:
        errors.update(error.message_dict)
    if errors:
        raise ValidationError(errors)
    return clean


def _check_members_comply(campaign: Campaign) -> None:
    """House rules may tighten only if every warband already in the campaign complies."""
    memberships = campaign.memberships.filter(active=True, warband__isnull=False).select_related(
        "warband__warband_type"
    )
    problems = []
    for membership in memberships:
        try:
            check_warband(membership.warband, [campaign])
        except ValidationError as error:
            problems.extend(error.messages)
    if problems:
        raise ValidationError(
            [_("These house rules would exclude warbands already in the campaign:"), *problems]
        )


@transaction.atomic
def campaign_create(
    *,
    organiser,
    name: str,
    description: str = "",
    preset: str = "raid",
    public: bool = False,
    house_rules: Mapping[str, Any] | None = None,
    allowed_warband_types: Sequence = (),
) -> Campaign:
    """A draft campaign; house rules not given come from the size ``preset``."""
    if not (organiser and organiser.is_authenticated):
        raise PermissionDenied(_("Log in to create a campaign."))
    if preset not in PRESETS_BY_SLUG:
        raise ValidationError({"preset": _("Unknown size preset.")})
    values = {**preset_values(preset), **dict(house_rules or {})}
    values = _clean_campaign(
        {"name": name, "description": description, "public": public, "preset": preset, **values}
    )
    campaign = Campaign.objects.create(
        slug=_unique_slug(values["name"]),
        join_code=_new_join_code(),
        created_by=organiser,
        **values,
    )
    campaign.allowed_warband_types.set(allowed_warband_types)
    # No ``is_staff``: organising gives the organisers' site for this campaign, never the
    # catalogue (``battles.admin.organisers_site``).
    Membership.objects.create(campaign=campaign, user=organiser, role=Membership.Role.ORGANISER)
    return campaign


@transaction.atomic
def campaign_update(
    *,
    campaign: Campaign,
    by,
    changes: Mapping[str, Any] | None = None,
    allowed_warband_types: Sequence | None = None,
) -> Campaign:
    """Change the name, description or house rules. Stricter rules must fit current members."""
    require_organiser(by, campaign)
    campaign = lock_campaign(campaign)
    require_writable(campaign)
    if campaign.state == Campaign.State.FINISHED:
        raise Conflict(
            _("This campaign is finished: its rules can no longer change."),
            code="campaign_finished",
        )
    clean = _clean_campaign(changes or {}, current=campaign)
    scoring_before = [getattr(campaign, name) for name in scoring_keys()]
    for name, value in clean.items():
        setattr(campaign, name, value)
    campaign._change_reason = _("House rules updated")
    campaign._history_user = by
    campaign.save()
    if scoring_before != [getattr(campaign, name) for name in scoring_keys()]:
        campaign.standings_job = scoring_changed(campaign=campaign, by=by)
    if allowed_warband_types is not None:
        campaign.allowed_warband_types.set(allowed_warband_types)
    if campaign.is_active:
        _check_members_comply(campaign)
    return campaign


@transaction.atomic
def campaign_transition(*, campaign: Campaign, by, state: str) -> Campaign:
    """draft → open → running → finished (open ↔ draft while preparing)."""
    require_organiser(by, campaign)
    campaign = lock_campaign(campaign)
    require_writable(campaign)
    if state not in TRANSITIONS.get(campaign.state, set()):
        raise Conflict(
            _("A campaign that is %(from)s cannot become %(to)s.")
            % {
                "from": campaign.get_state_display(),
                "to": dict(Campaign.State.choices).get(state, state),
            },
            code="invalid_transition",
        )
    if state == Campaign.State.RUNNING:
        players = campaign.memberships.filter(active=True, warband__isnull=False).count()
        if players < 2:
            raise ValidationError(_("A campaign needs at least two warbands to start."))
    if state == Campaign.State.FINISHED and campaign.rounds.filter(status=Round.Status.OPEN):
        raise ValidationError(_("Close the open round before finishing the campaign."))
    campaign.state = state
    campaign._change_reason = _("State changed")
    campaign.save(update_fields=["state", "updated_at"])
    return campaign


@transaction.atomic
def campaign_archive(*, campaign: Campaign, by, archived: bool = True) -> Campaign:
    """Archive (hide, freeze) a finished or draft campaign; or bring it back."""
    require_organiser(by, campaign)
    campaign = lock_campaign(campaign)
    if archived and campaign.state not in (Campaign.State.DRAFT, Campaign.State.FINISHED):
        raise Conflict(
            _("Only a draft or a finished campaign can be archived."), code="invalid_transition"
        )
    campaign.archived = archived
    campaign._change_reason = _("Archived") if archived else _("Restored from the archive")
    campaign.save(update_fields=["archived", "updated_at"])
    return campaign


@transaction.atomic
def campaign_new_join_code(*, campaign: Campaign, by) -> Campaign:
    require_organiser(by, campaign)
    campaign = lock_campaign(campaign)
    campaign.join_code = _new_join_code()
    campaign.save(update_fields=["join_code", "updated_at"])
    return campaign
