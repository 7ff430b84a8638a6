"""Characteristic and Leadership tests (Reglas › Atributos; Liderazgo y psicología): the
leader's L within 15 cm (Jefes), rally and rout."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine.checks._common import (
    ATTRIBUTES,
    CheckResult,
    as_number,
    attribute_roll,
    check_result,
    leadership_options,
    leadership_roll,
    valid_distance,
    valid_models,
    valid_status,
)
from rules.engine.dice import Dice
from rules.engine.errors import RulesError, SpecError
from rules.engine.explain import Explainer
from rules.engine.i18n import gettext_noop as _
from rules.engine.tables import OUT_OF_ACTION, STUNNED
from rules.engine.validation import whole_number

LEADER_RANGE_CM = 15


def effective_leadership(
    ex: Explainer,
    *,
    leadership: int,
    leader_leadership: int | None,
    leader_distance_cm: float | None,
    leader_status: str,
    leader_refused_challenge: bool = False,
    leader_range_cm: float = LEADER_RANGE_CM,
) -> int:
    """Jefes: within 15 cm of his leader a warrior may use the leader's L, unless the leader is
    stunned, out of action or fleeing (or refused a challenge this turn, Personajes y combate ›
    Desafíos). ``leader_range_cm``: 30 for a leader with the battle tongue."""
    whole_number("leadership", leadership)
    if leader_leadership is None:
        return leadership
    whole_number("leader_leadership", leader_leadership)
    valid_status("leader_status", leader_status)
    if leader_distance_cm is None:
        raise SpecError(_("Give the leader's distance in cm."), field="leader_distance_cm")
    valid_distance("leader_distance_cm", leader_distance_cm)
    if leader_status in ("stunned", "out_of_action", "fleeing"):
        ex.add(
            "leadership.leader_unavailable",
            _("The leader is %(status)s and cannot lend his Leadership."),
            status=leader_status,
        )
        return leadership
    if leader_refused_challenge:
        ex.add(
            "leadership.leader_refused_challenge",
            _("The leader refused a challenge: nobody may use his Leadership this turn."),
        )
        return leadership
    if leader_distance_cm > leader_range_cm:
        ex.add(
            "leadership.leader_too_far",
            _("The leader is %(distance)s cm away, more than %(range)d cm."),
            distance=as_number(leader_distance_cm),
            range=leader_range_cm,
        )
        return leadership
    if leader_leadership > leadership:
        ex.add(
            "leadership.leader_used",
            _("The leader is within %(range)d cm: his L%(leadership)d is used."),
            range=leader_range_cm,
            leadership=leader_leadership,
        )
        return leader_leadership
    return leadership


def leadership_roll_with_leader(
    ex: Explainer,
    dice: Dice,
    purpose: str,
    *,
    leadership: int,
    leader_leadership: int | None,
    leader_distance_cm: float | None,
    leader_status: str,
    leader_refused_challenge: bool = False,
    leader_range_cm: float = LEADER_RANGE_CM,
    leadership_modifier: int = 0,
    reroll_failed: bool = False,
) -> tuple[int, bool]:
    """An L test under Jefes: 2D6 against his L, or his leader's (see
    :func:`effective_leadership`), plus ``leadership_modifier``; a failure re-rolled once with
    ``reroll_failed``. Returns the L used and whether the test passed."""
    leadership_options(leadership_modifier, reroll_failed)
    used = effective_leadership(
        ex,
        leadership=leadership,
        leader_leadership=leader_leadership,
        leader_distance_cm=leader_distance_cm,
        leader_status=leader_status,
        leader_refused_challenge=leader_refused_challenge,
        leader_range_cm=leader_range_cm,
    )
    used = modified_leadership(ex, used, leadership_modifier)
    return used, leadership_roll(ex, dice, used, purpose, reroll=reroll_failed)


def modified_leadership(ex: Explainer, leadership: int, modifier: int) -> int:
    """The L a test is taken against after a modifier (never below 0)."""
    if not modifier:
        return leadership
    used = max(0, leadership + modifier)
    ex.add(
        "leadership.modified",
        _("L%(before)d %(modifier)+d: L%(after)d."),
        before=leadership,
        modifier=modifier,
        after=used,
    )
    return used


# Characteristic tests ---------------------------------------------------------------------------


def attribute_check(
    *, value: int, dice: Dice, attribute: str = "i", purpose: str = ""
) -> CheckResult:
    """Chequeo de atributo: 1D6 ≤ the value passes; a 6 always fails; a value of 0 always fails."""
    whole_number("value", value)
    if attribute not in ATTRIBUTES:
        raise SpecError(
            _("attribute must be one of %(choices)s."),
            field="attribute",
            choices=", ".join(ATTRIBUTES),
        )
    ex = Explainer(dice)
    passed = attribute_roll(ex, dice, value, attribute, purpose)
    return check_result("attribute", ex, passed, "passed" if passed else "failed", value=value)


def leadership_test(
    *,
    leadership: int,
    dice: Dice,
    leader_leadership: int | None = None,
    leader_distance_cm: float | None = None,
    leader_status: str = "standing",
    leader_refused_challenge: bool = False,
    purpose: str = "leadership test",
    leader_range_cm: float = LEADER_RANGE_CM,
    leadership_modifier: int = 0,
    reroll_failed: bool = False,
) -> CheckResult:
    """Chequeo de liderazgo: 2D6 ≤ L passes (the leader's L within 15 cm, see Jefes)."""
    ex = Explainer(dice)
    used, passed = leadership_roll_with_leader(
        ex,
        dice,
        purpose,
        leadership=leadership,
        leader_leadership=leader_leadership,
        leader_distance_cm=leader_distance_cm,
        leader_status=leader_status,
        leader_refused_challenge=leader_refused_challenge,
        leader_range_cm=leader_range_cm,
        leadership_modifier=leadership_modifier,
        reroll_failed=reroll_failed,
    )
    return check_result(
        "leadership", ex, passed, "passed" if passed else "failed", leadership_used=used
    )


def rally_test(
    *,
    leadership: int,
    dice: Dice,
    nearby: Sequence[Mapping[str, Any]] = (),
    leader_leadership: int | None = None,
    leader_distance_cm: float | None = None,
    leader_status: str = "standing",
    leader_range_cm: float = LEADER_RANGE_CM,
    leadership_modifier: int = 0,
    reroll_failed: bool = False,
) -> CheckResult:
    """Chequeo de reagrupamiento: 2D6 ≤ L. A warrior whose nearest model is an enemy cannot rally
    (enemies stunned, knocked down or fleeing are not counted). ``nearby``: models around him,
    each ``{"side": "friend"|"enemy", "distance_cm": …, "status": …}``."""
    ex = Explainer(dice)
    counted = [
        model
        for model in valid_models("nearby", nearby)
        if model.get("side") == "friend"
        or model.get("status", "standing") not in ("stunned", "knocked_down", "fleeing")
    ]
    if any(model.get("side") not in ("friend", "enemy") for model in nearby):
        raise SpecError(_("side must be friend or enemy."), field="nearby")
    if counted:
        nearest = min(counted, key=lambda model: model.get("distance_cm", 0))
        if nearest.get("side") == "enemy":
            ex.add(
                "rally_test.enemy_nearest",
                _("The nearest model is an enemy: the warrior cannot rally."),
            )
            return check_result("rally", ex, False, "cannot_rally")
    used, passed = leadership_roll_with_leader(
        ex,
        dice,
        "rally test",
        leadership=leadership,
        leader_leadership=leader_leadership,
        leader_distance_cm=leader_distance_cm,
        leader_status=leader_status,
        leader_range_cm=leader_range_cm,
        leadership_modifier=leadership_modifier,
        reroll_failed=reroll_failed,
    )
    return check_result(
        "rally", ex, passed, "rallied" if passed else "keeps_fleeing", leadership_used=used
    )


def rout_test(
    *,
    warriors: Sequence[Mapping[str, Any]],
    dice: Dice,
    voluntary: bool = False,
    leadership_modifier: int = 0,
    reroll_failed: bool = False,
) -> CheckResult:
    """Chequeo de retirada, at the start of the turn, when 25% or more of the warband (rounded
    up) is out of action: 2D6 ≤ the leader's L, or, if the leader is out of action or stunned, the
    highest L among the warriors neither stunned nor out of action. Retirada voluntaria: allowed
    once two or more warriors are out of action. ``warriors``: every warrior of the warband,
    ``{"leadership": 7, "status": "standing", "leader": true}``. ``leadership_modifier``: an
    enemy's talisman nearby (−1); ``reroll_failed``: a failed test is re-rolled once (the pipe
    of Southfarthing weed, the servant of the Witch-king)."""
    leadership_options(leadership_modifier, reroll_failed)
    models = valid_models("warriors", warriors)
    if not models:
        raise SpecError(_("The warband has no warriors."), field="warriors")
    for model in models:
        whole_number("leadership", model.get("leadership"))
    ex = Explainer(dice)
    size = len(models)
    out = sum(1 for m in models if m.get("status") == OUT_OF_ACTION)
    threshold = math.ceil(size / 4)
    details: dict[str, Any] = {"size": size, "out_of_action": out, "threshold": threshold}
    if voluntary:
        if out < 2:
            raise RulesError(
                _("A voluntary rout needs two or more warriors out of action (%(count)d now)."),
                code="rout.voluntary_not_allowed",
                count=out,
            )
        ex.add("rout_test.voluntary", _("The warband withdraws voluntarily."))
        return check_result("rout", ex, None, "routed_voluntarily", **details)
    ex.add(
        "rout_test.count",
        _("%(out)d of %(size)d out of action; a test is needed from %(threshold)d."),
        out=out,
        size=size,
        threshold=threshold,
    )
    if out < threshold:
        return check_result("rout", ex, True, "not_required", **details)
    leader = next((m for m in models if m.get("leader")), None)
    able = [m for m in models if m.get("status") not in (STUNNED, OUT_OF_ACTION)]
    if leader is not None and leader in able:
        used = leader["leadership"]
        ex.add("rout_test.leader", _("The leader's L%(leadership)d is used."), leadership=used)
    elif able:
        used = max(m["leadership"] for m in able)
        ex.add(
            "rout_test.highest",
            _("The leader cannot test: the highest L among the others, L%(leadership)d, is used."),
            leadership=used,
        )
    else:
        ex.add("rout_test.nobody", _("Nobody is able to take the test: the warband routs."))
        return check_result("rout", ex, False, "routed", **details)
    used = modified_leadership(ex, used, leadership_modifier)
    passed = leadership_roll(ex, dice, used, "rout test", reroll=reroll_failed)
    return check_result(
        "rout", ex, passed, "stands" if passed else "routed", leadership_used=used, **details
    )
