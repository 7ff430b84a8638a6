"""Post-battle resolution: the sequence applied to rosters, per battle and per round, with jobs.

Modules, by responsibility (callers write ``postbattle.battle_resolve_start``):

- ``jobs``: starting runs and jobs, queueing them, job progress, the sweeper;
- ``apply``: applying a run exactly once (read → decide → write);
- ``sequence``: one warband's sequence, step by step (docs/rules-tables.md ›
  Post-battle sequence);
- ``decisions``: answering the choices the sequence left to the players;
- ``revert``: undoing a resolved battle while nothing later depends on it;
- ``pending``: answering any pending decision (locked, its owner only, once), ``upkeep`` the
  hired swords' upkeep decisions;
- ``presenters`` (the results in words), ``views`` + ``urls`` (pages), ``api`` + ``api_urls``.
"""

from .apply import (
    HEARTBEAT_EVERY,
    postbattle_applied_notify,
    postbattle_run_apply,
    postbattle_runs_apply,
)
from .decisions import decision_answer
from .jobs import (
    ROUND_CHUNK,
    battle_resolve_start,
    job_progress_refresh,
    jobs_sweep_stuck,
    round_resolve_start,
    standings_recompute_all,
)
from .revert import battle_revert

__all__ = [
    "HEARTBEAT_EVERY",
    "ROUND_CHUNK",
    "battle_resolve_start",
    "battle_revert",
    "decision_answer",
    "job_progress_refresh",
    "jobs_sweep_stuck",
    "postbattle_applied_notify",
    "postbattle_run_apply",
    "postbattle_runs_apply",
    "round_resolve_start",
    "standings_recompute_all",
]
