"""Share links are the owner's choice: off for a new warband, turned on, replaced and turned off
from the sheet or the API; the notes stay off the shared copy unless the owner shows them."""

import pytest
from django.urls import reverse

from warbands.models import Warband

pytestmark = pytest.mark.django_db

SECRET = "Plan secreto: emboscada en el vado"


@pytest.fixture
def owner_client(client, user):
    client.force_login(user)
    return client


def _sheet(client, warband) -> str:
    return client.get(reverse("warband-sheet", args=[warband.pk])).content.decode()


def _sharing(client, warband, action: str):
    warband.refresh_from_db()
    return client.post(
        reverse("warband-sharing", args=[warband.pk]),
        {"action": action, "version": warband.version},
    )


def _token(warband) -> str | None:
    return Warband.objects.get(pk=warband.pk).share_token


def test_a_new_warband_is_not_shared(owner_client, warband):
    assert warband.share_token is None
    page = _sheet(owner_client, warband)
    assert 'data-testid="share-link"' not in page and "/share/" not in page
    assert 'data-testid="share-on"' in page


def test_the_owner_turns_sharing_on_shows_notes_rotates_and_turns_it_off(
    owner_client, client, warband, django_user_model
):
    warband.notes = SECRET
    warband.save(update_fields=["notes"])
    assert _sharing(owner_client, warband, "on").status_code == 302
    first = _token(warband)
    assert first and f"/share/{first}/" in _sheet(owner_client, warband)

    stranger = django_user_model.objects.create_user("mirón")
    client.force_login(stranger)
    shared = client.get(reverse("warband-share", args=[first])).content.decode()
    assert warband.name in shared and SECRET not in shared  # notes stay private

    client.force_login(warband.owner)
    _sharing(client, warband, "notes-on")
    assert SECRET in client.get(reverse("warband-share", args=[first])).content.decode()
    _sharing(client, warband, "notes-off")
    assert SECRET not in client.get(reverse("warband-share", args=[first])).content.decode()

    _sharing(client, warband, "rotate")
    second = _token(warband)
    assert second and second != first
    assert client.get(reverse("warband-share", args=[first])).status_code == 404
    assert client.get(reverse("warband-share", args=[second])).status_code == 200

    _sharing(client, warband, "off")
    assert _token(warband) is None
    assert client.get(reverse("warband-share", args=[second])).status_code == 404
    assert 'data-testid="share-on"' in _sheet(client, warband)


def test_only_the_owner_changes_the_sharing(client, warband, django_user_model):
    client.force_login(django_user_model.objects.create_user("ajeno"))
    response = client.post(reverse("warband-sharing", args=[warband.pk]), {"action": "on"})
    assert response.status_code == 404 and _token(warband) is None


def test_a_stale_version_or_an_unknown_action_changes_nothing(owner_client, warband):
    url = reverse("warband-sharing", args=[warband.pk])
    owner_client.post(url, {"action": "on", "version": warband.version - 1})
    owner_client.post(url, {"action": "everyone", "version": warband.version})
    assert _token(warband) is None


def test_the_api_turns_sharing_on_rotates_and_off(auth_client, warband):
    url = f"/api/v1/warbands/{warband.pk}/"
    data = auth_client.get(url).json()
    assert (data["shared"], data["share_url"], data["share_notes"]) == (False, None, False)

    refused = auth_client.patch(
        url, {"rotate_share_link": True, "version": data["version"]}, format="json"
    )
    assert refused.status_code == 400
    assert "rotate_share_link" in refused.json()["error"]["fields"]

    on = auth_client.patch(
        url, {"shared": True, "share_notes": True, "version": data["version"]}, format="json"
    ).json()
    assert on["shared"] and on["share_notes"] and on["share_url"].startswith("/share/")
    rotated = auth_client.patch(
        url, {"rotate_share_link": True, "version": on["version"]}, format="json"
    ).json()
    assert rotated["share_url"] != on["share_url"]
    assert auth_client.get(on["share_url"]).status_code == 404
    off = auth_client.patch(url, {"shared": False, "version": rotated["version"]}, format="json")
    assert off.json()["share_url"] is None
    assert auth_client.get(rotated["share_url"]).status_code == 404
