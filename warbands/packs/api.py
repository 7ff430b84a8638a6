"""``/api/v1/packs/``: a list builder or a bot reads packs and their versions (what they hold,
as the YAML file's document), with the pages' permissions: anyone reads public, unlisted and
the default pack; a private pack its author and the players of campaigns that play it; its
author imports into the draft (a dry run first, if asked: the report of what would be created,
changed or removed; a refused file is a 400 listing each refusal under ``yaml``) and publishes.
``/api/v1/campaigns/{slug}/pack/``: a campaign's move to a version, previewed or confirmed."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_field,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ..models import ContentPack, PackVersion
from . import selectors, services
from .document import ENTRY_LABELS, NESTED, TABLES


class VersionSummarySerializer(serializers.ModelSerializer):
    contents = serializers.SerializerMethodField()

    class Meta:
        model = PackVersion
        fields = ["number", "state", "published_at", "contents"]

    def get_contents(self, version) -> dict[str, int]:
        return selectors.contents(version.document)


class VersionSerializer(VersionSummarySerializer):
    document = serializers.JSONField(read_only=True)
    tables = serializers.SerializerMethodField()
    campaigns = serializers.SlugRelatedField(many=True, slug_field="slug", read_only=True)

    class Meta(VersionSummarySerializer.Meta):
        fields = [*VersionSummarySerializer.Meta.fields, "document", "tables", "campaigns"]

    @extend_schema_field(
        {
            "type": "object",
            "additionalProperties": True,
            "description": "The campaign tables the version sets (table name → rows, as a "
            "campaign's overrides); the others are the rules engine's defaults.",
        }
    )
    def get_tables(self, version) -> dict:
        tables = version.document.get(TABLES)
        return tables if isinstance(tables, dict) else {}


class PackSerializer(serializers.ModelSerializer):
    author = serializers.CharField(
        source="owner.get_username", default=None, read_only=True, allow_null=True
    )
    versions = serializers.SerializerMethodField()
    editable = serializers.SerializerMethodField()

    class Meta:
        model = ContentPack
        fields = ["slug", "name", "author", "visibility", "credit", "versions", "editable"]

    def _user(self):
        request = self.context.get("request")
        return request.user if request else None

    def get_versions(self, pack) -> list[dict]:
        editable = services.may_edit(pack, self._user())
        rows = [v for v in pack.versions.all() if v.is_published or editable]
        return VersionSummarySerializer(rows, many=True).data

    def get_editable(self, pack) -> bool:
        return services.may_edit(pack, self._user())


def _readable(request, slug: str) -> ContentPack:
    pack = ContentPack.objects.select_related("owner").filter(slug=slug).first()
    if pack is None or not services.may_read(pack, request.user):
        raise Http404
    return pack


@extend_schema_view(get=extend_schema(summary="Content packs one may read, a page at a time"))
class PackListView(generics.ListAPIView):
    """The packs one may read (public, the default pack, one's own, those of one's campaigns),
    by name, in the API's one page shape."""

    permission_classes = [AllowAny]
    serializer_class = PackSerializer
    filter_backends: list = []

    def get_queryset(self):
        user = self.request.user
        visible = Q(visibility=ContentPack.Visibility.PUBLIC) | Q(owner=None)
        if user.is_authenticated:
            visible |= Q(owner=user) | Q(versions__campaigns__memberships__user=user)
        return (
            ContentPack.objects.filter(visible)
            .distinct()
            .select_related("owner")
            .prefetch_related("versions")
            .order_by("name", "pk")
        )


class PackDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="One content pack and its versions", responses=PackSerializer)
    def get(self, request, slug: str):
        pack = _readable(request, slug)
        return Response(PackSerializer(pack, context={"request": request}).data)


class PackVersionView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="One version of a pack, with its document", responses=VersionSerializer)
    def get(self, request, slug: str, number: int):
        pack = _readable(request, slug)
        version = pack.versions.filter(number=number).first()
        if version is None or (
            not version.is_published and not services.may_edit(pack, request.user)
        ):
            raise Http404
        return Response(VersionSerializer(version).data)


REPORT = inline_serializer(
    "PackImportReport",
    {
        "ok": serializers.BooleanField(),
        "created": serializers.ListField(child=serializers.CharField()),
        "changed": serializers.ListField(child=serializers.CharField()),
        "unchanged": serializers.ListField(child=serializers.CharField()),
        "removed": serializers.ListField(child=serializers.CharField()),
        "refused": serializers.ListField(child=serializers.CharField()),
    },
)


class PackDraftImportView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Import a YAML file into the pack's draft (dry_run: the report only)",
        request=inline_serializer(
            "PackImport", {"yaml": serializers.CharField(), "dry_run": serializers.BooleanField()}
        ),
        responses={200: REPORT},
    )
    def post(self, request, slug: str):
        pack = _readable(request, slug)
        text = request.data.get("yaml")
        if not isinstance(text, str):
            raise serializers.ValidationError({"yaml": ["The pack as YAML text."]})
        dry_run = request.data.get("dry_run") in (True, "true", "1")
        report = services.pack_import(pack=pack, by=request.user, text=text, apply=not dry_run)
        if not report.ok:
            # The one error shape: each refusal, naming its entry and field, under ``yaml``.
            raise serializers.ValidationError({"yaml": report.refused})
        return Response(report.as_dict())


# An entry's body: a mapping, or a campaign table's rows (kind ``tables``: a list, or a
# mapping for the finds' prices and the thresholds).
ENTRY_BODY = {
    "application/json": {
        "oneOf": [
            {"type": "object", "additionalProperties": True},
            {"type": "array", "items": {}},
        ]
    }
}


class PackDraftEntryView(APIView):
    """One entry of the pack's draft, as the document holds it (``docs/content-packs.md``):
    PUT writes it (created or replaced; a warband type or skill list sent without its nested
    entries keeps them; a campaign table, kind ``tables``, its rows), DELETE takes it out (a
    table: back to the default one). Checked as the whole draft is; a refusal is a 400
    naming the entry and field under the key of each field; deleting an entry others point at
    is a 409 ``entry_in_use`` naming them."""

    permission_classes = [IsAuthenticated]

    def _address(self, request, slug, kind, parent, section):
        pack = _readable(request, slug)
        if kind not in ENTRY_LABELS or (kind in NESTED) != bool(parent):
            raise Http404
        if parent and NESTED[kind][0] != section:
            raise Http404
        return pack

    @extend_schema(
        summary="Write one entry of the pack's draft (checked as the whole draft is)",
        request=ENTRY_BODY,
        responses={200: REPORT},
    )
    def put(self, request, slug: str, kind: str, entry: str, parent: str = "", section=""):
        pack = self._address(request, slug, kind, parent, section)
        body = request.data
        if kind == TABLES:
            if not isinstance(body, dict | list):
                raise serializers.ValidationError(
                    {"non_field_errors": [_("A table is a list of rows, or a mapping.")]}
                )
        elif not isinstance(body, dict):
            raise serializers.ValidationError({"non_field_errors": [_("An entry is a mapping.")]})
        report = services.pack_entry_save(
            pack=pack,
            by=request.user,
            kind=kind,
            slug=entry,
            entry=body if kind == TABLES else dict(body),
            parent=parent,
        )
        _refuse(report, entry)
        return Response(report.as_dict())

    @extend_schema(
        summary="Take one entry out of the pack's draft", request=None, responses={200: REPORT}
    )
    def delete(self, request, slug: str, kind: str, entry: str, parent: str = "", section=""):
        pack = self._address(request, slug, kind, parent, section)
        if not services.may_edit(pack, request.user):
            raise PermissionDenied
        draft = pack.versions.filter(state=PackVersion.State.DRAFT).first()
        rows = selectors.entries_of(services.draft_document(pack, draft), kind, parent)
        if rows is None or entry not in rows:
            raise Http404
        report = services.pack_entry_delete(
            pack=pack, by=request.user, kind=kind, slug=entry, parent=parent
        )
        _refuse(report, entry)
        return Response(report.as_dict())


class PackDraftChildView(PackDraftEntryView):
    """One nested entry of the draft: a fighter type under its warband type, a skill under its
    skill list (``section``/``parent``); as :class:`PackDraftEntryView` otherwise."""

    @extend_schema(
        operation_id="packs_draft_child_update",
        summary="Write one nested entry of the pack's draft (a fighter type, a skill)",
        request={"application/json": OpenApiTypes.OBJECT},
        responses={200: REPORT},
    )
    def put(self, request, slug: str, section: str, parent: str, kind: str, entry: str):
        return super().put(request, slug, kind, entry, parent=parent, section=section)

    @extend_schema(
        operation_id="packs_draft_child_destroy",
        summary="Take one nested entry out of the pack's draft",
        request=None,
        responses={200: REPORT},
    )
    def delete(self, request, slug: str, section: str, parent: str, kind: str, entry: str):
        return super().delete(request, slug, kind, entry, parent=parent, section=section)


def _refuse(report, entry: str) -> None:
    """The one error shape: each refusal under the field it names (of this entry), the others
    under ``non_field_errors``."""
    if report.ok:
        return
    fields: dict[str, list[str]] = {}
    for problem in report.problems:
        key = problem.field if problem.slug == entry and problem.field else "non_field_errors"
        fields.setdefault(key, []).append(str(problem))
    raise serializers.ValidationError(fields)


class PackPublishView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Publish the pack's draft", request=None, responses={201: VersionSerializer}
    )
    def post(self, request, slug: str):
        pack = _readable(request, slug)
        version = services.pack_publish(pack=pack, by=request.user)
        return Response(VersionSerializer(version).data, status=201)


class WarbandChangeSerializer(serializers.Serializer):
    warband = serializers.CharField(source="warband.name")
    warband_id = serializers.IntegerField(source="warband.pk")
    legal = serializers.BooleanField()
    cost_before = serializers.IntegerField()
    cost_after = serializers.IntegerField()
    lines = serializers.ListField(child=serializers.CharField())


class CampaignPackView(APIView):
    """A campaign's move to a pack version: without ``confirmed`` the preview per warband;
    confirmed, the move (409 when a warband cannot be moved; nothing changes then)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Preview or make a campaign's move to a pack version (its organisers)",
        request=inline_serializer(
            "CampaignPackMove",
            {
                "version": serializers.IntegerField(allow_null=True),
                "confirmed": serializers.BooleanField(),
            },
        ),
        responses={200: WarbandChangeSerializer(many=True)},
    )
    def post(self, request, campaign_slug: str):
        from battles.common.access import visible_campaigns  # noqa: PLC0415 - battles imports warbands

        campaign = visible_campaigns(request.user).filter(slug=campaign_slug[:140]).first()
        if campaign is None:
            raise Http404
        raw = request.data.get("version")
        version = None
        if raw is not None:
            if isinstance(raw, bool) or not isinstance(raw, int):
                raise serializers.ValidationError({"version": [_("A pack version's id, or null.")]})
            version = PackVersion.objects.select_related("pack").filter(pk=raw).first()
            if version is None or not services.may_read(version.pack, request.user):
                raise Http404
        changes = services.campaign_pack_move(
            campaign=campaign,
            version=version,
            by=request.user,
            confirmed=request.data.get("confirmed") is True,
        )
        return Response(WarbandChangeSerializer(changes, many=True).data)
