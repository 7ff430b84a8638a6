import pytest

from tests.warbands.fixtures import *  # noqa: F403 - the warband fixtures


@pytest.fixture(autouse=True)
def _english(english):
    """Every test here matches the English msgids."""
