"""The admin's chrome reads right (issue 24): the second factor's app has a readable
heading, and no page (the admin's or the site's) asks for an icon that is not there."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_totp_app_has_a_readable_heading(moderator_client):
    index = moderator_client.get("/admin/").content.decode()
    assert "Two-factor devices (TOTP)" in index
    assert "Otp_Totp" not in index and "OTP_TOTP" not in index
    devices = moderator_client.get("/admin/otp_totp/totpdevice/").content.decode()
    assert "Two-factor devices (TOTP)" in devices  # the breadcrumbs too


def test_the_site_and_the_admin_link_the_sites_icon(moderator_client):
    icon = '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
    assert icon in moderator_client.get("/admin/").content.decode()
    assert icon in Client().get("/admin/login/").content.decode()
    assert icon in Client().get("/").content.decode()  # templates/base.html: every page


def test_favicon_ico_leads_to_the_icon_not_a_404():
    client = Client()
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/favicon.svg"
    icon = client.get(response["Location"])
    assert icon.status_code == 200
    assert b"<svg" in b"".join(icon.streaming_content)
