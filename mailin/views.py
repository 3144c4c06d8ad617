"""The provider's inbound webhook: anymail's Mailgun view, mounted only when configured."""

from anymail.webhooks.mailgun import MailgunInboundWebhookView
from django.conf import settings
from django.http import Http404
from django.views.decorators.csrf import csrf_exempt

_mailgun = MailgunInboundWebhookView.as_view()


@csrf_exempt
def mailgun_inbound(request, *args, **kwargs):
    """Mailgun's route ``forward()`` posts here; anymail checks its signature (else 400) and
    sends ``anymail.signals.inbound``, which ``mailin.handler`` receives.

    404 until ``MAILGUN_WEBHOOK_SIGNING_KEY`` is set: without the key nothing could be
    checked, and anymail would fail with a 500 on every post.
    """
    if not settings.ANYMAIL.get("MAILGUN_WEBHOOK_SIGNING_KEY"):
        raise Http404
    return _mailgun(request, *args, **kwargs)
