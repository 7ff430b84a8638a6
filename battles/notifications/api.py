"""Notifications, webhooks and calendar addresses over HTTP.

* ``GET  /api/v1/notifications/?unread=1`` — the caller's inbox, newest first, paginated; each
  line's ``message`` is in the request's language;
* ``POST /api/v1/notifications/read/`` — ``{"ids": [..]}`` or ``{"all": true}`` → ``{"marked": n}``;
* ``GET/POST /api/v1/campaigns/{slug}/webhooks/``, ``GET/PATCH/DELETE …/webhooks/{id}/`` —
  the organisers' webhooks (secret included: it verifies ``X-Annuminas-Signature``);
* ``GET /api/v1/calendar/`` the caller's private feed URLs; ``POST`` makes new ones.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from battles.calendars import services as calendars
from battles.common import access
from battles.models import Campaign
from battles.models.notifications import Notification, Webhook

from . import messages, selectors, services


class NotificationSerializer(serializers.ModelSerializer):
    label = serializers.SerializerMethodField()
    message = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    campaign = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Notification
        fields = [
            "id",
            "event",
            "label",
            "message",
            "params",
            "campaign",
            "battle",
            "url",
            "read",
            "read_at",
            "created_at",
        ]
        read_only_fields = fields

    def get_label(self, obj: Notification) -> str:
        return messages.label(obj.event)

    def get_message(self, obj: Notification) -> str:
        return messages.render(obj.event, obj.params)

    def get_url(self, obj: Notification) -> str:
        return services.link_path(obj)


class NotificationListView(ListAPIView):
    serializer_class = NotificationSerializer
    filter_backends: list = []

    @extend_schema(
        parameters=[OpenApiParameter("unread", bool, description="Only unread notifications.")],
        summary="The caller's notifications, newest first",
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        unread = self.request.query_params.get("unread", "").lower() in ("1", "true")
        return selectors.inbox(user=self.request.user, unread_only=unread).select_related(
            "campaign"
        )


class MarkReadSerializer(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**62),
        required=False,
        max_length=500,
    )
    all = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs):
        if not attrs.get("all") and not attrs.get("ids"):
            raise serializers.ValidationError(_('Send "ids" or "all": true.'))
        return attrs


class NotificationReadView(APIView):
    @extend_schema(
        request=MarkReadSerializer,
        responses=inline_serializer("Marked", {"marked": serializers.IntegerField()}),
        summary="Mark notifications read",
    )
    def post(self, request):
        serializer = MarkReadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        marked = services.notification_mark_read(
            user=request.user, notification_ids=None if data["all"] else data["ids"]
        )
        return Response({"marked": marked})


class WebhookSerializer(serializers.ModelSerializer):
    rotate_secret = serializers.BooleanField(
        write_only=True, required=False, help_text=_("Make a new signing secret.")
    )
    url = serializers.CharField(max_length=500)

    class Meta:
        model = Webhook
        fields = [
            "id",
            "url",
            "format",
            "active",
            "secret",
            "consecutive_failures",
            "disabled_note",
            "created_at",
            "rotate_secret",
        ]
        read_only_fields = ["id", "secret", "consecutive_failures", "disabled_note", "created_at"]


def _organised_campaign(request, slug: str) -> Campaign:
    campaign = get_object_or_404(access.visible_campaigns(request.user), slug=slug)
    if not access.is_organiser(request.user, campaign):
        raise exceptions.PermissionDenied(
            _("Only an organiser of this campaign may manage its webhooks.")
        )
    return campaign


class WebhookListView(APIView):
    @extend_schema(responses=WebhookSerializer(many=True), summary="A campaign's webhooks")
    def get(self, request, slug: str):
        campaign = _organised_campaign(request, slug)
        rows = selectors.campaign_webhooks(campaign=campaign)
        return Response(WebhookSerializer(rows, many=True).data)

    @extend_schema(
        request=WebhookSerializer,
        responses={201: WebhookSerializer},
        summary="Add a webhook",
    )
    def post(self, request, slug: str):
        campaign = _organised_campaign(request, slug)
        serializer = WebhookSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        webhook = services.webhook_create(
            campaign=campaign,
            by=request.user,
            url=data["url"],
            format=data.get("format", Webhook.Format.JSON),
        )
        if data.get("active") is False:
            webhook = services.webhook_update(webhook=webhook, by=request.user, active=False)
        return Response(WebhookSerializer(webhook).data, status=status.HTTP_201_CREATED)


class WebhookDetailView(APIView):
    def _webhook(self, request, slug: str, pk: int) -> Webhook:
        campaign = _organised_campaign(request, slug)
        return get_object_or_404(selectors.campaign_webhooks(campaign=campaign), pk=pk)

    @extend_schema(responses=WebhookSerializer, summary="One webhook")
    def get(self, request, slug: str, pk: int):
        return Response(WebhookSerializer(self._webhook(request, slug, pk)).data)

    @extend_schema(request=WebhookSerializer, responses=WebhookSerializer, summary="Change it")
    def patch(self, request, slug: str, pk: int):
        webhook = self._webhook(request, slug, pk)
        serializer = WebhookSerializer(webhook, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        webhook = services.webhook_update(
            webhook=webhook,
            by=request.user,
            url=data.get("url"),
            format=data.get("format"),
            active=data.get("active"),
            rotate_secret=data.get("rotate_secret", False),
        )
        return Response(WebhookSerializer(webhook).data)

    @extend_schema(responses={204: None}, summary="Delete it")
    def delete(self, request, slug: str, pk: int):
        services.webhook_delete(webhook=self._webhook(request, slug, pk), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


CalendarUrls = inline_serializer(
    "CalendarUrls",
    {
        "battles": serializers.URLField(),
        "campaigns": serializers.DictField(child=serializers.URLField()),
    },
)


class CalendarTokenView(APIView):
    def _answer(self, request, token: str) -> Response:
        campaigns = (
            access.visible_campaigns(request.user)
            .filter(memberships__user=request.user)
            .distinct()
            .values_list("slug", flat=True)
        )
        return Response(
            {
                "battles": request.build_absolute_uri(reverse("calendar-battles", args=[token])),
                "campaigns": {
                    slug: request.build_absolute_uri(
                        reverse("calendar-campaign", args=[token, slug])
                    )
                    for slug in campaigns
                },
            }
        )

    @extend_schema(responses=CalendarUrls, summary="The caller's private calendar addresses")
    def get(self, request):
        return self._answer(request, calendars.calendar_token_get(user=request.user).token)

    @extend_schema(
        request=None, responses=CalendarUrls, summary="New calendar addresses (revokes the old)"
    )
    def post(self, request):
        return self._answer(request, calendars.calendar_token_rotate(user=request.user).token)
