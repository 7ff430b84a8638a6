import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


def test_home_explains_the_product_in_spanish_by_default(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="es"' in html
    assert "Hoja de Control de Banda" in html
    assert "Motor de reglas" in html


def test_language_cookie_switches_pages_to_english(client):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    html = client.get("/").content.decode()
    assert '<html lang="en"' in html
    assert "Rules engine" in html


def test_404_page_follows_the_language(client):
    assert "Página no encontrada" in client.get("/nope/").content.decode()
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    response = client.get("/nope/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


def test_500_page_is_served_in_the_users_language(rf):
    from django.utils import translation

    from annuminas.views import server_error

    with translation.override("en"):
        response = server_error(rf.get("/boom/"))
    assert response.status_code == 500
    assert "Server error" in response.content.decode()
    with translation.override("es"):
        assert "Error del servidor" in server_error(rf.get("/boom/")).content.decode()


def test_500_under_api_uses_the_error_shape(rf):
    from annuminas.views import server_error

    response = server_error(rf.get("/api/v1/anything/"))
    assert response.status_code == 500
    assert b'"code": "server_error"' in response.content


def test_signup_creates_an_account(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "elros",
            "email": "elros@example.com",
            "password1": "Numenor-Tar-Minyatur-32",
            "password2": "Numenor-Tar-Minyatur-32",
        },
    )
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="elros").exists()


def test_signup_with_mismatched_passwords_writes_nothing(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "elros", "password1": "Numenor-1-aaa", "password2": "Numenor-2-bbb"},
    )
    assert response.status_code == 200
    assert "misma contraseña" in response.content.decode()
    assert not get_user_model().objects.exists()


def test_password_reset_sends_an_email_to_the_console_backend(client, user):
    response = client.post("/accounts/password/reset/", {"email": user.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert user.email in mail.outbox[0].to
    assert re.search(r"/accounts/password/reset/key/\S+", mail.outbox[0].body)


def test_password_change(client, user, password):
    client.force_login(user)
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": password, "password1": "Annuminas-New-88", "password2": "Annuminas-New-88"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("Annuminas-New-88")


def test_profile_needs_login(client):
    response = client.get("/accounts/profile/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_profile_shows_the_user_and_rotates_the_api_token(client, user):
    client.force_login(user)
    response = client.get("/accounts/profile/")
    assert response.status_code == 200
    assert user.username in response.content.decode()

    client.post("/accounts/profile/token/")  # the first token: nothing to lose, no question
    first = Token.objects.get(user=user).key
    asked = client.post("/accounts/profile/token/")  # replacing one breaks the apps using it
    assert asked.status_code == 200 and Token.objects.get(user=user).key == first
    client.post("/accounts/profile/token/", {"confirmed": "1"})
    second = Token.objects.get(user=user).key
    assert first != second
    assert second in client.get("/accounts/profile/").content.decode()


def test_token_rotation_refuses_get(client, user):
    client.force_login(user)
    assert client.get("/accounts/profile/token/").status_code == 405
    assert not Token.objects.exists()


def test_admin_is_titled_for_league_organisers(client, make_user):
    client.force_login(make_user("ingold", is_staff=True))
    html = client.get("/admin/").content.decode()
    assert "Administración de ligas" in html
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "League administration" in client.get("/admin/").content.decode()


def test_static_assets_are_vendored_and_served(client):
    html = client.get("/").content.decode()
    assert "//cdn" not in html and "unpkg" not in html
    for path in ("/static/vendor/htmx-2.0.11.min.js", "/static/vendor/pico-2.1.1.min.css"):
        response = client.get(path)
        assert response.status_code == 200, path


def test_bootstrap_demo_is_idempotent(db):
    from django.core.management import call_command

    call_command("bootstrap_demo", verbosity=0)
    call_command("bootstrap_demo", verbosity=0)
    demo = get_user_model().objects.get(username="demo")
    assert demo.check_password("annuminas-demo")
    assert get_user_model().objects.filter(username="demo").count() == 1
