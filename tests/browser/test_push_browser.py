"""The installable app in Chromium: the service worker registers for the whole site and
shows the offline page when the network is gone; the settings page's "Notify me on this
device" asks for permission and subscribes, and the subscription reaches the API.

Headless Chromium may have no push service to subscribe at (its PushManager exists, but
``subscribe`` can fail without one): the button's flow is followed up to what it
answers, and the POST it makes is exercised from the page with a key made here, through
the same API, session and CSRF token. Decryption is tested against a push service of our
own in tests/push/test_delivery.py.
"""

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from push.endpoints import b64url_encode
from push.management.commands.make_vapid_keys import new_key_pair
from push.models import PushSubscription
from tests.browser import flows
from tests.factories import make_user
from tests.resolver import resolving

pytestmark = pytest.mark.browser

SUBSCRIBED = "This device now gets push messages"
NOT_SUBSCRIBED = "This device could not be subscribed"

POST_FROM_THE_PAGE = """
async ([endpoint, p256dh, auth]) => {
  const box = document.querySelector("[data-push]");
  const token = box.querySelector("input[name=csrfmiddlewaretoken]").value;
  const response = await fetch(box.dataset.api, {
    method: "POST",
    credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRFToken": token},
    body: JSON.stringify({endpoint, expirationTime: null, keys: {p256dh, auth}}),
  });
  return [response.status, await response.json()];
}
"""


def test_service_worker_offline_page_and_push_settings(site, visitors, settings, monkeypatch):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = new_key_pair()
    # Subscribing resolves the endpoint's host (the live server runs in this process).
    resolving(monkeypatch, {"push.example.net": "93.184.215.14"})
    make_user("anna@example.com")
    anna = visitors("Anna")
    anna.context.grant_permissions(["notifications"], origin=site.url)
    flows.sign_in(anna, "anna@example.com", start="/settings/")

    scope = anna.page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == site.url + "/"
    script = anna.page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
    assert script == site.url + "/sw.js"

    button = anna.page.get_by_role("button", name="Notify me on this device")
    assert button.is_visible()
    button.click()
    status = anna.page.locator("[data-push-status]")
    status.filter(has_text=SUBSCRIBED).or_(status.filter(has_text=NOT_SUBSCRIBED)).wait_for()
    if SUBSCRIBED in status.inner_text():  # a Chromium with a push service
        assert PushSubscription.objects.filter(user__email="anna@example.com").exists()
    else:
        assert not PushSubscription.objects.exists()

    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    p256dh = b64url_encode(
        key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    endpoint = "https://push.example.net/send/browser-test"
    answer, body = anna.page.evaluate(POST_FROM_THE_PAGE, [endpoint, p256dh, "A" * 22])
    assert answer == 201, body
    assert body["push_service"] == "https://push.example.net"
    saved = PushSubscription.objects.get(endpoint=endpoint)
    assert saved.user.email == "anna@example.com" and saved.p256dh == p256dh
    anna.assert_no_csp_violation()

    # Offline: a page that cannot load is the worker's cached offline page.
    anna.context.set_offline(True)
    anna.page.goto(site.url + "/games/")
    assert anna.page.get_by_role("heading", name="You are offline").is_visible()
    anna.context.set_offline(False)
    anna.console_errors.clear()  # the browser reports the failed load itself
