import pytest
from django.conf import settings
from django.utils import translation

from tests.battles.factories import *  # noqa: F403 - the campaign fixtures


@pytest.fixture(autouse=True)
def english_messages():
    """Assertions on messages read the English msgids (pages set the language cookie too)."""
    with translation.override("en"):
        yield


@pytest.fixture
def author(client, organiser):
    """The pack pages' browser: the module's ``organiser`` logged in, reading English."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(organiser)
    return client
