"""The exports' doors: a download on the pages, JSON on the API.

- ``/campaigns/<slug>/export.json`` and ``GET /api/v1/campaigns/<slug>/export/``: the campaign,
  for its organisers (a member who does not organise it: 403; anyone who may not see it: 404).
- ``/accounts/profile/export.json`` and ``GET /api/v1/me/export/``: the signed-in user's account.

Anonymous visitors are sent to log in (pages) or answered 401 (API).
"""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from battles.common import access

from .account import account_export
from .campaign import campaign_export


def organised_campaign_id(user, slug: str) -> int:
    campaign = get_object_or_404(access.visible_campaigns(user), slug=slug)
    if not access.is_organiser(user, campaign):
        raise PermissionDenied(_("Only the campaign's organisers may export it."))
    return campaign.pk


def _download(data: dict, name: str) -> HttpResponse:
    # DRF's encoder: the download and the API answer write dates and ids alike.
    body = json.dumps(data, cls=JSONEncoder, ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = f"{slugify(name) or 'annuminas'}-{timezone.localdate():%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_GET
@login_required
def campaign_export_download(request: HttpRequest, slug: str) -> HttpResponse:
    data = campaign_export(campaign_id=organised_campaign_id(request.user, slug))
    return _download(data, f"{data['campaign']['slug']}-campaign")


@require_GET
@login_required
def account_export_download(request: HttpRequest) -> HttpResponse:
    data = account_export(user=request.user)
    return _download(data, f"annuminas-{request.user.get_username()}")


class CampaignExportView(APIView):
    @extend_schema(
        operation_id="campaigns_export",
        summary="The whole campaign as JSON (its organisers only)",
        description=(
            "Format annuminas.campaign v1: the campaign and its house rules, members, warbands "
            "as the campaign sees them, rounds, battles with their reports, logs and "
            "post-battle results, and the standings."
        ),
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request, slug: str):
        data = campaign_export(campaign_id=organised_campaign_id(request.user, slug))
        return Response(data, headers={"Cache-Control": "private, no-store"})


class AccountExportView(APIView):
    @extend_schema(
        operation_id="me_export",
        summary="Everything about your account as JSON",
        description=(
            "Format annuminas.account v1: your profile, warbands (with their ledgers), "
            "campaigns, battles, battle log entries and notifications."
        ),
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request):
        return Response(
            account_export(user=request.user), headers={"Cache-Control": "private, no-store"}
        )
