"""One warband's post-battle sequence (docs/rules-tables.md › Post-battle sequence), step by
step, with its audit."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.engine.campaign_tables import engine_table
from rules.engine.dice import Dice
from rules.engine.postbattle import (
    Effect,
    EffectKind,
    RareItem,
    TableResult,
    battle_experience,
    blindness_retires,
    exploration,
    henchman_advance,
    henchman_injury,
    hero_advance,
    injury_characteristic_change,
    injury_label,
    rare_items,
    sell_finds,
    serious_injury,
)
from warbands import services as roster
from warbands.models import (
    EquipmentListEntry,
    Fighter,
    FighterType,
    HenchmanGroup,
    LedgerEntry,
    Warband,
)
from warbands.postbattle import (
    fighter_lose_equipment,
)

from ..campaigns.selectors import campaign_tables
from ..models import (
    Battle,
    BattleEvent,
    BattleParticipant,
    PendingDecision,
)
from ._common import (
    ADVANCE_DECISIONS,
    IN_ROSTER,
    Recorder,
    _profile,
    _race_maximum,
    _skill_list_options,
    _skill_options,
    _warband_seed,
)


@dataclass
class _Context:
    battle: Battle
    participants: list
    out_of_action: dict[int, BattleEvent]  # target fighter id → the event
    kills_by: dict[int, int]  # actor fighter id → enemies put out of action
    options: dict
    # The rosters read under the lock, per warband id (by pk): the instances the sequences change.
    fighters: dict[int, list[Fighter]] = field(default_factory=dict)
    groups: dict[int, list[HenchmanGroup]] = field(default_factory=dict)
    _open_choices: dict[int, dict[tuple[str, int], int]] | None = None
    _tables: dict[str, Any] | None = None

    @property
    def tables(self) -> dict[str, Any]:
        """The campaign tables in force (its pack version's, its own overrides): read once
        for all participants."""
        if self._tables is None:
            self._tables = campaign_tables(self.battle.campaign)
        return self._tables

    def open_advance_choices(self) -> dict[int, dict[tuple[str, int], int]]:
        """Per warband, the advances already rolled and waiting for their owner's choice, per
        hero (``("f", id)``) or group (``("g", id)``): read once for all participants, when a
        sequence first needs them."""
        if self._open_choices is None:
            self._open_choices = {p.warband_id: {} for p in self.participants}
            for warband_id, fighter_id, group_id in PendingDecision.objects.filter(
                warband_id__in=list(self._open_choices),
                status=PendingDecision.Status.OPEN,
                kind__in=ADVANCE_DECISIONS,
            ).values_list("warband_id", "fighter_id", "group_id"):
                key = ("g", group_id) if group_id else ("f", fighter_id)
                counts = self._open_choices[warband_id]
                counts[key] = counts.get(key, 0) + 1
        return self._open_choices


class _Sequence:
    """One warband's post-battle sequence."""

    def __init__(self, *, context: _Context, participant, result, dice: Dice, enemy_rating: int):
        self.context = context
        self.participant = participant
        self.warband = participant.warband
        self.result = result
        self.dice = dice
        self.enemy_rating = enemy_rating
        self.recorder = Recorder()
        # Choices for the owners (or a captor), inserted with the apply's one write.
        self.decisions: list[PendingDecision] = []
        self.won = participant.result == BattleParticipant.Result.WIN
        self.batch: roster.RosterBatch
        fighters = context.fighters[self.warband.pk]
        chosen = {f.pk for f in fighters if getattr(f, "in_lineup", False)}
        self.took_part = [
            f
            for f in fighters
            if f.status == Fighter.Status.ACTIVE and (not chosen or f.pk in chosen)
        ]
        self.sitting_out = [
            f for f in fighters if f.status == Fighter.Status.MISSES_NEXT and f.pk not in chosen
        ]
        self.taken_out = {f.pk for f in self.took_part if f.pk in context.out_of_action}
        self.tables = context.tables

    def run(self) -> None:
        # The roster services below join the batch (the apply's ``roster_batches``) and change
        # the roster the apply read under its lock, in memory; the batch writes it at the end
        # (bulk updates, one rating refresh, one version bump, one house-rule check).
        # Without its own savepoint: any error fails the whole run (its transaction rolls back).
        roster_read = (self.context.fighters[self.warband.pk], self.context.groups[self.warband.pk])
        with roster.roster_batch(
            warband=self.warband, savepoint=False, roster=roster_read
        ) as batch:
            self.batch = batch
            self.missed_battles()
            self.injuries()
            self.experience()
            self.advances()
            self.exploration()
            self.rare_items()
            rating = roster.warband_rating_refresh(warband=self.warband)
        self.recorder.add("rating", rating=rating)

    def _decide(self, **fields: Any) -> None:
        self.decisions.append(PendingDecision(**fields))

    def _table(self, name: str, argument: str = "table") -> dict[str, Any]:
        """The table in force when the campaign's pack or its organiser set one (same rows as
        the default, ``battles.campaigns.selectors.campaign_tables``)."""
        rows = self.tables.get(name)
        return {argument: engine_table(name, rows)} if rows else {}

    # 0. those who missed this battle count it off
    def missed_battles(self) -> None:
        for fighter in self.sitting_out:
            left = max(0, fighter.misses_battles - 1)
            roster.fighter_set_status(
                fighter=fighter,
                status=Fighter.Status.MISSES_NEXT if left else Fighter.Status.ACTIVE,
                misses_battles=left,
                source=self.result,
            )
            self.recorder.add("missed", who=fighter.name, fighter_id=fighter.pk, left=left)

    # 1. injuries
    def injuries(self) -> None:
        for fighter in self.took_part:
            if fighter.pk not in self.taken_out:
                continue
            if fighter.is_hero:
                outcome = serious_injury(dice=self.dice, **self._table("hero_injuries"))
            else:
                outcome = henchman_injury(dice=self.dice, **self._table("henchman_injuries"))
            self.recorder.add("injury", who=fighter.name, fighter_id=fighter.pk, result=outcome)
            self._apply_injury(fighter, outcome)

    def _apply_injury(self, fighter: Fighter, outcome: TableResult) -> None:
        effects = outcome.typed_effects
        if any(effect.kind is EffectKind.DEAD for effect in effects):
            roster.fighter_kill(fighter=fighter, source=self.result)
            fighter.status = Fighter.Status.DEAD
            return
        rules: list[str] = []  # recorded with the injuries below, by the roster service
        for effect in effects:
            if effect.kind is EffectKind.LOSE_EQUIPMENT:
                fighter_lose_equipment(fighter=fighter, source=self.result)
            elif effect.kind is EffectKind.CHARACTERISTIC:
                self._injury_characteristic(fighter, effect)
            elif effect.kind is EffectKind.MISSES_BATTLES:
                roster.fighter_set_status(
                    fighter=fighter,
                    status=Fighter.Status.MISSES_NEXT,
                    misses_battles=max(fighter.misses_battles, effect.count),
                    source=self.result,
                )
            elif effect.kind is EffectKind.SPECIAL_RULE:
                if self._retires_blind(fighter, effect):
                    return
                rules.append(effect.rule)
            elif effect.kind is EffectKind.CAPTURED:
                self._captured(fighter, effect)
            elif effect.kind is EffectKind.GOLD:
                roster.ledger_record(
                    warband=self.warband,
                    amount=effect.amount,
                    reason=LedgerEntry.Reason.PIT_FIGHT,
                    code="pit_fight_won",
                    params={"name": fighter.name},
                    source=self.result,
                )
                self.result.gold_gained += effect.amount
            elif effect.kind is EffectKind.EXPERIENCE:
                roster.fighter_add_experience(fighter=fighter, amount=effect.amount)
                self.result.experience_gained += effect.amount
        if fighter.status in (Fighter.Status.CAPTURED, Fighter.Status.RETIRED):
            return
        # Each injury gives at most one rule, so the rules go with the injuries, in order.
        for index, code in enumerate(outcome.lasting_injuries):
            roster.fighter_add_injury(
                fighter=fighter,
                code=code,
                label=injury_label(code),
                battle_id=self.context.battle.pk,
                special_rule=rules[index] if index < len(rules) else None,
            )

    def _injury_characteristic(self, fighter: Fighter, effect: Effect) -> None:
        delta = injury_characteristic_change(
            field=effect.field, current=getattr(fighter, effect.field), delta=effect.delta
        )
        if delta:
            roster.fighter_apply_profile_change(
                fighter=fighter, characteristic=effect.field, delta=delta, source=self.result
            )

    def _retires_blind(self, fighter: Fighter, effect: Effect) -> bool:
        """The second eye lost (before, or twice in one "multiple injuries") retires him."""
        if effect.rule != "blinded_in_one_eye":
            return False
        seen = getattr(fighter, "blinded_now", 0) + sum(
            injury.get("code") == "blinded_in_one_eye" for injury in fighter.injuries
        )
        fighter.blinded_now = getattr(fighter, "blinded_now", 0) + 1
        if not blindness_retires(eyes_lost_before=seen):
            return False
        roster.fighter_set_status(
            fighter=fighter, status=Fighter.Status.RETIRED, source=self.result
        )
        fighter.status = Fighter.Status.RETIRED
        self.recorder.add("retired", who=fighter.name, fighter_id=fighter.pk)
        return True

    def _captured(self, fighter: Fighter, effect: Effect) -> None:
        event = self.context.out_of_action.get(fighter.pk)
        captor_id = event.actor_warband_id if event and event.actor_warband_id else None
        if captor_id is None or captor_id == self.warband.pk:
            others = [p for p in self.context.participants if p.warband_id != self.warband.pk]
            winners = [p for p in others if p.result == BattleParticipant.Result.WIN] or others
            captor_id = winners[0].warband_id if winners else None
        roster.fighter_set_status(
            fighter=fighter, status=Fighter.Status.CAPTURED, source=self.result
        )
        fighter.status = Fighter.Status.CAPTURED
        if captor_id is None:
            return
        self._decide(
            result=self.result,
            warband_id=captor_id,
            fighter=fighter,
            kind=PendingDecision.Kind.CAPTIVE,
            options=["ransom", "sell", "exchange"],
            payload={
                "sale_value": effect.sale_value,
                "owner_warband_id": self.warband.pk,
                "battle_id": self.context.battle.pk,
            },
        )

    # 2. experience
    def experience(self) -> None:
        # Warriors who never gain experience (a cave troll, some hired swords) are not shown a
        # gain their roster would not keep.
        survivors = [
            f
            for f in self.took_part
            if f.status in IN_ROSTER and f.fighter_type.can_gain_experience
        ]
        bonus = self.context.options.get("scenario_bonus", {})
        for fighter in survivors:
            if fighter.group_id is not None:
                continue
            outcome = battle_experience(
                hero=True,
                survived=True,
                leader=fighter.is_leader,
                won=self.won,
                enemies_out_of_action=self.context.kills_by.get(fighter.pk, 0),
                scenario_bonus=int(bonus.get(str(fighter.pk), 0)),
                own_rating=self.participant.rating_at_battle,
                enemy_rating=self.enemy_rating,
                **self._table("underdog_bonus", "underdog_table"),
            )
            self._gain(outcome, fighter=fighter, who=fighter.name)
        groups = {f.group_id: f.group for f in survivors if f.group_id is not None}
        for group in groups.values():
            outcome = battle_experience(
                hero=False,
                survived=True,
                won=self.won,
                scenario_bonus=int(bonus.get(f"group:{group.pk}", 0)),
                own_rating=self.participant.rating_at_battle,
                enemy_rating=self.enemy_rating,
                **self._table("underdog_bonus", "underdog_table"),
            )
            self._gain(outcome, group=group, who=group.name)

    def _gain(self, outcome, *, who: str, fighter=None, group=None) -> None:
        amount = sum(e.amount for e in outcome.typed_effects if e.kind is EffectKind.EXPERIENCE)
        self.recorder.add(
            "experience",
            who=who,
            fighter_id=fighter.pk if fighter else None,
            group_id=group.pk if group else None,
            amount=amount,
            result=outcome,
        )
        if amount:
            roster.fighter_add_experience(fighter=fighter, group=group, amount=amount)
            self.result.experience_gained += amount

    # 3. advances
    def advances(self) -> None:
        policy = self.context.options.get("racial_maximum", "reroll")
        # The advances due after this battle's experience (the batch recomputes them once).
        self.batch.refresh()
        heroes = [
            f
            for f in self.batch.fighters
            if f.group_id is None and f.status in IN_ROSTER and f.advances_due > 0
        ]
        groups = [group for group in self.batch.groups if group.advances_due > 0]
        open_choices = self._open_advance_choices() if heroes or groups else {}
        for fighter in heroes:
            for _index in range(fighter.advances_due - open_choices.get(("f", fighter.pk), 0)):
                maximum = _race_maximum(fighter.fighter_type.race)
                outcome = hero_advance(
                    dice=self.dice,
                    profile=_profile(fighter),
                    maximum=maximum,
                    policy=policy,
                    **self._table("hero_advances"),
                )
                self.recorder.add(
                    "advance", who=fighter.name, fighter_id=fighter.pk, result=outcome
                )
                self._take_advance(outcome, fighter=fighter)
        for group in groups:
            for _index in range(group.advances_due - open_choices.get(("g", group.pk), 0)):
                increases: dict[str, int] = {}
                for record in group.advances:
                    if record.get("characteristic"):
                        name = record["characteristic"]
                        increases[name] = increases.get(name, 0) + 1
                outcome = henchman_advance(
                    dice=self.dice,
                    profile=_profile(group),
                    maximum=_race_maximum(group.fighter_type.race),
                    increases=increases,
                    heroes_at_maximum=self._heroes_at_maximum(),
                    **self._table("henchman_advances"),
                )
                self.recorder.add("advance", who=group.name, group_id=group.pk, result=outcome)
                self._take_advance(outcome, group=group)

    def _open_advance_choices(self) -> dict[tuple[str, int], int]:
        """Advances already rolled and waiting for the owner's choice, per hero or group."""
        return self.context.open_advance_choices().get(self.warband.pk, {})

    def _heroes_at_maximum(self) -> bool:
        kind = self.warband.warband_type
        limit = getattr(kind, "max_heroes", None)
        if not limit:
            return False
        # Hired swords never count against the hero limit (as in hiring's
        # ``roster_limits_check``).
        heroes = sum(
            1
            for f in self.batch.fighters
            if f.is_hero and f.hired_sword_id is None and f.status in IN_ROSTER
        )
        return heroes >= limit

    def _take_advance(self, outcome, *, fighter=None, group=None) -> None:
        record = {
            "battle_id": self.context.battle.pk,
            "roll": outcome.details.get("roll"),
            "outcome": outcome.outcome,
        }
        for effect in outcome.typed_effects:
            if effect.kind is EffectKind.CHARACTERISTIC and effect.field:
                roster.fighter_add_advance(
                    fighter=fighter,
                    group=group,
                    record={**record, "characteristic": effect.field},
                    characteristic=effect.field,
                    delta=effect.delta,  # in cm for M: the engine's
                )
        for choice in outcome.pending_choices:
            self._pending_advance(choice, outcome, fighter=fighter, group=group)

    def _pending_advance(self, choice: dict, outcome, *, fighter=None, group=None) -> None:
        kind = choice["type"]
        target = fighter or group
        base = {"battle_id": self.context.battle.pk, "roll": outcome.details.get("roll")}
        if kind == "characteristic":
            self._decide(
                result=self.result,
                warband=self.warband,
                fighter=fighter,
                group=group,
                kind=PendingDecision.Kind.CHARACTERISTIC,
                options=list(choice["options"]),
                payload=base,
            )
        elif kind == "skill" and fighter is not None:
            self._decide(
                result=self.result,
                warband=self.warband,
                fighter=fighter,
                kind=PendingDecision.Kind.SKILL,
                options=_skill_options(fighter),
                payload=base,
            )
        elif kind == "choose_member" and group is not None:
            self._decide(
                result=self.result,
                warband=self.warband,
                group=group,
                kind=PendingDecision.Kind.LADS_GOT_TALENT,
                options=[
                    member.pk
                    for member in sorted(self.batch.fighters, key=lambda f: (-f.is_leader, f.pk))
                    if member.group_id == group.pk and member.status in IN_ROSTER
                ],
                payload={
                    **base,
                    "skill_lists": _skill_list_options(self.warband),
                    "seed": _warband_seed(self.context.battle.pk, target.pk),
                },
            )

    def _searching_heroes(self) -> list[Fighter]:
        """The warband's own heroes who were not taken out of action: they roll the
        exploration dice and search for rare items. Hired swords do neither: the Annúminas
        seeds say nothing of it, so Mordheim's rule holds (its hired swords neither roll
        exploration dice nor look for rare items; they serve for pay)."""
        return [
            f
            for f in self.took_part
            if f.group_id is None
            and f.is_hero
            and f.hired_sword_id is None
            and f.pk not in self.taken_out
        ]

    # 4. exploration and selling finds
    def exploration(self) -> None:
        heroes = self._searching_heroes()
        outcome = exploration(
            dice=self.dice,
            heroes_not_out_of_action=len(heroes),
            won=self.won,
            **self._table("exploration"),
        )
        finds = sum(e.amount for e in outcome.typed_effects if e.kind is EffectKind.FINDS)
        self.recorder.add("exploration", finds=finds, result=outcome)
        if not finds:
            return
        roster.ledger_record(
            warband=self.warband,
            amount=0,
            finds_delta=finds,
            reason=LedgerEntry.Reason.EXPLORATION,
            code="exploration",
            params={"id": self.context.battle.pk},
            source=self.result,
        )
        self.result.finds_found = finds
        size = sum(1 for f in self.batch.fighters if f.status in IN_ROSTER)
        value = sell_finds(finds=finds, warband_size=max(1, size), **self._table("sell_finds"))
        roster.ledger_record(
            warband=self.warband,
            amount=value,
            finds_delta=-finds,
            reason=LedgerEntry.Reason.SELL_FINDS,
            code="finds_sold",
            params={"finds": finds},
            source=self.result,
        )
        self.result.gold_gained += value
        self.recorder.add("sell_finds", finds=finds, gold=value, warband_size=size)

    # 5. rare items
    def rare_items(self) -> None:
        heroes = self._searching_heroes()
        offered = _rare_for(self.warband) if heroes else {}
        for fighter in heroes:
            search = rare_items(dice=self.dice, offered=offered, who=fighter.name)
            self.recorder.add(
                "rare_items", who=fighter.name, fighter_id=fighter.pk, **search.to_dict()
            )
            if search.found:
                self._decide(
                    result=self.result,
                    warband=self.warband,
                    fighter=fighter,
                    kind=PendingDecision.Kind.RARE_ITEM,
                    options=list(search.found),
                    payload={
                        "roll": search.total,
                        "prices": dict(search.prices),
                        "battle_id": self.context.battle.pk,
                    },
                )


def _rare_for(warband: Warband) -> dict[str, RareItem]:
    """Rare items this warband's lists offer, by slug (the cheapest list price)."""
    entries = (
        EquipmentListEntry.objects.filter(
            equipment__rarity__isnull=False,
            common=False,
            equipment_list__in=FighterType.objects.filter(
                warband_type_id=warband.warband_type_id
            ).values("equipment_list"),
        )
        .select_related("equipment")
        .order_by("equipment__slug", "cost")
    )
    rare: dict[str, RareItem] = {}
    for entry in entries:
        item = entry.equipment
        rare.setdefault(item.slug, RareItem(item.rarity, entry.price, item.cost_dice or ""))
    return rare
