"""The provider's inbound webhook: anymail's Mailgun view, mounted only when configured."""

from anymail.webhooks.mailgun import MailgunInboundWebhookView
from django.conf import settings
from django.http import Http404, HttpResponse
from django.views.decorators.csrf import csrf_exempt

from .intake import UnreadableMessage, log_unreadable, read_raw

# Mailgun's "rejected, do not retry"; any other answer but 200 is retried for 8 hours.
NOT_ACCEPTABLE = 406


class BoundedMailgunInboundView(MailgunInboundWebhookView):
    """anymail's view, with the raw message refused before anymail parses it when it is
    too big to parse or read (``mailin.intake.read_raw``): anymail reads some of its
    headers before ``mailin.handler`` sees it, and a hostile header takes seconds."""

    def parse_events(self, request):
        raw = request.POST.get("body-mime")
        if raw is not None:
            read_raw(raw)  # a parsed copy, checked; anymail parses its own
        return super().parse_events(request)


_mailgun = BoundedMailgunInboundView.as_view()


@csrf_exempt
def mailgun_inbound(request, *args, **kwargs):
    """Mailgun's route ``forward()`` posts here; anymail checks its signature (else 400) and
    sends ``anymail.signals.inbound``, which ``mailin.handler`` receives.

    404 until ``MAILGUN_WEBHOOK_SIGNING_KEY`` is set: without the key nothing could be
    checked, and anymail would fail with a 500 on every post. 406 for a message that
    cannot be read (``UnreadableMessage``), logged once: Mailgun does not post it again.
    """
    if not settings.ANYMAIL.get("MAILGUN_WEBHOOK_SIGNING_KEY"):
        raise Http404
    try:
        return _mailgun(request, *args, **kwargs)
    except UnreadableMessage as error:
        log_unreadable(error)
        return HttpResponse(status=NOT_ACCEPTABLE)
