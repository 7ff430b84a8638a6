"""Answering the pending decisions the sequence left: HA or HP, a skill, the lad's got
talent, a captive, a rare item."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from battles.postbattle.pending import decision_settle
from battles.postbattle.upkeep import answer_upkeep
from rules.engine.dice import Dice
from rules.engine.postbattle import EffectKind, characteristic_advance, hero_advance
from warbands import services as roster
from warbands.models import Equipment, Fighter, LedgerEntry, Skill
from warbands.postbattle import (
    captive_gear_to_captor,
    fighter_promote,
)

from ..models import (
    PendingDecision,
)
from ._common import _profile, _race_maximum, _skill_options

# --- decisions -------------------------------------------------------------------------------


@transaction.atomic
def decision_answer(*, decision: PendingDecision, user, choice: Any) -> PendingDecision:
    """Answer a pending decision (only the deciding warband's owner may). ``choice`` per kind:
    characteristic: "ws"/"bs"…; skill: a skill slug; lads_got_talent: {"fighter": id,
    "skill_lists": [slug, slug]}; captive: "ransom"/"sell"/"exchange"; rare_item: a slug to buy
    or null to decline."""
    handlers = {
        PendingDecision.Kind.CHARACTERISTIC: _answer_characteristic,
        PendingDecision.Kind.SKILL: _answer_skill,
        PendingDecision.Kind.LADS_GOT_TALENT: _answer_talent,
        PendingDecision.Kind.CAPTIVE: _answer_captive,
        PendingDecision.Kind.RARE_ITEM: _answer_rare_item,
        PendingDecision.Kind.UPKEEP: answer_upkeep,
    }
    return decision_settle(decision=decision, user=user, choice=choice, handlers=handlers)


def _record(decision: PendingDecision, **extra) -> dict:
    return {
        "battle_id": decision.payload.get("battle_id"),
        "roll": decision.payload.get("roll"),
        "decision_id": decision.pk,
        **extra,
    }


def _answer_characteristic(decision: PendingDecision, choice: Any) -> bool:
    if choice not in decision.options:
        raise ValidationError(
            {"choice": _("Choose one of: %(options)s.") % {"options": ", ".join(decision.options)}}
        )
    if decision.payload.get("free"):  # the promotion's own advance
        roster.fighter_apply_profile_change(
            fighter=decision.fighter,
            characteristic=choice,
            delta=characteristic_advance(choice),
            source=decision,
        )
        return False
    roster.fighter_add_advance(
        fighter=decision.fighter if decision.group_id is None else None,
        group=decision.group,
        record=_record(decision, characteristic=choice),
        characteristic=choice,
        delta=characteristic_advance(choice),
    )
    return False


def _answer_skill(decision: PendingDecision, choice: Any) -> bool:
    if choice not in decision.options:
        raise ValidationError({"choice": _("That skill is not one he may learn.")})
    skill = Skill.objects.get(slug=choice)
    if decision.payload.get("free"):  # the promotion's own advance
        roster.fighter_add_skill(fighter=decision.fighter, skill=skill)
        return False
    roster.fighter_add_advance(
        fighter=decision.fighter, record=_record(decision, skill=choice), skill=skill
    )
    return False


def _answer_talent(decision: PendingDecision, choice: Any) -> bool:
    if not isinstance(choice, dict) or choice.get("fighter") not in decision.options:
        raise ValidationError({"choice": _("Choose which member of the group is promoted.")})
    lists = choice.get("skill_lists") or []
    allowed = decision.payload.get("skill_lists", [])
    if (
        not isinstance(lists, list)
        or not all(isinstance(item, str) for item in lists)
        or len(set(lists)) != 2
        or not set(lists) <= set(allowed)
    ):
        raise ValidationError({"choice": _("Pick two of the warband's skill lists.")})
    fighter = Fighter.objects.select_related("fighter_type__race").get(pk=choice["fighter"])
    group = decision.group
    roster.fighter_add_advance(
        group=group, record=_record(decision, outcome="lads_got_talent", promoted=fighter.pk)
    )
    fighter = fighter_promote(fighter=fighter, skill_lists=list(lists))
    # He rolls one hero advance at once, from a seed stored with the decision (replayable).
    dice = Dice(seed=decision.payload.get("seed", decision.pk))
    outcome = hero_advance(
        dice=dice, profile=_profile(fighter), maximum=_race_maximum(fighter.fighter_type.race)
    )
    decision.payload = {**decision.payload, "hero_advance": outcome.to_dict()}
    decision.save(update_fields=["payload"])
    # This advance comes with the promotion: it does not use up one of his future thresholds.
    for effect in outcome.typed_effects:
        if effect.kind is EffectKind.CHARACTERISTIC and effect.field:
            roster.fighter_apply_profile_change(
                fighter=fighter, characteristic=effect.field, delta=effect.delta, source=decision
            )
    result = decision.result
    for pending in outcome.pending_choices:
        kind = (
            PendingDecision.Kind.SKILL
            if pending["type"] == "skill"
            else PendingDecision.Kind.CHARACTERISTIC
        )
        PendingDecision.objects.create(
            result=result,
            warband=decision.warband,
            fighter=fighter,
            kind=kind,
            options=_skill_options(fighter) if kind == "skill" else list(pending["options"]),
            payload={"battle_id": decision.payload.get("battle_id"), "free": True},
        )
    return False


def _captive_money(decision: PendingDecision, warband, amount: int, reason: str, code: str) -> None:
    """A captive's sale or ransom in one warband's ledger, naming him."""
    roster.ledger_record(
        warband=warband,
        amount=amount,
        reason=reason,
        code=code,
        params={"name": decision.fighter.name},
        source=decision,
    )


def _answer_captive(decision: PendingDecision, choice: Any) -> bool:
    """The captor sells or releases (exchange) the captive, or offers him back for a ransom;
    a ransom offer becomes the owner's decision: he pays and gets him back, or refuses."""
    if decision.payload.get("ransom_offer"):
        return _answer_ransom_offer(decision, choice)
    if choice not in decision.options:
        raise ValidationError({"choice": _("Choose ransom, sell or exchange.")})
    captive = decision.fighter
    value = int(decision.payload["sale_value"])
    captor = decision.warband
    if choice == "sell":
        captive_gear_to_captor(fighter=captive, captor=captor)
        _captive_money(decision, captor, value, LedgerEntry.Reason.CAPTURE_SALE, "captive_sold")
        roster.fighter_kill(fighter=captive, source=decision)
    elif choice == "ransom":
        PendingDecision.objects.create(
            result=decision.result,
            warband_id=decision.payload["owner_warband_id"],
            fighter=captive,
            kind=PendingDecision.Kind.CAPTIVE,
            options=["accept", "refuse"],
            payload={**decision.payload, "ransom_offer": True, "captor_decision": decision.pk},
        )
    else:  # exchanged (or released): he returns to his warband
        roster.fighter_set_status(fighter=captive, status=Fighter.Status.ACTIVE, source=decision)
    return False


def _answer_ransom_offer(decision: PendingDecision, choice: Any) -> bool:
    if choice not in ("accept", "refuse"):
        raise ValidationError({"choice": _("Accept or refuse the ransom.")})
    captive = decision.fighter
    offer = PendingDecision.objects.select_for_update().get(pk=decision.payload["captor_decision"])
    if choice == "refuse":
        # The captor decides again, without the ransom.
        offer.status = PendingDecision.Status.OPEN
        offer.options = ["sell", "exchange"]
        offer.choice = None
        offer.save(update_fields=["status", "options", "choice"])
        return True
    value = int(decision.payload["sale_value"])
    owner, captor = decision.warband, offer.warband
    _captive_money(decision, owner, -value, LedgerEntry.Reason.RANSOM, "ransom_paid")
    _captive_money(decision, captor, value, LedgerEntry.Reason.RANSOM, "ransom_received")
    roster.fighter_set_status(fighter=captive, status=Fighter.Status.ACTIVE, source=decision)
    return False


def _answer_rare_item(decision: PendingDecision, choice: Any) -> bool:
    if choice in (None, ""):
        return True
    if choice not in decision.options:
        raise ValidationError({"choice": _("That item was not found.")})
    equipment = Equipment.objects.get(slug=choice)
    price = decision.payload.get("prices", {}).get(choice)
    try:  # for the hero who found it, when his list allows it…
        with transaction.atomic():
            roster.equipment_buy(
                warband=decision.warband,
                equipment=equipment,
                fighter=decision.fighter,
                rare_found=True,
                price=price,
            )
    except ValidationError:  # …or into the stash, for whoever may carry it
        roster.equipment_buy(
            warband=decision.warband, equipment=equipment, rare_found=True, price=price
        )
    return False
