"""The Hoja de Control de Banda rendered once per warband version, served to every visit.

What is cached is the same for every visitor: the sheet's body (HTML) and its API form (data),
keyed by warband id, ``version`` (bumped by every roster write, so a change shows at once and
nothing needs invalidating), language and — for the body — the viewer's kind (the owner's sheet
carries forms). The visitor's CSRF token and the site's origin are not in it: the body is
rendered with stand-ins that ``personalise`` replaces on the way out. Memory grows with warbands
and versions, not with visitors.

``sheet_warm`` renders both ahead: every roster write queues it after its commit
(``warbands.services.unit.finish_change`` → the ``warbands.sheet_warm`` task), so the first view
after a write is warm too.
"""

from __future__ import annotations

import hashlib
import logging

from django.core.cache import cache
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import escape

from .api.serializers import SheetSerializer
from .forms import WarbandEditForm
from .models import Warband
from .presentation import decorate_sheet
from .selectors import warband_sheet

logger = logging.getLogger(__name__)

SHEET_CACHE_SECONDS = 600
OWNER = "owner"

# Stand-ins written into the cached body; HTML escaping leaves them as they are.
CSRF_STAND_IN = "annuminas-sheet-csrf-token"  # noqa: S105 - a marker, not a secret
SCHEME_STAND_IN = "annuminas-sheet-scheme"
HOST_STAND_IN = "annuminas-sheet-host"
ORIGIN_STAND_IN = f"{SCHEME_STAND_IN}://{HOST_STAND_IN}"


class _OriginStandIn:
    """What the body template reads of ``request`` (the share link's origin), as stand-ins."""

    scheme = SCHEME_STAND_IN

    @staticmethod
    def get_host() -> str:
        return HOST_STAND_IN


# Which fields a cheap read of the warband needs for the keys (``Warband.objects.only``).
KEY_FIELDS = ("pk", "version", "created_at")


def _version_key(warband: Warband) -> str:
    """The warband's id and version; its creation time too, so a warband that gets the id of a
    deleted one (SQLite reuses ids when a transaction rolls back) never finds its pages."""
    created = int(warband.created_at.timestamp() * 1_000_000)
    return f"{warband.pk}:{created}:{warband.version}"


def body_key(warband: Warband, language: str, viewer: str = OWNER) -> str:
    return f"sheet-body:{_version_key(warband)}:{language}:{viewer}"


def page_key(warband: Warband, language: str, user) -> str:
    """The owner's whole page: its menu shows the user's name and, for staff, the admin."""
    viewer = hashlib.sha256(f"{user.pk}|{user.get_username()}|{user.is_staff}".encode())
    return f"sheet-page:{_version_key(warband)}:{language}:{viewer.hexdigest()[:16]}"


def api_key(warband: Warband, language: str) -> str:
    return f"api-sheet:{_version_key(warband)}:{language}"


def render_owner_body(warband: Warband) -> str:
    """The owner's sheet body of a read, decorated sheet, with stand-ins for the visitor."""
    edit_form = WarbandEditForm(
        initial={"name": warband.name, "notes": warband.notes, "version": warband.version}
    )
    return render_to_string(
        "warbands/_sheet_body.html",
        {
            "warband": warband,
            "editable": True,
            "edit_form": edit_form,
            "csrf_token": CSRF_STAND_IN,
            "request": _OriginStandIn(),
        },
    )


def owner_body(head: Warband, *, owner) -> str:
    """The owner's sheet body for the version of ``head`` (read with ``KEY_FIELDS``) in the
    active language, rendered on a miss (raises ``Warband.DoesNotExist`` if the warband is not
    the owner's)."""
    language = translation.get_language()
    body = cache.get(body_key(head, language))
    if body is None:
        warband = decorate_sheet(warband_sheet(warband_id=head.pk, owner=owner))
        body = render_owner_body(warband)
        # Keyed by the version read with the roster: a write between the two reads never
        # files a newer roster under an older version's key.
        cache.set(body_key(warband, language), body, SHEET_CACHE_SECONDS)
    return body


def personalise(html: str, request) -> str:
    """Put the visitor's CSRF token and the site's origin where the stand-ins are."""
    origin = escape(f"{request.scheme}://{request.get_host()}")
    return html.replace(CSRF_STAND_IN, get_token(request)).replace(ORIGIN_STAND_IN, origin)


def api_sheet_data(warband: Warband) -> dict:
    """The ``/sheet/`` representation of an annotated sheet read."""
    return SheetSerializer(warband).data


def sheet_warm(warband_id: int) -> None:
    """Render the owner's body and the API sheet of the warband as it is now, in the active
    language, so the next view of either is served from the cache."""
    try:
        warband = decorate_sheet(warband_sheet(warband_id=warband_id))
    except Warband.DoesNotExist:  # deleted since
        return
    language = translation.get_language()
    cache.set_many(
        {
            body_key(warband, language): render_owner_body(warband),
            api_key(warband, language): api_sheet_data(warband),
        },
        SHEET_CACHE_SECONDS,
    )
