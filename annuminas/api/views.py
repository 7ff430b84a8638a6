"""Project-level API endpoints: token issue and the caller's identity."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ..accounts.services import LoginThrottled, user_authenticate
from .throttling import AuthRateThrottle


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class TokenView(APIView):
    """Exchange a username (or e-mail) and password for the user's one API token (deprecated:
    make a named token per device at ``/api/v1/auth/tokens/``).

    Failed attempts are limited per login name and per address (the login page's limits): past
    them the answer is 429, before any password is checked.
    """

    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [AuthRateThrottle]
    throttle_scope = "auth"

    @extend_schema(
        request=TokenRequestSerializer,
        responses={
            200: inline_serializer("TokenResponse", {"token": serializers.CharField()}),
            400: OpenApiResponse(description=_("Wrong username or password: the error shape.")),
            429: OpenApiResponse(
                description=_("Too many failed logins for this name or address: the error shape.")
            ),
        },
        auth=[],
        deprecated=True,
        tags=["auth"],
    )
    def post(self, request):
        serializer = TokenRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            user = user_authenticate(
                request=request._request,
                login=serializer.validated_data["username"],
                password=serializer.validated_data["password"],
            )
        except LoginThrottled as exc:
            minutes = max(1, -(-exc.retry_after // 60))
            throttled = exceptions.Throttled(
                detail=ngettext(
                    "Too many failed logins. Try again in %(minutes)s minute.",
                    "Too many failed logins. Try again in %(minutes)s minutes.",
                    minutes,
                )
                % {"minutes": minutes}
            )
            throttled.wait = exc.retry_after  # Retry-After (set after: no DRF sentence added)
            raise throttled from exc
        if user is None:
            raise exceptions.ValidationError(
                {"non_field_errors": [_("Wrong username or password.")]}, code="invalid_credentials"
            )
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses=inline_serializer(
            "Me",
            {
                "id": serializers.IntegerField(),
                "username": serializers.CharField(),
                "email": serializers.EmailField(),
                "language": serializers.CharField(),
            },
        )
    )
    def get(self, request):
        user = request.user
        return Response(
            {
                "id": user.pk,
                "username": user.get_username(),
                "email": user.email,
                "language": request.LANGUAGE_CODE,
            }
        )
