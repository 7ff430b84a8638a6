"""The catalogue of the API's error codes: ``error.code`` in the one error shape.

Each code is stable (a client may switch on it) and belongs to one status. The rule for the
status (docs/api.md › Errors):

- **400** — the request is wrong in itself: malformed JSON, a missing or invalid field, a value
  the rules do not allow (not enough crowns, a skill he may not learn). Sent again unchanged it
  fails again; ``fields`` says which and why, ``code`` is the first failing check's name.
- **409** — the request is well formed but the resource's current state refuses it: a stale
  version, an archived campaign, a battle already reported. ``code`` says which; ``retry`` below
  says whether reading the resource again and retrying can help.
- **412** and **422** are not used: a stale version is a 409 ``stale_version`` whether it was
  sent as ``If-Match`` or in the body, and invalid input is a 400 whatever its kind.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ErrorCode:
    status: int
    meaning: str
    retry: bool = False  # True: read the resource again, then the same write may succeed
    recovery: str = ""  # the extra key in ``error`` that helps (``version``, ``last_seq``)


CATALOGUE: dict[str, ErrorCode] = {
    # 400 — the request itself
    "invalid": ErrorCode(
        400,
        "A field is invalid (fields says which); DRF's own checks answer "
        "their name instead: required, null, blank, max_length, min_value, "
        "invalid_choice, does_not_exist…",
    ),
    "parse_error": ErrorCode(400, "The body is not valid JSON (or is nested too deeply)."),
    "invalid_credentials": ErrorCode(400, "Wrong username or password."),
    "bad_request": ErrorCode(
        400,
        "A request Django refuses before any view (a NUL byte in the address, too many fields).",
    ),
    "invalid_ordering": ErrorCode(400, "?ordering names a field the list is not ordered by."),
    # 401, 403, 404, 405, 406
    "not_authenticated": ErrorCode(401, "No credentials: log in or send a token."),
    "authentication_failed": ErrorCode(401, "A token that is unknown, revoked or expired."),
    "permission_denied": ErrorCode(403, "Not allowed for this user."),
    "not_found": ErrorCode(404, "Not found, or not visible to this user."),
    "method_not_allowed": ErrorCode(405, "The path does not answer this method."),
    "not_acceptable": ErrorCode(406, "Accept names no format this operation answers in."),
    # 409 — the resource's state
    "stale_version": ErrorCode(
        409, "The resource changed since the version you sent.", retry=True, recovery="version"
    ),
    "log_moved_on": ErrorCode(
        409,
        "The battle log has entries after base_seq touching the same warriors.",
        retry=True,
        recovery="last_seq",
    ),
    "item_gone": ErrorCode(409, "The item is no longer in the warband.", retry=True),
    "idempotency_key_reused": ErrorCode(409, "This Idempotency-Key was used with another body."),
    "idempotency_key_in_use": ErrorCode(
        409, "The first request with this Idempotency-Key is still running.", retry=True
    ),
    "client_id_reused": ErrorCode(
        409, "This client_id names a log entry with another kind or payload."
    ),
    "nothing_to_undo": ErrorCode(
        409, "Only the warband's last change can be undone, while nothing has changed since."
    ),
    "nothing_to_revert": ErrorCode(409, "The battle has no applied post-battle sequence."),
    "warband_changed_since": ErrorCode(
        409, "A warband changed after the sequence: it can no longer be reverted."
    ),
    "warband_on_record": ErrorCode(
        409, "The warband joined a campaign or played battles: it cannot be deleted."
    ),
    "already_resolved": ErrorCode(409, "The battle's post-battle sequence is already applied."),
    "already_decided": ErrorCode(409, "The decision was already taken."),
    "already_set_up": ErrorCode(409, "The battle is already set up."),
    "already_joined": ErrorCode(409, "You already joined this campaign."),
    "no_draft": ErrorCode(409, "The content pack has no draft to publish."),
    "entry_in_use": ErrorCode(
        409,
        "Other entries of the pack's draft point at the entry to delete (the message names them).",
    ),
    "warbands_cannot_move": ErrorCode(
        409, "Some warbands of the campaign are not legal in the pack version it would move to."
    ),
    "warband_in_running_campaign": ErrorCode(
        409,
        "The warband plays in another running campaign and this one's house rules refuse that.",
    ),
    "campaign_archived": ErrorCode(409, "The campaign is archived: nothing in it changes."),
    "campaign_finished": ErrorCode(409, "The campaign is finished: its rules no longer change."),
    "campaign_not_running": ErrorCode(409, "Only a running campaign has rounds and battles."),
    "invalid_transition": ErrorCode(409, "The campaign cannot move to that state from this one."),
    "round_closed": ErrorCode(409, "The round is closed."),
    "round_open": ErrorCode(409, "The last round is still open: close it first."),
    "battle_not_scheduled": ErrorCode(409, "Only a scheduled battle is set up at the table."),
    "battle_not_set_up": ErrorCode(409, "Set the battle up before logging it."),
    "battle_reported": ErrorCode(409, "The battle is reported: it no longer changes this way."),
    "battle_confirmed": ErrorCode(
        409,
        "The battle's report is confirmed (frozen): the entry that finished it can no longer "
        "be struck out; an organiser corrects the report.",
    ),
    "battle_status": ErrorCode(
        409, "The battle's status does not allow this now (message says which)."
    ),
    "battle_under_way": ErrorCode(409, "One of the warband's battles is under way."),
    "log_full": ErrorCode(409, "The battle log is full: finish the battle."),
    # 413, 415, 429, 503
    "payload_too_large": ErrorCode(413, "The body is over the size limit."),
    "unsupported_media_type": ErrorCode(415, "Request bodies are JSON."),
    "throttled": ErrorCode(429, "Too many requests: wait Retry-After seconds."),
    "service_unavailable": ErrorCode(
        503, "A service the site needs is down: wait Retry-After seconds."
    ),
}


def catalogue_markdown() -> str:
    """The catalogue as a Markdown table (the schema's description of ``error.code``)."""
    rows = ["| code | status | meaning |", "|---|---|---|"]
    for code, entry in CATALOGUE.items():
        meaning = entry.meaning
        if entry.retry:
            meaning += " Read again and retry."
        if entry.recovery:
            meaning += f" `error.{entry.recovery}` carries the current value."
        rows.append(f"| `{code}` | {entry.status} | {meaning} |")
    return "\n".join(rows)
