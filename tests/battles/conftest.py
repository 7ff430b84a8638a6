import pytest
from django.utils import translation

from tests.battles.factories import *  # noqa: F403 - the campaign fixtures


@pytest.fixture(autouse=True)
def english_messages():
    """Assertions on messages read the English msgids (pages set the language cookie too)."""
    with translation.override("en"):
        yield
