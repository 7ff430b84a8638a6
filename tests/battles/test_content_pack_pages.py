"""The content pack pages, as an organiser who is not staff uses them: a pack from the warband
type form, a YAML file checked in a dry run, publish, adopt for his campaign (previewed, then
confirmed), and a player building his warband from the league's pack."""

import pytest
from django.conf import settings

from battles.campaigns import services
from battles.models import Campaign
from tests.battles.factories import quick_user
from warbands.models import ContentPack, PackVersion, Warband, WarbandType

TYPE_FORM = {
    "name": "Cazadores de trolls",
    "name_en": "Troll hunters",
    "race": "human",
    "starting_treasury": "500",
    "max_size": "12",
    "leader_name": "Jefe cazador",
    "leader_cost": "60",
    "leader_profile": "10 4 4 3 3 1 4 1 8",
    "hero_name": "Rastreador",
    "hero_cost": "30",
    "hero_max": "2",
    "hero_profile": "10 3 4 3 3 1 3 1 7",
    "henchman_name": "Batidor",
    "henchman_cost": "25",
    "henchman_profile": "10 3 3 3 3 1 3 1 7",
    "items": ["daga", "espada", "arco"],
}


@pytest.fixture
def organiser(league_content, client):
    user = quick_user("organiser-pages")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return user


def _create_pack(client) -> ContentPack:
    response = client.post(
        "/packs/new/", {"name": "Liga del Norte", "visibility": "public", "start": "empty"}
    )
    pack = ContentPack.objects.get(name="Liga del Norte")
    assert response.status_code == 302 and response.url == f"/packs/{pack.slug}/"
    return pack


def test_an_organiser_builds_publishes_and_adopts_a_pack(organiser, client):
    assert not organiser.is_staff
    pack = _create_pack(client)
    bad = dict(TYPE_FORM, leader_profile="10 4 4 9 3 1 4 1 8")
    response = client.post(f"/packs/{pack.slug}/warband-type/", bad)
    assert response.status_code == 200
    assert "fighter type cazadores-de-trolls-jefe: profile: above the race&#x27;s maximum in s" in (
        response.content.decode()
    )
    assert pack.versions.get().document == {}
    response = client.post(f"/packs/{pack.slug}/warband-type/", TYPE_FORM)
    assert response.status_code == 302
    response = client.post(f"/packs/{pack.slug}/publish/")
    version = pack.versions.get()
    assert version.state == PackVersion.State.PUBLISHED
    page = client.get(f"/packs/{pack.slug}/").content.decode()
    assert "Cazadores de trolls" in page and "Jefe cazador" in page
    listing = client.get("/packs/").content.decode()
    assert "Liga del Norte" in listing and "by organiser-pages" in listing

    campaign = services.campaign_create(organiser=organiser, name="Liga del Norte")
    preview = client.get(f"/packs-adopt/?campaign={campaign.slug}&version={version.pk}")
    assert preview.status_code == 200
    campaign.refresh_from_db()
    assert campaign.pack_version is None  # seen, not moved
    response = client.post(
        "/packs-adopt/", {"campaign": campaign.slug, "version": version.pk, "confirmed": "1"}
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.pack_version == version
    services.campaign_transition(campaign=campaign, by=organiser, state=Campaign.State.OPEN)

    client.force_login(quick_user("player-pages"))
    join = client.get(f"/campaigns/join/?code={campaign.join_code}").content.decode()
    assert f"/warbands/new/?pack={version.pk}" in join
    create = client.get(f"/warbands/new/?pack={version.pk}").content.decode()
    assert "Cazadores de trolls" in create
    warband_type = WarbandType.objects.get(pack_version=version)
    response = client.post(
        "/warbands/new/",
        {"name": "Los de Fornost", "warband_type": warband_type.pk, "pack": version.pk},
    )
    assert response.status_code == 302
    assert Warband.objects.get(name="Los de Fornost").warband_type == warband_type
    # A new version: the pack's page leads its author to the campaign's preview.
    client.force_login(organiser)
    client.post(f"/packs/{pack.slug}/warband-type/", dict(TYPE_FORM, leader_cost="70"))
    client.post(f"/packs/{pack.slug}/publish/")
    second = pack.versions.get(number=2)
    page = client.get(f"/packs/{pack.slug}/").content.decode()
    link = f"/packs-adopt/?campaign={campaign.slug}&amp;version={second.pk}"
    assert link in page
    preview = client.get(link.replace("&amp;", "&"))
    assert preview.status_code == 200 and "No warband has joined yet." in preview.content.decode()
    campaign.refresh_from_db()
    assert campaign.pack_version == version
    client.force_login(Warband.objects.get(name="Los de Fornost").owner)
    # The default form does not offer a pack's types.
    assert "Cazadores de trolls" not in client.get("/warbands/new/").content.decode()


def test_the_dry_run_reports_and_saves_nothing(organiser, client):
    pack = _create_pack(client)
    text = "warband_types:\n  a: {name: A}\n  a: {name: B}\n"
    response = client.post(f"/packs/{pack.slug}/import/", {"text": text, "apply": "1"})
    assert response.status_code == 200
    assert "line 3: a given twice" in response.content.decode()
    assert pack.versions.get().document == {}
    good = "equipment_lists:\n  lista: {name: Lista, items: [daga]}\n"
    response = client.post(f"/packs/{pack.slug}/import/", {"text": good, "apply": "0"})
    assert response.status_code == 200
    assert "equipment list lista" in response.content.decode()
    assert pack.versions.get().document == {}
    client.post(f"/packs/{pack.slug}/import/", {"text": good, "apply": "1"})
    assert pack.versions.get().document == {
        "equipment_lists": {"lista": {"name": "Lista", "items": ["daga"]}}
    }
    download = client.get(f"/packs/{pack.slug}/v1.yaml")
    assert (
        download.content.decode()
        == "equipment_lists:\n  lista:\n    name: Lista\n    items:\n    - daga\n"
    )


def test_others_neither_edit_nor_see_a_private_pack(organiser, client):
    client.post("/packs/new/", {"name": "Secreta", "visibility": "private", "start": "empty"})
    pack = ContentPack.objects.get(name="Secreta")
    client.force_login(quick_user("someone-else"))
    assert client.get(f"/packs/{pack.slug}/").status_code == 404
    pack.visibility = "unlisted"
    pack.save()
    assert client.get(f"/packs/{pack.slug}/").status_code == 200
    assert "Secreta" not in client.get("/packs/").content.decode()
    assert (
        client.post(f"/packs/{pack.slug}/import/", {"text": "{}", "apply": "1"}).status_code == 403
    )
    assert client.post(f"/packs/{pack.slug}/publish/").status_code == 403
    assert client.post(f"/packs/{pack.slug}/settings/", {"name": "Mía"}).status_code == 403
    assert pack.versions.get().state == PackVersion.State.DRAFT


def test_the_default_pack_page_and_a_copy_of_it(organiser, client):
    client.logout()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get("/packs/annuminas/")
    assert page.status_code == 200 and "the default pack" in page.content.decode()
    assert "warband types: 11" in page.content.decode()
    assert 'data-testid="pack-type-form"' not in page.content.decode()
    client.force_login(organiser)
    response = client.post(
        "/packs/new/", {"name": "Copia", "visibility": "private", "start": "default"}
    )
    assert response.status_code == 302
    draft = ContentPack.objects.get(name="Copia").versions.get()
    assert "mercenarios-de-rhovanion" in draft.document["warband_types"]
    yaml = client.get(f"/packs/{draft.pack.slug}/v1.yaml")
    assert yaml.status_code == 200 and "mercenarios-de-rhovanion:" in yaml.content.decode()
