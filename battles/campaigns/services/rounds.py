"""Rounds and pairings: open and close a round, draw its pairings (Swiss or by rating), set,
edit or delete a battle by hand. Writes lock the campaign row, then the round or battle row."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from simple_history.utils import bulk_create_with_history

from annuminas.errors import Conflict
from battles.campaigns.pairing import rating_pairings, swiss_pairings
from battles.campaigns.scoring import standings_compute
from battles.common.writes import (
    active_players,
    battles_delete,
    lock_battle,
    lock_campaign,
    require_organiser,
    require_writable,
)
from battles.models import Battle, BattleParticipant, Campaign, Round
from battles.models.notifications import Event
from battles.notifications.services import notify

MAX_PARTICIPANTS = 4


@transaction.atomic
def round_open(*, campaign: Campaign, by) -> Round:
    require_organiser(by, campaign)
    campaign = lock_campaign(campaign)
    require_writable(campaign)
    if campaign.state != Campaign.State.RUNNING:
        raise Conflict(
            _("Rounds can only be opened while the campaign is running."),
            code="campaign_not_running",
        )
    last = campaign.rounds.order_by("-number").first()
    if last and last.status == Round.Status.OPEN:
        raise Conflict(
            _("Round %(number)s is still open: close it first.") % {"number": last.number},
            code="round_open",
        )
    return Round.objects.create(campaign=campaign, number=(last.number + 1) if last else 1)


@transaction.atomic
def round_close(*, round: Round, by) -> Round:
    campaign = round.campaign
    require_organiser(by, campaign)
    lock_campaign(campaign)
    require_writable(campaign)
    round = Round.objects.select_for_update().get(pk=round.pk)
    if round.status == Round.Status.CLOSED:
        raise Conflict(_("This round is already closed."), code="round_closed")
    pending = round.battles.exclude(
        status__in=[Battle.Status.CONFIRMED, Battle.Status.RESOLVED]
    ).count()
    if pending:
        raise ValidationError(
            ngettext(
                "%(count)s battle of this round is not confirmed yet.",
                "%(count)s battles of this round are not confirmed yet.",
                pending,
            )
            % {"count": pending}
        )
    round.status = Round.Status.CLOSED
    round.closed_at = timezone.now()
    round.save(update_fields=["status", "closed_at"])
    return round


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


def _set_bye(battle: Battle, is_bye: bool) -> None:
    """A battle of one warband is a bye: won and confirmed at once; otherwise it is scheduled."""
    battle.is_bye = is_bye
    battle.status = Battle.Status.CONFIRMED if is_bye else Battle.Status.SCHEDULED
    battle.confirmed_at = timezone.now() if is_bye else None


def _seats(battle: Battle, warbands: Sequence) -> list[BattleParticipant]:
    """``warbands`` seated in ``battle`` with their rating now (a bye's one warband has won)."""
    return [
        BattleParticipant(
            battle=battle,
            warband=warband,
            rating_at_battle=warband.rating,
            result=BattleParticipant.Result.WIN
            if battle.is_bye
            else BattleParticipant.Result.PENDING,
        )
        for warband in warbands
    ]


def _create_battle(
    *, campaign: Campaign, round: Round | None, warbands: Sequence, scenario: str = ""
) -> Battle:
    battle = Battle(campaign=campaign, round=round, scenario=scenario)
    _set_bye(battle, len(warbands) == 1)
    battle.save()
    BattleParticipant.objects.bulk_create(_seats(battle, warbands))
    return battle


def _create_round_battles(*, round: Round, by, tables: Sequence[Sequence]) -> list[Battle]:
    """A battle for each table of warbands, in three statements whatever their number: the
    battles, their history rows, their participants."""
    battles = []
    for warbands in tables:
        battle = Battle(campaign=round.campaign, round=round)
        _set_bye(battle, len(warbands) == 1)
        battles.append(battle)
    battles = bulk_create_with_history(battles, Battle, default_user=by)
    BattleParticipant.objects.bulk_create(
        seat
        for battle, warbands in zip(battles, tables, strict=True)
        for seat in _seats(battle, warbands)
    )
    return battles


@transaction.atomic
def pairings_generate(*, round: Round, by, method: str) -> list[Battle]:
    """Pair the campaign's active warbands for ``round`` (replacing untouched pairings).

    ``swiss``: by standings, avoiding rematches; ``rating``: nearest warband rating. An odd
    count gives one warband a bye (rotating). Battles already reported block a new draw.
    """
    campaign = round.campaign
    require_organiser(by, campaign)
    lock_campaign(campaign)
    require_writable(campaign)
    round = Round.objects.select_for_update().get(pk=round.pk)
    if round.status != Round.Status.OPEN:
        raise Conflict(_("This round is closed."), code="round_closed")
    if method not in (Round.Method.SWISS, Round.Method.RATING):
        raise ValidationError({"method": _("Choose Swiss or nearest rating pairings.")})
    existing = round.battles.all()
    if existing.filter(is_bye=False).exclude(status=Battle.Status.SCHEDULED).exists():
        raise Conflict(
            _("Some battles of this round are already reported: edit them by hand."),
            code="battle_reported",
        )
    battles_delete(existing, by=by)
    players = active_players(campaign)
    if len(players) < 2:
        raise ValidationError(_("At least two warbands are needed to make pairings."))
    warbands = {m.warband_id: m.warband for m in players}
    played, byes = _history(campaign)
    if method == Round.Method.SWISS:
        rows = [r for r in standings_compute(campaign=campaign) if r.competitor_id in warbands]
        result = swiss_pairings(
            [row.competitor_id for row in rows],
            played=played,
            byes=byes,
            points={row.competitor_id: row.points for row in rows},
        )
    else:
        result = rating_pairings(
            {w: warband.rating for w, warband in warbands.items()}, played=played, byes=byes
        )
    tables = [[warbands[a], warbands[b]] for a, b in result.pairs]
    if result.bye is not None:
        tables.append([warbands[result.bye]])
    battles = _create_round_battles(round=round, by=by, tables=tables)
    round.pairing_method = method
    round.save(update_fields=["pairing_method"])
    notify(
        event=Event.PAIRINGS_PUBLISHED,
        round=round,
        actor=by,
        params={"battle_ids": [battle.pk for battle in battles]},
    )
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
    players = {m.warband_id: m.warband for m in active_players(campaign)}
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
    require_organiser(by, campaign)
    campaign = lock_campaign(campaign)
    require_writable(campaign)
    if campaign.state != Campaign.State.RUNNING:
        raise Conflict(
            _("Battles can only be set while the campaign is running."),
            code="campaign_not_running",
        )
    if round is not None:
        if round.campaign_id != campaign.pk:
            raise ValidationError({"round": _("That round belongs to another campaign.")})
        if round.status != Round.Status.OPEN:
            raise Conflict(_("This round is closed."), code="round_closed")
    warbands = _pairing_warbands(campaign, round, warband_ids)
    if round is not None and round.pairing_method != Round.Method.MANUAL:
        Round.objects.filter(pk=round.pk).update(pairing_method=Round.Method.MANUAL)
    battle = _create_battle(campaign=campaign, round=round, warbands=warbands, scenario=scenario)
    notify(event=Event.PAIRINGS_PUBLISHED, battle=battle, actor=by)
    return battle


def _editable_pairing(battle: Battle) -> None:
    if battle.round_id and battle.round.status != Round.Status.OPEN:
        raise Conflict(_("This round is closed."), code="round_closed")
    if not (battle.status == Battle.Status.SCHEDULED or battle.is_bye):
        raise Conflict(
            _("This battle is already reported: its pairing can no longer change."),
            code="battle_reported",
        )


@transaction.atomic
def pairing_edit(
    *, battle: Battle, by, warband_ids: Sequence[int], expected_version: int | None = None
) -> Battle:
    """Change who fights in a scheduled battle (or a bye) by hand."""
    require_organiser(by, battle.campaign)
    battle = lock_battle(battle, expected_version)
    require_writable(battle.campaign)
    _editable_pairing(battle)
    warbands = _pairing_warbands(battle.campaign, battle.round, warband_ids, exclude_battle=battle)
    battle.participants.all().delete()
    _set_bye(battle, len(warbands) == 1)
    BattleParticipant.objects.bulk_create(_seats(battle, warbands))
    battle.version += 1
    battle._change_reason = _("Pairing edited")
    battle.save()
    if battle.round_id:
        Round.objects.filter(pk=battle.round_id).update(pairing_method=Round.Method.MANUAL)
    return battle


@transaction.atomic
def pairing_delete(*, battle: Battle, by) -> None:
    require_organiser(by, battle.campaign)
    battle = lock_battle(battle, None)
    require_writable(battle.campaign)
    _editable_pairing(battle)
    battle.delete()
