"""Webhook SSRF guard: http(s) only, no private, loopback, link-local or reserved addresses —
when the URL is saved (service, page, API) and again when a delivery connects (DNS changes)."""

from __future__ import annotations

import ipaddress

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from battles.models.notifications import Webhook, WebhookDelivery
from battles.notifications import services, urlguard
from tests.battles.notification_helpers import fake_dns, start_hook_server

pytestmark = pytest.mark.django_db

REFUSED = [
    "http://127.0.0.1/h",
    "http://127.1:8000/h",
    "http://localhost/h",
    "http://10.0.0.8/h",
    "https://172.16.4.4/h",
    "https://192.168.1.1/h",
    "http://169.254.169.254/latest/meta-data/",
    "http://0.0.0.0:6379/",
    "http://100.64.0.1/h",
    "http://240.0.0.1/h",
    "http://224.0.0.1/h",
    "http://[::1]/h",
    "http://[fe80::1]/h",
    "http://[fc00::1]/h",
    "http://[::ffff:127.0.0.1]/h",
    "http://[2002:7f00:1::1]/h",  # 6to4 embedding 127.0.0.1
    "http://[2002:808:808::1]/h",  # 6to4, even embedding a public address
    "http://[fec0::1]/h",  # site-local
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/h",  # Teredo
    "http://[64:ff9b::7f00:1]/h",  # NAT64 to 127.0.0.1
    "http://[::127.0.0.1]/h",  # IPv4-compatible
    "https://internal.example/h",
]


@pytest.fixture
def dns(monkeypatch):
    fake_dns(monkeypatch, {"internal.example": "10.1.2.3", "localhost": "127.0.0.1"})


@pytest.fixture
def hook():
    server = start_hook_server()
    yield server
    server.stop()


@pytest.mark.parametrize("url", REFUSED)
def test_private_addresses_are_refused_when_saved(league, dns, url):
    with pytest.raises(ValidationError) as refused:
        services.webhook_create(campaign=league.campaign, by=league.organiser, url=url)
    assert "private network" in refused.value.message_dict["url"][0]
    assert not Webhook.objects.exists()


def test_other_schemes_and_unknown_hosts_are_refused(league, dns):
    for url, says in (
        ("file:///etc/passwd", "http://"),
        ("gopher://example.com/", "http://"),
        ("http://example.com:99999/", "http://"),
        ("https://nowhere.invalid/h", "cannot be found"),
        # credentials: urllib and http.client read these hosts differently from urlsplit
        ("http://127.0.0.1:80@8.8.8.8/", "user name or password"),
        ("http://hook@hooks.example.com/", "user name or password"),
        ("https://user:secret@hooks.example.com/", "user name or password"),
        ("http://8.8.8.8\\@127.0.0.1/", "backslashes"),
        ("http://hooks.example.com\\x/", "backslashes"),
        ("http://hooks.example.com/a b", "backslashes"),
        ("http://hooks.example.com/\r\nX-Injected: 1", "backslashes"),
        ("http://exa_mple.com/", "http://"),
        ("http://[fe80::1%25eth0]/h", "http://"),
        ("http://%31%32%37.0.0.1/h", "http://"),
    ):
        with pytest.raises(ValidationError) as refused:
            services.webhook_create(campaign=league.campaign, by=league.organiser, url=url)
        assert says in refused.value.message_dict["url"][0], url
    assert not Webhook.objects.exists()


def test_public_addresses_are_accepted_and_updates_are_checked_too(league, dns):
    webhook = services.webhook_create(
        campaign=league.campaign, by=league.organiser, url=" https://hooks.example.com/x "
    )
    assert webhook.url == "https://hooks.example.com/x"
    with pytest.raises(ValidationError):
        services.webhook_update(webhook=webhook, by=league.organiser, url="http://10.0.0.1/")
    webhook.refresh_from_db()
    assert webhook.url == "https://hooks.example.com/x"


def test_the_setting_lets_private_addresses_through(league, dns, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    webhook = services.webhook_create(
        campaign=league.campaign, by=league.organiser, url="http://127.0.0.1:8025/h"
    )
    assert webhook.url == "http://127.0.0.1:8025/h"
    with pytest.raises(ValidationError):  # the scheme is checked whatever the setting
        services.webhook_create(campaign=league.campaign, by=league.organiser, url="ftp://x/")


def test_is_public():
    assert urlguard.is_public(ipaddress.ip_address("93.184.215.14"))
    assert urlguard.is_public(ipaddress.ip_address("2606:4700::1111"))
    for address in (
        *("127.0.0.1", "10.0.0.1", "169.254.1.1", "::1", "::ffff:10.0.0.1", "::"),
        *("2002:7f00:1::", "fec0::1", "2001::1", "64:ff9b::a00:1", "2001:db8::1", "fc00::1"),
    ):
        assert not urlguard.is_public(ipaddress.ip_address(address)), address


def test_the_check_and_the_delivery_parse_the_url_the_same_way():
    target = urlguard.webhook_target("HTTPS://Hooks.Example.com:8443/x?y=1#frag")
    assert target == urlguard.Target("https", "hooks.example.com", 8443, "/x?y=1")
    assert urlguard.webhook_target("http://[2606:4700::1111]").host == "2606:4700::1111"
    with pytest.raises(urlguard.BadURL):
        urlguard.webhook_target("http://127.0.0.1:80@8.8.8.8/")


def test_page_and_api_answer_a_private_address_with_a_form_error_and_the_error_shape(
    league, dns, client, auth_client
):
    slug = league.campaign.slug
    client.force_login(league.organiser)
    response = client.post(
        reverse("campaign-webhooks", args=[slug]), {"url": "http://10.0.0.1/", "format": "json"}
    )
    assert response.status_code == 400
    assert "red privada" in response.content.decode()  # the page speaks Spanish by default

    auth_client.force_authenticate(league.organiser)
    base = f"/api/v1/campaigns/{slug}/webhooks/"
    response = auth_client.post(base, {"url": "http://169.254.169.254/"}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] and "url" in error["fields"]
    assert not Webhook.objects.exists()

    created = auth_client.post(base, {"url": "https://ok.example/h"}, format="json").json()
    response = auth_client.patch(
        f"{base}{created['id']}/", {"url": "http://[::1]:5432/"}, format="json"
    )
    assert response.status_code == 400 and "url" in response.json()["error"]["fields"]
    assert Webhook.objects.get().url == "https://ok.example/h"


def _delivery(league, url: str) -> WebhookDelivery:
    webhook = Webhook.objects.create(campaign=league.campaign, url=url)
    return WebhookDelivery.objects.create(webhook=webhook, event="job_failed", key="k", payload={})


def test_a_name_that_now_resolves_to_a_private_address_is_refused_at_delivery(
    league, monkeypatch, hook, settings
):
    """Saved while it pointed outside; DNS now says 127.0.0.1, where our hook listens."""
    fake_dns(monkeypatch, {"rebind.example": "93.184.215.14"})
    port = hook.server.server_address[1]
    url = f"http://rebind.example:{port}/hook"
    webhook = services.webhook_create(campaign=league.campaign, by=league.organiser, url=url)
    delivery = WebhookDelivery.objects.create(
        webhook=webhook, event="job_failed", key="k", payload={}
    )
    fake_dns(monkeypatch, {"rebind.example": "127.0.0.1"})

    attempt = services.webhook_delivery_attempt(delivery_id=delivery.pk)

    assert hook.requests == []
    delivery.refresh_from_db()
    assert (attempt.status, attempt.retry, delivery.attempts) == ("pending", True, 1)
    assert delivery.error.startswith("refused: rebind.example resolves to 127.0.0.1")
    webhook.refresh_from_db()
    assert webhook.consecutive_failures == 1

    # Allowed (development): the same delivery goes through to the local server.
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=None)
    attempt = services.webhook_delivery_attempt(delivery_id=delivery.pk)
    assert attempt.status == "sent" and len(hook.requests) == 1


def test_a_private_url_written_behind_the_services_back_is_not_posted_to(league, hook):
    delivery = _delivery(league, hook.url)  # 127.0.0.1, never checked
    services.webhook_delivery_attempt(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert hook.requests == [] and delivery.error.startswith("refused:")


@pytest.mark.parametrize(
    "written", ["http://x:y@{host}/h", "http://8.8.8.8:80@{host}/h", "http://{host}\\@8.8.8.8/"]
)
def test_a_url_with_credentials_or_backslashes_is_not_posted_to(league, hook, settings, written):
    settings.WEBHOOKS_ALLOW_PRIVATE = True  # even where private addresses are allowed
    host = hook.url.split("/")[2]
    delivery = _delivery(league, written.format(host=host))
    services.webhook_delivery_attempt(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert hook.requests == [] and delivery.error.startswith("refused: the address is not allowed")


def test_a_delivery_goes_to_the_parsed_host_port_and_path(league, hook, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    delivery = _delivery(league, hook.url + "?token=abc")
    attempt = services.webhook_delivery_attempt(delivery_id=delivery.pk)
    assert attempt.status == "sent" and [r.path for r in hook.requests] == ["/hook?token=abc"]
    assert hook.requests[0].headers["host"] == hook.url.split("/")[2]


def test_other_schemes_are_not_opened_at_delivery(league):
    delivery = _delivery(league, "file:///etc/passwd")
    services.webhook_delivery_attempt(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert delivery.error == "refused: only http:// and https:// addresses are allowed"
    assert delivery.response_code is None


def test_redirects_are_not_followed(league, hook, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    target = start_hook_server()
    try:
        hook.status = 307
        hook.headers = {"Location": target.url}
        delivery = _delivery(league, hook.url)
        services.webhook_delivery_attempt(delivery_id=delivery.pk)
        delivery.refresh_from_db()
        assert (delivery.response_code, delivery.error) == (307, "HTTP 307")
        assert len(hook.requests) == 1 and target.requests == []
    finally:
        target.stop()
