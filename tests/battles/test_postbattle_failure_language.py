"""Every word in the reader's language: why a post-battle run failed is kept in every
language of the site (the worker writes in its own) and shown in the reader's."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from battles.models import Campaign, Job, PostBattleResult, PostBattleRun
from battles.postbattle import battle_resolve_start, postbattle_run_apply
from tests.battles.test_postbattle import fight, leader, out_of_action
from warbands.models import Warband

pytestmark = pytest.mark.django_db


@pytest.fixture
def failed_run(make_league):
    """A run the campaign's rating cap refuses, applied by a worker speaking Spanish."""
    league = make_league(henchmen=2)
    a, b = league.warband(0), league.warband(1)
    Campaign.objects.filter(pk=league.campaign.pk).update(rating_cap=a.rating)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    battle_resolve_start(battle=battle, user=league.organiser, seed=1234)
    run = PostBattleRun.objects.get(battle=battle)
    before = list(Warband.objects.order_by("pk").values_list("pk", "version", "rating"))
    with translation.override("es"):
        run = postbattle_run_apply(run_id=run.pk)
    assert run.status == "failed"
    # Trying it again for the other language's words changed nothing.
    assert list(Warband.objects.order_by("pk").values_list("pk", "version", "rating")) == before
    assert not PostBattleResult.objects.exists()
    return league, run


def test_the_reason_is_kept_in_every_language(failed_run):
    _league, run = failed_run
    assert set(run.error_texts) == {code for code, _name in settings.LANGUAGES}
    assert "over the cap" in run.error_texts["en"]
    assert "over the cap" not in run.error_texts["es"] and run.error == run.error_texts["es"]
    with translation.override("en"):
        assert run.error_text == run.error_texts["en"]
        job = Job.objects.get(pk=run.job_id)
        assert list(job.error_texts.values()) == [run.error_texts["en"]]


def test_pages_and_api_show_the_readers_language(failed_run):
    league, run = failed_run
    for language in ("en", "es"):
        client = Client()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        client.force_login(league.organiser)
        page = client.get(reverse("job-detail", args=[run.job_id])).content.decode()
        assert run.error_texts[language] in page
        api = APIClient(HTTP_ACCEPT_LANGUAGE=language)
        api.force_authenticate(league.organiser)
        job = api.get(f"/api/v1/jobs/{run.job_id}/").json()
        assert job["errors"] == {str(run.battle_id): run.error_texts[language]}
