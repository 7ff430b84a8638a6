"""``/api/v1/packs/``: reading packs and versions, importing a YAML file into the draft with a
dry run, publishing; a private pack is read by its author and the players of campaigns that
play it."""

import pytest
from rest_framework.test import APIClient

from battles.campaigns import services
from battles.models import Campaign
from tests.battles.factories import league_content, quick_user  # noqa: F401 - the fixture
from tests.warbands.fixtures import _content_preloaded  # noqa: F401 - the fixture
from warbands import services as warband_services
from warbands.models import WarbandType
from warbands.packs import services as packs

pytestmark = pytest.mark.django_db

PACK = """\
equipment_lists:
  equipo: {name: Equipo, items: [daga, espada]}
warband_types:
  cazadores:
    name: Cazadores
    race: human
    fighter_types:
      jefe: {name: Jefe, role: leader, cost: 60, profile: 10 4 4 3 3 1 4 1 8, equipment: equipo}
      batidor: {name: Batidor, role: henchman, cost: 25, profile: 10 3 3 3 3 1 3 1 7}
"""


def client_for(user) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(user)
    return client


def test_import_publish_and_read_a_private_pack(league_content):  # noqa: F811
    author = quick_user("author")
    pack = packs.pack_create(owner=author, name="Liga privada")
    api = client_for(author)
    dry = api.post(
        f"/api/v1/packs/{pack.slug}/draft/", {"yaml": PACK, "dry_run": True}, format="json"
    )
    assert dry.status_code == 200
    assert dry.json()["created"] == ["equipment list equipo", "warband type cazadores"]
    assert pack.versions.get().document == {}
    bad = api.post(
        f"/api/v1/packs/{pack.slug}/draft/",
        {"yaml": PACK.replace("cost: 25", "cost: -1")},
        format="json",
    )
    assert bad.status_code == 400
    assert bad.json()["error"]["fields"]["yaml"] == [
        "fighter type batidor: cost: a whole number from 0 to 5000"
    ]
    assert (
        api.post(f"/api/v1/packs/{pack.slug}/draft/", {"yaml": PACK}, format="json").status_code
        == 200
    )
    published = api.post(f"/api/v1/packs/{pack.slug}/publish/")
    assert published.status_code == 201 and published.json()["number"] == 1
    version = pack.versions.get()
    read = api.get(f"/api/v1/packs/{pack.slug}/versions/1/").json()
    assert read["document"]["warband_types"]["cazadores"]["name"] == "Cazadores"
    assert read["contents"] == {"equipment_lists": 1, "warband_types": 1}

    # A private pack: a stranger sees nothing of it, not even in the catalogue.
    stranger = client_for(quick_user("stranger"))
    assert stranger.get(f"/api/v1/packs/{pack.slug}/").status_code == 404
    assert pack.slug not in [p["slug"] for p in stranger.get("/api/v1/packs/").json()["results"]]
    prefixed = WarbandType.objects.get(pack_version=version).slug
    assert stranger.get(f"/api/v1/catalogue/warband-types/{prefixed}/").status_code == 404

    # A player of a campaign that plays it reads it.
    campaign = services.campaign_create(organiser=author, name="Liga privada")
    packs.campaign_pack_move(campaign=campaign, version=version, by=author, confirmed=True)
    services.campaign_transition(campaign=campaign, by=author, state=Campaign.State.OPEN)
    player = quick_user("player")
    warband = warband_services.warband_create(
        owner=player, warband_type=WarbandType.objects.get(pack_version=version), name="W"
    )
    services.campaign_join(
        campaign=campaign, user=player, warband=warband, join_code=campaign.join_code
    )
    reader = client_for(player)
    assert reader.get(f"/api/v1/packs/{pack.slug}/").status_code == 200
    assert reader.get(f"/api/v1/packs/{pack.slug}/versions/1/").json()["campaigns"] == [
        campaign.slug
    ]
    # …but does not write it.
    assert reader.post(f"/api/v1/packs/{pack.slug}/publish/").status_code == 403


def test_anonymous_reads_public_packs_and_the_default(league_content):  # noqa: F811
    response = APIClient().get("/api/v1/packs/")
    assert response.status_code == 200
    page = response.json()
    assert page["count"] == 1 and page["next"] is None
    assert "annuminas" in [p["slug"] for p in page["results"]]
    assert APIClient().post("/api/v1/packs/annuminas/publish/").status_code in (401, 403)


def test_a_campaign_moves_to_a_version_through_the_api(league_content):  # noqa: F811
    author = quick_user("api-author")
    pack = packs.pack_create(owner=author, name="Liga API", visibility="public")
    packs.pack_import(pack=pack, by=author, text=PACK, apply=True)
    version = packs.pack_publish(pack=pack, by=author)
    campaign = services.campaign_create(organiser=author, name="Liga API")
    url = f"/api/v1/campaigns/{campaign.slug}/pack/"
    preview = client_for(author).post(url, {"version": version.pk}, format="json")
    assert preview.status_code == 200 and preview.json() == []
    campaign.refresh_from_db()
    assert campaign.pack_version is None
    stranger = client_for(quick_user("api-stranger"))
    assert stranger.post(
        url, {"version": version.pk, "confirmed": True}, format="json"
    ).status_code in (403, 404)
    bad = client_for(author).post(url, {"version": "uno"}, format="json")
    assert bad.status_code == 400
    moved = client_for(author).post(url, {"version": version.pk, "confirmed": True}, format="json")
    assert moved.status_code == 200
    campaign.refresh_from_db()
    assert campaign.pack_version == version
