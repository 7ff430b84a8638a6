"""Every write of the campaigns: typed, keyword-only, atomic; each checks who may do it.

Services raise ``ValidationError`` (bad input, a message a player understands),
``PermissionDenied`` (not allowed) or ``Conflict`` (a stale ``version`` or a state clash, e.g.
reporting a battle that is already confirmed). Locks: campaign writes lock the campaign row,
battle writes lock the battle row (``select_for_update``).
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from annuminas.api.errors import Conflict

from . import access
from .house_rules import check_warband
from .models import (
    CAMPAIGN_TABLES,
    OPTIONAL_RULES,
    Battle,
    BattleCorrection,
    BattleEvent,
    BattleParticipant,
    Campaign,
    Membership,
    Round,
)
from .pairing import rating_pairings, swiss_pairings
from .presets import PRESETS_BY_SLUG
from .scoring import (
    BONUS_FIELDS,
    SCORING_FIELDS,
    campaign_standings,
    scheme_of,
    scoring_changed,
    scoring_clean,
)
from .standings import PointsScheme, Row

HOUSE_RULE_FIELDS = (
    "starting_treasury",
    "rating_cap",
    "max_fighter_type_copies",
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "optional_rules",
    "tables",
    "table_size",
    "game_length",
)
CAMPAIGN_FIELDS = (
    "name", "description", "public", "preset", *HOUSE_RULE_FIELDS, *BONUS_FIELDS, "tie_breakers"
)  # fmt: skip
TRANSITIONS = {
    Campaign.State.DRAFT: {Campaign.State.OPEN},
    Campaign.State.OPEN: {Campaign.State.DRAFT, Campaign.State.RUNNING},
    Campaign.State.RUNNING: {Campaign.State.FINISHED},
    Campaign.State.FINISHED: set(),
}
JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
MAX_PARTICIPANTS = 4


# --- helpers -----------------------------------------------------------------------------------
def _require_organiser(user, campaign: Campaign) -> None:
    if not access.is_organiser(user, campaign):
        raise PermissionDenied(_("Only an organiser of this campaign may do that."))


def _require_writable(campaign: Campaign) -> None:
    if campaign.archived:
        raise Conflict(_("This campaign is archived: nothing in it can change."))


def _lock_campaign(campaign: Campaign) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


def _lock_battle(battle: Battle, expected_version: int | None) -> Battle:
    locked = (
        Battle.objects.select_for_update(of=("self",))
        .select_related("campaign", "round")
        .get(pk=battle.pk)
    )
    if expected_version is not None and int(expected_version) != locked.version:
        raise Conflict(
            _("This battle was changed by someone else (now version %(version)s); reload it.")
            % {"version": locked.version}
        )
    return locked


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


# Campaign tables given as rows {"min", "max", "result", …} (the engine's own shape).
ROW_TABLES = (
    "hero_injuries",
    "henchman_injuries",
    "hero_advances",
    "henchman_advances",
    "underdog_bonus",
    "exploration",
)


def _rows_ok(rows) -> bool:
    def whole(value) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10_000

    return (
        isinstance(rows, list)
        and bool(rows)
        and all(
            isinstance(row, dict)
            and whole(row.get("min"))
            and whole(row.get("max"))
            and row["min"] <= row["max"]
            and len(row) > 2
            for row in rows
        )
    )


def _clean_house_rules(values: Mapping[str, Any], *, current=None) -> dict[str, Any]:
    errors: dict[str, str] = {}
    unknown = set(values) - set(CAMPAIGN_FIELDS)
    if unknown:
        raise ValidationError(
            _("Unknown campaign settings: %(names)s.") % {"names": ", ".join(sorted(unknown))}
        )
    clean = dict(values)
    if "name" in clean:
        clean["name"] = (clean["name"] or "").strip()
        if not clean["name"]:
            errors["name"] = _("Give the campaign a name.")
    if "preset" in clean and clean["preset"] not in PRESETS_BY_SLUG:
        errors["preset"] = _("Unknown size preset.")
    for name in ("starting_treasury",):
        if name in clean and (clean[name] is None or int(clean[name]) < 0):
            errors[name] = _("The starting treasury must be zero or more coronas.")
    if clean.get("rating_cap") is not None and int(clean["rating_cap"]) < 1:
        errors["rating_cap"] = _("The rating cap must be positive, or empty for no cap.")
    if (
        clean.get("max_fighter_type_copies") is not None
        and int(clean["max_fighter_type_copies"]) < 1
    ):
        errors["max_fighter_type_copies"] = _("Allow at least one copy, or leave it empty.")
    if "optional_rules" in clean:
        known = dict(OPTIONAL_RULES)
        rules = list(dict.fromkeys(clean["optional_rules"] or []))
        if any(rule not in known for rule in rules):
            errors["optional_rules"] = _("Unknown optional rule; choose from: %(rules)s.") % {
                "rules": ", ".join(known)
            }
        clean["optional_rules"] = rules
    if "tables" in clean:
        tables = clean["tables"] or {}
        if not isinstance(tables, dict) or any(
            key not in CAMPAIGN_TABLES or not isinstance(value, list | dict)
            for key, value in tables.items()
        ):
            errors["tables"] = _(
                "Table overrides are an object whose keys are among: %(tables)s, each holding "
                "rows (a list) or a mapping."
            ) % {"tables": ", ".join(CAMPAIGN_TABLES)}
        else:
            bad = [
                name for name, rows in tables.items() if name in ROW_TABLES and not _rows_ok(rows)
            ]
            if bad:
                errors["tables"] = _(
                    "%(tables)s: each row needs whole numbers min ≤ max and a result, like the "
                    "default table's rows."
                ) % {"tables": ", ".join(sorted(bad))}
        clean["tables"] = tables
    try:
        clean.update(scoring_clean(clean, current=current))
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


# --- campaigns ---------------------------------------------------------------------------------
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
    values = {**PRESETS_BY_SLUG[preset].house_rules(), **dict(house_rules or {})}
    values = _clean_house_rules(
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
    _require_organiser(by, campaign)
    campaign = _lock_campaign(campaign)
    _require_writable(campaign)
    if campaign.state == Campaign.State.FINISHED:
        raise Conflict(_("This campaign is finished: its rules can no longer change."))
    clean = _clean_house_rules(changes or {}, current=campaign)
    scoring_before = [getattr(campaign, name) for name in SCORING_FIELDS]
    for name, value in clean.items():
        setattr(campaign, name, value)
    campaign._change_reason = _("House rules updated")
    campaign._history_user = by
    campaign.save()
    if scoring_before != [getattr(campaign, name) for name in SCORING_FIELDS]:
        campaign.standings_job = scoring_changed(campaign=campaign, by=by)
    if allowed_warband_types is not None:
        campaign.allowed_warband_types.set(allowed_warband_types)
    if campaign.is_active:
        _check_members_comply(campaign)
    return campaign


@transaction.atomic
def campaign_transition(*, campaign: Campaign, by, state: str) -> Campaign:
    """draft → open → running → finished (open ↔ draft while preparing)."""
    _require_organiser(by, campaign)
    campaign = _lock_campaign(campaign)
    _require_writable(campaign)
    if state not in TRANSITIONS.get(campaign.state, set()):
        raise Conflict(
            _("A campaign that is %(from)s cannot become %(to)s.")
            % {
                "from": campaign.get_state_display(),
                "to": dict(Campaign.State.choices).get(state, state),
            }
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
    _require_organiser(by, campaign)
    campaign = _lock_campaign(campaign)
    if archived and campaign.state not in (Campaign.State.DRAFT, Campaign.State.FINISHED):
        raise Conflict(_("Only a draft or a finished campaign can be archived."))
    campaign.archived = archived
    campaign._change_reason = _("Archived") if archived else _("Restored from the archive")
    campaign.save(update_fields=["archived", "updated_at"])
    return campaign


@transaction.atomic
def campaign_new_join_code(*, campaign: Campaign, by) -> Campaign:
    _require_organiser(by, campaign)
    campaign = _lock_campaign(campaign)
    campaign.join_code = _new_join_code()
    campaign.save(update_fields=["join_code", "updated_at"])
    return campaign


@transaction.atomic
def campaign_join(*, campaign: Campaign, user, warband, join_code: str) -> Membership:
    """``user`` joins with ``warband`` (his own), which must meet the house rules."""
    if not (user and user.is_authenticated):
        raise PermissionDenied(_("Log in to join a campaign."))
    campaign = _lock_campaign(campaign)
    if (join_code or "").strip().upper() != campaign.join_code:
        raise ValidationError({"join_code": _("That join code is not right for this campaign.")})
    _require_writable(campaign)
    if campaign.state not in (Campaign.State.OPEN, Campaign.State.RUNNING):
        raise ValidationError(_("This campaign is not taking new warbands."))
    if warband is None:
        raise ValidationError({"warband": _("Choose the warband you will play with.")})
    from warbands.models import Warband

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
        raise Conflict(_("You already joined this campaign.")) from error


def _apply_starting_treasury(campaign: Campaign, warband) -> None:
    """A new warband (no campaign, no battle yet) starts with the campaign's treasury instead of
    its type's: the difference goes into its ledger. Veterans keep what they have."""
    from warbands import services as warband_services

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
        reason="adjustment",
        description=_("Starting treasury of the campaign %(campaign)s")
        % {"campaign": campaign.name},
        source=campaign,
    )


@transaction.atomic
def campaign_add_organiser(*, campaign: Campaign, by, username: str) -> Membership:
    """Make another user a co-organiser (keeping his warband if he already plays)."""
    _require_organiser(by, campaign)
    campaign = _lock_campaign(campaign)
    _require_writable(campaign)
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
        _require_organiser(by, campaign)
    _lock_campaign(campaign)
    _require_writable(campaign)
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


# --- rounds and pairings -------------------------------------------------------------------------
@transaction.atomic
def round_open(*, campaign: Campaign, by) -> Round:
    _require_organiser(by, campaign)
    campaign = _lock_campaign(campaign)
    _require_writable(campaign)
    if campaign.state != Campaign.State.RUNNING:
        raise Conflict(_("Rounds can only be opened while the campaign is running."))
    last = campaign.rounds.order_by("-number").first()
    if last and last.status == Round.Status.OPEN:
        raise Conflict(
            _("Round %(number)s is still open: close it first.") % {"number": last.number}
        )
    return Round.objects.create(campaign=campaign, number=(last.number + 1) if last else 1)


@transaction.atomic
def round_close(*, round: Round, by) -> Round:
    campaign = round.campaign
    _require_organiser(by, campaign)
    _lock_campaign(campaign)
    _require_writable(campaign)
    round = Round.objects.select_for_update().get(pk=round.pk)
    if round.status == Round.Status.CLOSED:
        raise Conflict(_("This round is already closed."))
    pending = round.battles.exclude(
        status__in=[Battle.Status.CONFIRMED, Battle.Status.RESOLVED]
    ).count()
    if pending:
        raise ValidationError(
            _("%(count)s battles of this round are not confirmed yet.") % {"count": pending}
        )
    round.status = Round.Status.CLOSED
    round.closed_at = timezone.now()
    round.save(update_fields=["status", "closed_at"])
    return round


def _players(campaign: Campaign) -> list[Membership]:
    return list(
        campaign.memberships.filter(active=True, warband__isnull=False)
        .select_related("warband")
        .order_by("joined_at", "id")
    )


def _history(campaign: Campaign) -> tuple[set[frozenset], Counter]:
    played: set[frozenset] = set()
    byes: Counter = Counter()
    rows = BattleParticipant.objects.filter(battle__campaign=campaign).values_list(
        "battle_id", "warband_id", "battle__is_bye"
    )
    by_battle: dict[int, list[int]] = {}
    for battle_id, warband_id, is_bye in rows:
        if is_bye:
            byes[warband_id] += 1
        else:
            by_battle.setdefault(battle_id, []).append(warband_id)
    for warbands in by_battle.values():
        played.update(frozenset(pair) for pair in combinations(warbands, 2))
    return played, byes


def _create_battle(
    *, campaign: Campaign, round: Round | None, warbands: Sequence, scenario: str = ""
) -> Battle:
    is_bye = len(warbands) == 1
    now = timezone.now()
    battle = Battle.objects.create(
        campaign=campaign,
        round=round,
        scenario=scenario,
        is_bye=is_bye,
        status=Battle.Status.CONFIRMED if is_bye else Battle.Status.SCHEDULED,
        confirmed_at=now if is_bye else None,
    )
    BattleParticipant.objects.bulk_create(
        BattleParticipant(
            battle=battle,
            warband=warband,
            rating_at_battle=warband.rating,
            result=BattleParticipant.Result.WIN if is_bye else BattleParticipant.Result.PENDING,
        )
        for warband in warbands
    )
    return battle


@transaction.atomic
def pairings_generate(*, round: Round, by, method: str) -> list[Battle]:
    """Pair the campaign's active warbands for ``round`` (replacing untouched pairings).

    ``swiss``: by standings, avoiding rematches; ``rating``: nearest warband rating. An odd
    count gives one warband a bye (rotating). Battles already reported block a new draw.
    """
    campaign = round.campaign
    _require_organiser(by, campaign)
    _lock_campaign(campaign)
    _require_writable(campaign)
    round = Round.objects.select_for_update().get(pk=round.pk)
    if round.status != Round.Status.OPEN:
        raise Conflict(_("This round is closed."))
    if method not in (Round.Method.SWISS, Round.Method.RATING):
        raise ValidationError({"method": _("Choose Swiss or nearest rating pairings.")})
    existing = round.battles.all()
    if existing.filter(is_bye=False).exclude(status=Battle.Status.SCHEDULED).exists():
        raise Conflict(_("Some battles of this round are already reported: edit them by hand."))
    existing.delete()
    players = _players(campaign)
    if len(players) < 2:
        raise ValidationError(_("At least two warbands are needed to make pairings."))
    warbands = {m.warband_id: m.warband for m in players}
    played, byes = _history(campaign)
    if method == Round.Method.SWISS:
        order = [row.competitor_id for row in standings_compute(campaign=campaign)]
        order = [w for w in order if w in warbands]
        result = swiss_pairings(order, played=played, byes=byes)
    else:
        result = rating_pairings(
            {w: warband.rating for w, warband in warbands.items()}, played=played, byes=byes
        )
    battles = [
        _create_battle(campaign=campaign, round=round, warbands=[warbands[a], warbands[b]])
        for a, b in result.pairs
    ]
    if result.bye is not None:
        battles.append(
            _create_battle(campaign=campaign, round=round, warbands=[warbands[result.bye]])
        )
    round.pairing_method = method
    round.save(update_fields=["pairing_method"])
    return battles


def _pairing_warbands(campaign: Campaign, round: Round | None, warband_ids, exclude_battle=None):
    given = [int(w) for w in warband_ids]
    warband_ids = list(dict.fromkeys(given))
    if len(warband_ids) != len(given):
        raise ValidationError({"warbands": _("A warband cannot face itself.")})
    if not 1 <= len(warband_ids) <= MAX_PARTICIPANTS:
        raise ValidationError(
            {"warbands": _("A battle has two to four warbands (one alone is a bye).")}
        )
    players = {m.warband_id: m.warband for m in _players(campaign)}
    missing = [w for w in warband_ids if w not in players]
    if missing:
        raise ValidationError({"warbands": _("Every warband must be an active player here.")})
    if round is not None:
        busy = BattleParticipant.objects.filter(battle__round=round, warband_id__in=warband_ids)
        if exclude_battle is not None:
            busy = busy.exclude(battle=exclude_battle)
        names = sorted(str(players[p.warband_id]) for p in busy)
        if names:
            raise ValidationError(
                {
                    "warbands": _("Already paired in this round: %(names)s.")
                    % {"names": ", ".join(names)}
                }
            )
    return [players[w] for w in warband_ids]


@transaction.atomic
def pairing_create(
    *,
    campaign: Campaign,
    by,
    warband_ids: Sequence[int],
    round: Round | None = None,
    scenario: str = "",
) -> Battle:
    """A battle set by hand (2–4 warbands; one alone is a bye), in a round or outside rounds."""
    _require_organiser(by, campaign)
    campaign = _lock_campaign(campaign)
    _require_writable(campaign)
    if campaign.state != Campaign.State.RUNNING:
        raise Conflict(_("Battles can only be set while the campaign is running."))
    if round is not None:
        if round.campaign_id != campaign.pk:
            raise ValidationError({"round": _("That round belongs to another campaign.")})
        if round.status != Round.Status.OPEN:
            raise Conflict(_("This round is closed."))
    warbands = _pairing_warbands(campaign, round, warband_ids)
    if round is not None and round.pairing_method != Round.Method.MANUAL:
        Round.objects.filter(pk=round.pk).update(pairing_method=Round.Method.MANUAL)
    return _create_battle(campaign=campaign, round=round, warbands=warbands, scenario=scenario)


def _editable_pairing(battle: Battle) -> None:
    if battle.round_id and battle.round.status != Round.Status.OPEN:
        raise Conflict(_("This round is closed."))
    if not (battle.status == Battle.Status.SCHEDULED or battle.is_bye):
        raise Conflict(_("This battle is already reported: its pairing can no longer change."))


@transaction.atomic
def pairing_edit(
    *, battle: Battle, by, warband_ids: Sequence[int], expected_version: int | None = None
) -> Battle:
    """Change who fights in a scheduled battle (or a bye) by hand."""
    _require_organiser(by, battle.campaign)
    battle = _lock_battle(battle, expected_version)
    _require_writable(battle.campaign)
    _editable_pairing(battle)
    warbands = _pairing_warbands(battle.campaign, battle.round, warband_ids, exclude_battle=battle)
    battle.participants.all().delete()
    is_bye = len(warbands) == 1
    BattleParticipant.objects.bulk_create(
        BattleParticipant(
            battle=battle,
            warband=warband,
            rating_at_battle=warband.rating,
            result=BattleParticipant.Result.WIN if is_bye else BattleParticipant.Result.PENDING,
        )
        for warband in warbands
    )
    battle.is_bye = is_bye
    battle.status = Battle.Status.CONFIRMED if is_bye else Battle.Status.SCHEDULED
    battle.confirmed_at = timezone.now() if is_bye else None
    battle.version += 1
    battle._change_reason = _("Pairing edited")
    battle.save()
    if battle.round_id:
        Round.objects.filter(pk=battle.round_id).update(pairing_method=Round.Method.MANUAL)
    return battle


@transaction.atomic
def pairing_delete(*, battle: Battle, by) -> None:
    _require_organiser(by, battle.campaign)
    battle = _lock_battle(battle, None)
    _require_writable(battle.campaign)
    _editable_pairing(battle)
    battle.delete()


# --- battle reports ------------------------------------------------------------------------------
@dataclass
class ParticipantReport:
    warband_id: int
    routed: bool = False
    voluntary_rout: bool = False
    fighter_ids: Sequence[int] = ()


@dataclass
class EventReport:
    turn: int
    kind: str
    actor_warband_id: int | None = None
    actor_id: int | None = None
    target_warband_id: int | None = None
    target_id: int | None = None
    weapon: str = ""
    voluntary: bool = False
    notes: str = ""


@dataclass
class Report:
    """What a battle report says: the same shape for reports, settlements and corrections."""

    scenario: str = ""
    is_draw: bool = False
    winner_ids: Sequence[int] = ()
    participants: Sequence[ParticipantReport] = ()
    events: Sequence[EventReport] = ()
    notes: str = ""


def _report_snapshot(battle: Battle) -> dict:
    participants = battle.participants.order_by("id").prefetch_related("fighters")
    return {
        "scenario": battle.scenario,
        "is_draw": battle.is_draw,
        "notes": battle.notes,
        "participants": [
            {
                "warband": p.warband_id,
                "result": p.result,
                "routed": p.routed,
                "voluntary_rout": p.voluntary_rout,
                "fighters": sorted(f.pk for f in p.fighters.all()),
            }
            for p in participants
        ],
        "events": [
            {
                "turn": e.turn,
                "kind": e.kind,
                "actor_warband": e.actor_warband_id,
                "actor": e.actor_id,
                "target_warband": e.target_warband_id,
                "target": e.target_id,
                "weapon": e.weapon,
                "voluntary": e.voluntary,
                "notes": e.notes,
            }
            for e in battle.events.order_by("turn", "id")
        ],
    }


def _apply_report(battle: Battle, report: Report, *, check_fighter_status: bool) -> None:
    """Validate ``report`` against ``battle`` (locked) and write it; nothing is written if any
    part is wrong."""
    from warbands.models import Fighter

    participants = {p.warband_id: p for p in battle.participants.select_related("warband")}
    errors: dict[str, list[str]] = {}

    winners = {int(w) for w in report.winner_ids}
    if report.is_draw and winners:
        errors.setdefault("winners", []).append(_("A draw has no winners."))
    if not report.is_draw:
        if not winners:
            errors.setdefault("winners", []).append(_("Say who won, or mark the battle as a draw."))
        elif not winners <= participants.keys():
            errors.setdefault("winners", []).append(_("A winner must be one of the warbands."))
        elif winners == participants.keys():
            errors.setdefault("winners", []).append(
                _("Not every warband can win: mark the battle as a draw instead.")
            )

    details = {}
    for item in report.participants:
        warband_id = int(item.warband_id)
        if warband_id not in participants:
            errors.setdefault("participants", []).append(
                _("Only the warbands of this battle can be reported on.")
            )
            continue
        details[warband_id] = item

    fighter_ids = {int(f) for item in details.values() for f in item.fighter_ids}
    event_fighter_ids = {
        int(f) for e in report.events for f in (e.actor_id, e.target_id) if f is not None
    }
    fighters = Fighter.objects.in_bulk(fighter_ids | event_fighter_ids)
    for warband_id, item in details.items():
        for fighter_id in item.fighter_ids:
            fighter = fighters.get(int(fighter_id))
            if fighter is None or fighter.warband_id != warband_id:
                errors.setdefault("participants", []).append(
                    _("%(warband)s has no such fighter.")
                    % {"warband": participants[warband_id].warband}
                )
            elif check_fighter_status and fighter.status != Fighter.Status.ACTIVE:
                errors.setdefault("participants", []).append(
                    _("%(fighter)s cannot take part: %(status)s.")
                    % {"fighter": fighter.name, "status": fighter.get_status_display()}
                )

    events = []
    routs: dict[int, bool] = {}
    kinds = dict(BattleEvent.Kind.choices)
    for index, item in enumerate(report.events):
        problems = []
        try:
            turn = int(item.turn)
        except (TypeError, ValueError):
            turn = 0
        if not 1 <= turn <= 99:
            problems.append(_("the turn must be a number from 1 to 99"))
        if item.kind not in kinds:
            problems.append(_("unknown kind of event"))
        sides = {}
        for side in ("actor", "target"):
            fighter_id = getattr(item, f"{side}_id")
            warband_id = getattr(item, f"{side}_warband_id")
            warband_id = int(warband_id) if warband_id not in (None, "") else None
            if fighter_id not in (None, ""):
                fighter = fighters.get(int(fighter_id))
                if fighter is None or fighter.warband_id not in participants:
                    problems.append(_("that fighter is not in this battle"))
                    continue
                if warband_id is not None and warband_id != fighter.warband_id:
                    problems.append(_("the fighter belongs to another warband"))
                warband_id = fighter.warband_id
            elif warband_id is not None and warband_id not in participants:
                problems.append(_("that warband is not in this battle"))
            sides[side] = (int(fighter_id) if fighter_id not in (None, "") else None, warband_id)
        actor, actor_warband = sides.get("actor", (None, None))
        target, target_warband = sides.get("target", (None, None))
        if item.kind == BattleEvent.Kind.OUT_OF_ACTION and target is None and not target_warband:
            problems.append(_("say who was put out of action"))
        if item.kind == BattleEvent.Kind.ROUT and not actor_warband:
            problems.append(_("say which warband routed"))
        if item.kind == BattleEvent.Kind.OBJECTIVE and not actor_warband:
            problems.append(_("say which warband took the objective"))
        if problems:
            errors.setdefault("events", []).append(
                _("Event %(number)s: %(problems)s.")
                % {"number": index + 1, "problems": "; ".join(str(p) for p in problems)}
            )
            continue
        if item.kind == BattleEvent.Kind.ROUT:
            routs[actor_warband] = routs.get(actor_warband, False) or bool(item.voluntary)
        events.append(
            BattleEvent(
                battle=battle,
                turn=turn,
                kind=item.kind,
                actor=fighters.get(actor) if actor else None,
                actor_warband_id=actor_warband,
                target=fighters.get(target) if target else None,
                target_warband_id=target_warband,
                weapon=(item.weapon or "")[:80],
                voluntary=bool(item.voluntary),
                notes=(item.notes or "")[:300],
            )
        )
    if errors:
        raise ValidationError(errors)

    battle.scenario = (report.scenario or "").strip()[:120]
    battle.is_draw = bool(report.is_draw)
    battle.notes = report.notes or ""
    for warband_id, participant in participants.items():
        item = details.get(warband_id)
        if report.is_draw:
            participant.result = BattleParticipant.Result.DRAW
        elif warband_id in winners:
            participant.result = BattleParticipant.Result.WIN
        else:
            participant.result = BattleParticipant.Result.LOSS
        participant.routed = bool(item and item.routed) or warband_id in routs
        participant.voluntary_rout = bool(item and item.voluntary_rout) or routs.get(
            warband_id, False
        )
        if participant.voluntary_rout:
            participant.routed = True
        participant.save(update_fields=["result", "routed", "voluntary_rout"])
        if item is not None:
            participant.fighters.set([int(f) for f in item.fighter_ids])
    battle.events.all().delete()
    BattleEvent.objects.bulk_create(events)


def _snapshot_ratings(battle: Battle) -> None:
    for participant in battle.participants.select_related("warband"):
        if participant.rating_at_battle != participant.warband.rating:
            participant.rating_at_battle = participant.warband.rating
            participant.save(update_fields=["rating_at_battle"])


@transaction.atomic
def battle_report(
    *, battle: Battle, reporter, report: Report, expected_version: int | None = None
) -> Battle:
    """A participant (or an organiser) reports a scheduled battle: scheduled → reported."""
    battle = _lock_battle(battle, expected_version)
    _require_writable(battle.campaign)
    battle_with_people = Battle.objects.prefetch_related("participants__warband").get(pk=battle.pk)
    if not access.can_report(reporter, battle_with_people):
        raise PermissionDenied(_("Only a warband in this battle or an organiser may report it."))
    if battle.status != Battle.Status.SCHEDULED:
        raise Conflict(
            _("This battle is %(status)s: it cannot be reported again.")
            % {"status": battle.get_status_display()}
            if not battle.is_frozen
            else _(
                "This battle is confirmed: its report is frozen; ask an organiser to correct it."
            )
        )
    _apply_report(battle, report, check_fighter_status=True)
    _snapshot_ratings(battle)
    battle.status = Battle.Status.REPORTED
    battle.reported_by = reporter
    battle.reported_at = timezone.now()
    battle.version += 1
    battle._change_reason = _("Reported")
    battle.save()
    return battle


@transaction.atomic
def battle_confirm(*, battle: Battle, by, expected_version: int | None = None) -> Battle:
    """The opponent (or an organiser) confirms the report: reported → confirmed (frozen)."""
    battle = _lock_battle(battle, expected_version)
    _require_writable(battle.campaign)
    battle_with_people = Battle.objects.prefetch_related("participants__warband").get(pk=battle.pk)
    if not access.can_confirm(by, battle_with_people):
        raise PermissionDenied(
            _(
                "Only the opponent of the one who reported, or an organiser who does not play in "
                "this battle, may confirm."
            )
        )
    if battle.status != Battle.Status.REPORTED:
        raise Conflict(
            _("Only a reported battle can be confirmed; this one is %(status)s.")
            % {"status": battle.get_status_display()}
        )
    battle.status = Battle.Status.CONFIRMED
    battle.confirmed_by = by
    battle.confirmed_at = timezone.now()
    battle.version += 1
    battle._change_reason = _("Confirmed")
    battle.save()
    return battle


@transaction.atomic
def battle_dispute(
    *, battle: Battle, by, reason: str, expected_version: int | None = None
) -> Battle:
    """The opponent disputes the report, saying why: reported → disputed."""
    battle = _lock_battle(battle, expected_version)
    _require_writable(battle.campaign)
    battle_with_people = Battle.objects.prefetch_related("participants__warband").get(pk=battle.pk)
    if not access.can_dispute(by, battle_with_people):
        raise PermissionDenied(_("Only the opponent of the one who reported may dispute it."))
    if battle.status != Battle.Status.REPORTED:
        raise Conflict(
            _("Only a reported battle can be disputed; this one is %(status)s.")
            % {"status": battle.get_status_display()}
        )
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Say what is wrong with the report.")})
    battle.status = Battle.Status.DISPUTED
    battle.disputed_by = by
    battle.dispute_reason = reason
    battle.version += 1
    battle._change_reason = _("Disputed")
    battle.save()
    return battle


def _require_neutral_organiser(user, battle: Battle) -> None:
    battle_with_people = Battle.objects.prefetch_related("participants__warband").get(pk=battle.pk)
    if not access.can_settle(user, battle_with_people):
        raise PermissionDenied(
            _(
                "You play in this battle: an organiser who does not play in it settles or "
                "corrects its report."
            )
        )


def _record_correction(battle: Battle, by, reason: str, before: dict) -> BattleCorrection:
    return BattleCorrection.objects.create(
        battle=battle, by=by, reason=reason, before=before, after=_report_snapshot(battle)
    )


@transaction.atomic
def battle_settle(
    *,
    battle: Battle,
    by,
    reason: str,
    report: Report | None = None,
    expected_version: int | None = None,
) -> Battle:
    """An organiser settles a dispute (or confirms a report), optionally rewriting the report:
    → confirmed. The decision is recorded as a correction."""
    _require_organiser(by, battle.campaign)
    battle = _lock_battle(battle, expected_version)
    _require_writable(battle.campaign)
    _require_neutral_organiser(by, battle)
    if battle.status not in (Battle.Status.DISPUTED, Battle.Status.REPORTED):
        raise Conflict(
            _("Only a reported or disputed battle can be settled; this one is %(status)s.")
            % {"status": battle.get_status_display()}
        )
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Say how the dispute was settled.")})
    before = _report_snapshot(battle)
    if report is not None:
        _apply_report(battle, report, check_fighter_status=False)
    battle.status = Battle.Status.CONFIRMED
    battle.confirmed_by = by
    battle.confirmed_at = timezone.now()
    battle.version += 1
    battle._change_reason = _("Settled: %(reason)s") % {"reason": reason[:80]}
    battle.save()
    _record_correction(battle, by, reason, before)
    return battle


@transaction.atomic
def battle_correct(
    *, battle: Battle, by, reason: str, report: Report, expected_version: int | None = None
) -> Battle:
    """An organiser corrects a confirmed (or resolved) report; the change is recorded with its
    reason. Post-battle results already applied are not re-rolled."""
    _require_organiser(by, battle.campaign)
    battle = _lock_battle(battle, expected_version)
    _require_writable(battle.campaign)
    _require_neutral_organiser(by, battle)
    if not battle.is_frozen or battle.is_bye:
        raise Conflict(_("Only a confirmed report is corrected; this one can still be reported."))
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the report is corrected.")})
    before = _report_snapshot(battle)
    _apply_report(battle, report, check_fighter_status=False)
    battle.version += 1
    battle._change_reason = _("Corrected: %(reason)s") % {"reason": reason[:80]}
    battle.save()
    _record_correction(battle, by, reason, before)
    return battle


# --- standings -----------------------------------------------------------------------------------
def points_scheme(campaign: Campaign) -> PointsScheme:
    return scheme_of(campaign)


def standings_compute(*, campaign: Campaign, round: Round | int | None = None) -> list[Row]:
    """The standings (overall, or after ``round``) by the campaign's own scoring
    (``battles.scoring``): three queries whatever the size of the campaign."""
    return campaign_standings(campaign=campaign, round=round)
