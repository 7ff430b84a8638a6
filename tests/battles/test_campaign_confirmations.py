"""Campaign pages: finishing a campaign and closing a round ask first — the real
submit sits inside a closed <details> that says what happens, so it works without JavaScript."""

import re

import pytest
from django.urls import reverse

from tests.battles.test_pages import _world, client_for, world  # noqa: F401 - the fixtures

pytestmark = pytest.mark.django_db


def details_holding(html: str, testid: str) -> str:
    match = re.search(r"<details[^>]*>(?:(?!</details>).)*" + re.escape(testid), html, re.S)
    assert match, testid
    return match.group(0)


def test_close_round_and_finish_ask_first(world):  # noqa: F811
    league = world["league"]
    html = (
        client_for(league.organiser)
        .get(reverse("campaign-detail", args=[league.campaign.slug]))
        .content.decode()
    )
    closing = details_holding(html, 'data-testid="close-round"')
    assert "<details" in closing and " open" not in closing.split(">")[0]
    assert "cannot be reopened" in closing
    finishing = details_holding(html, 'data-testid="to-finished"')
    assert "No more rounds or battles" in finishing
