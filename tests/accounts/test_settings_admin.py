"""Moderators may look at notification settings and vacations, never change them there."""

from datetime import UTC, datetime

import pytest

from accounts.models import NotificationSettings, Vacation

pytestmark = pytest.mark.django_db


@pytest.fixture
def vacation(player) -> Vacation:
    return Vacation.objects.create(
        user=player,
        starts_at=datetime(2026, 7, 1, tzinfo=UTC),
        ends_at=datetime(2026, 7, 8, tzinfo=UTC),
    )


@pytest.fixture
def notification_settings(player) -> NotificationSettings:
    return NotificationSettings.objects.create(
        user=player, mode="digest", time_zone="Europe/Berlin"
    )


def test_lists_show_the_rows(moderator_client, vacation, notification_settings):
    response = moderator_client.get("/admin/accounts/vacation/")
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [vacation]
    response = moderator_client.get("/admin/accounts/notificationsettings/", {"q": "anna"})
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [notification_settings]


@pytest.mark.parametrize("model", ["vacation", "notificationsettings"])
def test_rows_cannot_be_added_changed_or_deleted(
    moderator_client, vacation, notification_settings, model
):
    row = vacation if model == "vacation" else notification_settings
    assert moderator_client.get(f"/admin/accounts/{model}/add/").status_code == 403
    assert moderator_client.get(f"/admin/accounts/{model}/{row.pk}/delete/").status_code == 403
    page = moderator_client.get(f"/admin/accounts/{model}/{row.pk}/change/")
    assert page.status_code == 200  # the view page, read-only
    assert b'name="_save"' not in page.content
