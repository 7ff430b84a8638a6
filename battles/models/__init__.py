from .battle import SCENARIOS, Battle, BattleCorrection, BattleEvent, BattleParticipant
from .battlelog import BattleLogEntry, BattleSetup  # noqa: F401 - battle day
from .campaign import (
    CAMPAIGN_TABLES,
    Campaign,
    Membership,
    Round,
)
from .notifications import (  # noqa: F401 - notifications and calendars
    CalendarToken,
    Notification,
    NotificationEvent,
    NotificationPreference,
    Webhook,
    WebhookDelivery,
)
from .postbattle import Job, PendingDecision, PostBattleResult, PostBattleRun, StandingsSnapshot

__all__ = [
    "CAMPAIGN_TABLES",
    "SCENARIOS",
    "Battle",
    "BattleCorrection",
    "BattleEvent",
    "BattleParticipant",
    "Campaign",
    "Membership",
    "Round",
    "Job",
    "PendingDecision",
    "PostBattleResult",
    "PostBattleRun",
    "StandingsSnapshot",
]
