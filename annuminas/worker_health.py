"""A worker's health check: ``python -m annuminas.worker_health [worker name]``.

Exit status 0 when the worker answers through the broker and reaches the database
(``database_ping``, a control command of ``annuminas.celery``), 1 otherwise, with the reason on
standard error. docker-compose runs it with the container's worker name (``celery@$HOSTNAME``);
without a name any worker may answer.
"""

from __future__ import annotations

import sys

TIMEOUT = 10.0


def check(worker: str | None) -> tuple[bool, str]:
    from annuminas.celery import app

    try:
        replies = app.control.broadcast(
            "database_ping",
            reply=True,
            timeout=TIMEOUT,
            destination=[worker] if worker else None,
            limit=1,
        )
    except Exception as exc:  # the broker itself is unreachable
        return False, f"broker unreachable: {type(exc).__name__}: {exc}"
    for reply in replies or []:
        for name, answer in reply.items():
            if isinstance(answer, dict) and answer.get("ok"):
                return True, f"{name}: database reachable"
            return False, f"{name}: {answer.get('error') if isinstance(answer, dict) else answer}"
    return False, f"no answer from {worker or 'any worker'} within {TIMEOUT:.0f} s"


def main(argv: list[str]) -> int:
    healthy, detail = check(argv[1] if len(argv) > 1 else None)
    print(detail, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
