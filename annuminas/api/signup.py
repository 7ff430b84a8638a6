"""``POST /api/v1/auth/signup/``: make an account from a phone, with the sign-up page's checks.

The body goes through allauth's own sign-up form (the page's): the password validators, a free
username, an e-mail not taken; then the same confirmation e-mail is sent. The answer is the new
account (no session, no token: make one at ``/api/v1/auth/tokens/``)."""

from __future__ import annotations

from allauth.account import app_settings as account_settings
from allauth.account.forms import SignupForm
from allauth.account.internal.flows.email_verification import (
    get_address_for_user,
    send_verification_email_to_address,
)
from allauth.utils import get_form_class
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from .throttling import AuthRateThrottle


class SignupRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    email = serializers.EmailField(max_length=254)
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class SignedUpSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.EmailField()
    email_verified = serializers.BooleanField(
        help_text=_("False until the link in the confirmation e-mail is followed.")
    )


# The page's form names its fields username/email/password1/password2.
FORM_TO_API = {"password1": "password", "password2": "password"}


class SignupView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [AuthRateThrottle]
    throttle_scope = "auth"

    @extend_schema(
        summary=_("Make an account (the sign-up page's checks; a confirmation e-mail is sent)"),
        request=SignupRequestSerializer,
        responses={201: SignedUpSerializer},
        auth=[],
        tags=["auth"],
    )
    def post(self, request):
        data = SignupRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        form_class = get_form_class(account_settings.FORMS, "signup", SignupForm)
        form = form_class(
            data={
                "username": values["username"],
                "email": values["email"],
                "password1": values["password"],
                "password2": values["password"],
            }
        )
        if not form.is_valid():
            fields: dict[str, list[str]] = {}
            for name, messages in form.errors.items():
                key = FORM_TO_API.get(name, name)
                fields.setdefault(key, [])
                fields[key].extend(m for m in messages if m not in fields[key])
            raise exceptions.ValidationError(fields)
        with transaction.atomic():
            user = form.save(request._request)
        address = get_address_for_user(user)
        if address is not None and not address.verified:
            send_verification_email_to_address(request._request, address, signup=True)
        return Response(
            {
                "id": user.pk,
                "username": user.get_username(),
                "email": user.email,
                "email_verified": bool(address and address.verified),
            },
            status=status.HTTP_201_CREATED,
        )
