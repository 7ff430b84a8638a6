"""``/api/v1/auth/tokens/``: a named token per device — make one (with the password), list
them, revoke one. A key is shown once, when it is made; only its SHA-256 is kept."""

from __future__ import annotations

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from ..accounts.services import LoginThrottled, user_authenticate
from .models import ApiToken, _new_key, token_digest
from .throttling import AuthRateThrottle, login_throttled


class TokenCreateSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text=_("Username or e-mail."))
    password = serializers.CharField(max_length=128, trim_whitespace=False)
    name = serializers.CharField(max_length=100, help_text=_("The device, e.g. “Ana's phone”."))
    expires_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text=_("When it stops working (never if left out).")
    )

    def validate_expires_at(self, value):
        if value is not None and value <= timezone.now():
            raise serializers.ValidationError(_("The expiry must be in the future."))
        return value


class ApiTokenSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created_at", "expires_at", "last_used_at"]


class NewApiTokenSerializer(ApiTokenSerializer):
    token = serializers.CharField(help_text=_("The key: shown this once only."))

    class Meta(ApiTokenSerializer.Meta):
        fields = [*ApiTokenSerializer.Meta.fields, "token"]


def credentials_user(request, username: str, password: str):
    """The user these credentials name (the login page's failed-login limits apply): 429 with
    Retry-After past them, 400 ``invalid_credentials`` for a wrong pair."""
    try:
        user = user_authenticate(request=request._request, login=username, password=password)
    except LoginThrottled as exc:
        raise login_throttled() from exc
    if user is None:
        raise exceptions.ValidationError(
            {"non_field_errors": [_("Wrong username or password.")]}, code="invalid_credentials"
        )
    return user


class TokensView(GenericAPIView):
    serializer_class = ApiTokenSerializer
    queryset = ApiToken.objects.none()

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "POST" else [IsAuthenticated()]

    def get_authenticators(self):
        # Making a token takes the password, whoever is logged in (no CSRF for a session).
        posting = getattr(self.request, "method", None) == "POST"
        return [] if posting else super().get_authenticators()

    def get_throttles(self):
        return [AuthRateThrottle()] if self.request.method == "POST" else super().get_throttles()

    throttle_scope = "auth"

    @extend_schema(
        summary=_("The caller's device tokens"),
        responses=ApiTokenSerializer(many=True),
        tags=["auth"],
        filters=False,  # newest first, as the query reads them: no ?ordering=
    )
    def get(self, request):
        tokens = ApiToken.objects.filter(user=request.user)
        page = self.paginate_queryset(tokens)
        return self.get_paginated_response(ApiTokenSerializer(page, many=True).data)

    @extend_schema(
        summary=_("Make a token for one device"),
        request=TokenCreateSerializer,
        responses={
            201: NewApiTokenSerializer,
            400: OpenApiResponse(description=_("Wrong username or password, or a bad field.")),
        },
        auth=[],
        tags=["auth"],
    )
    def post(self, request):
        data = TokenCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        user = credentials_user(request, values["username"], values["password"])
        key = _new_key()
        with transaction.atomic():
            token = ApiToken.objects.create(
                user=user,
                name=values["name"],
                digest=token_digest(key),
                prefix=key[:8],
                expires_at=values.get("expires_at"),
            )
        body = {**ApiTokenSerializer(token).data, "token": key}
        return Response(body, status=status.HTTP_201_CREATED)


class TokenDetailView(GenericAPIView):
    serializer_class = ApiTokenSerializer
    queryset = ApiToken.objects.none()
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary=_("Revoke one device token"), request=None, responses={204: None}, tags=["auth"]
    )
    def delete(self, request, pk: int):
        get_object_or_404(ApiToken, pk=pk, user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
