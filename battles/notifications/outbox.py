"""Announcing: ``notify`` writes the outbox row in the caller's transaction; a task fans it out.

Services queue the fan-out task by its registered name (``enqueue_safely``), so this module
never imports the tasks module, which imports the services (one-way graph).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Max

from annuminas.tasks import enqueue_safely
from battles.models import Battle, Campaign, PendingDecision, Round
from battles.models.notifications import Event, NotificationEvent

DISPATCH_TASK = "battles.notification_dispatch"


def _default_key(campaign_id, round_id, battle_id, params: dict) -> str:
    digest = hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()[:16]
    return f"c{campaign_id or 0}:r{round_id or 0}:b{battle_id or 0}:{digest}"


def notify(
    *,
    event: str,
    campaign: Campaign | None = None,
    round: Round | None = None,
    battle: Battle | None = None,
    params: dict[str, Any] | None = None,
    recipients: list[int] | None = None,
    actor=None,
    key: str | None = None,
) -> NotificationEvent | None:
    """Announce ``event`` once the caller's transaction commits (nothing if it rolls back).

    ``campaign`` is taken from the battle or round when not given. ``params`` are JSON details
    shown in the sentence (names are filled in by the fan-out). ``recipients`` (user ids)
    replaces the event's usual readers; ``actor`` is left out of them. ``key`` tells two
    occurrences apart (default: a digest of the ids and params), so the same announcement made
    twice is recorded once. Returns the outbox row, or None if it was already recorded.
    """
    if event not in Event.values:
        raise ValueError(f"unknown notification event {event!r}")
    params = dict(params or {})
    if actor is not None and getattr(actor, "pk", None):
        params.setdefault("actor_id", actor.pk)
        params.setdefault("actor", actor.get_username())
    if campaign is None:
        campaign = battle.campaign if battle is not None else round.campaign if round else None
    if round is None and battle is not None and battle.round_id:
        round = battle.round
    json.dumps(params)  # JSON only: fail here, in the caller's code, not in the worker
    key = key or _default_key(
        campaign.pk if campaign else None,
        round.pk if round else None,
        battle.pk if battle else None,
        params,
    )
    try:
        with transaction.atomic():
            outbox = NotificationEvent.objects.create(
                event=event,
                key=key[:200],
                campaign=campaign,
                round=round,
                battle=battle,
                params=params,
                recipient_ids=[int(r) for r in recipients] if recipients is not None else None,
            )
    except IntegrityError:
        return None
    transaction.on_commit(lambda: enqueue_dispatch(outbox.pk))
    return outbox


def enqueue_dispatch(event_id: int) -> None:
    """Queue the fan-out of one outbox row (the sweeper re-sends it if the broker is down)."""
    enqueue_safely(DISPATCH_TASK, event_id)


def decisions_waiting_notify(*, run) -> int:
    """Tell each owner who has open post-battle decisions from ``run`` (once per new decision).

    Call it where a run's decisions are created (in the same transaction). Returns the number
    of owners told.
    """
    rows = (
        PendingDecision.objects.filter(result__run=run, status=PendingDecision.Status.OPEN)
        .values("warband_id", "warband__owner_id")
        .annotate(count=Count("pk"), last=Max("pk"))
        .order_by("warband_id")
    )
    told = 0
    for row in rows:
        told += bool(
            notify(
                event=Event.DECISION_WAITING,
                battle=run.battle,
                recipients=[row["warband__owner_id"]],
                params={
                    "run_id": run.pk,
                    "warband_id": row["warband_id"],
                    "decisions": row["count"],
                    "last_decision_id": row["last"],
                },
            )
        )
    return told
