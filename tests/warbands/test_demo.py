import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from warbands.content_loader import DEFAULT_PACK_PATH
from warbands.demo import demo_content_ensure
from warbands.models import ContentPack, Warband

pytestmark = pytest.mark.django_db


def test_demo_warband_is_built_once(content, user):
    first = demo_content_ensure(user=user)
    assert first.fighters.filter(is_leader=True).count() == 1
    assert first.groups.count() == 2
    assert first.treasury == sum(first.ledger.values_list("amount", flat=True)) > 0
    again = demo_content_ensure(user=user)
    assert again.pk == first.pk and Warband.objects.filter(owner=user).count() == 1
    assert again.version == Warband.objects.get(pk=first.pk).version


def test_admin_imports_a_pack(client, make_user, content):
    client.force_login(make_user("organiser", is_staff=True, is_superuser=True))
    files = [
        SimpleUploadedFile(path.name, path.read_bytes())
        for path in sorted(DEFAULT_PACK_PATH.glob("*.yaml"))
    ]
    version = ContentPack.objects.get(slug="annuminas").version
    response = client.post(reverse("admin:warbands_contentpack_import"), {"files": files})
    assert response.status_code == 302
    assert ContentPack.objects.get(slug="annuminas").version == version
    broken = SimpleUploadedFile("pack.yaml", b"pack: {slug: x}\nnope: 1\n")
    response = client.post(reverse("admin:warbands_contentpack_import"), {"files": [broken]})
    assert response.status_code == 200 and "unknown section" in response.content.decode()
