"""Which language a person reads: their setting, else their browser's; the switch sets it.

Pages and API answers: ``LocaleMiddleware`` picks the switch's cookie or the browser's
``Accept-Language`` (English when neither names a language of ``LANGUAGES``), then
``UserLanguageMiddleware`` (session sign-in) or ``ApiTokenAuthentication`` (API keys)
puts a signed-in person's own ``User.language`` in its place. Emails have no browser:
they are written in ``language_of(recipient)`` (``notifications.outbox.queue_email``).
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language


def is_language(code: str) -> bool:
    """Whether ``code`` is one of the site's languages (``settings.LANGUAGES``)."""
    return code in dict(settings.LANGUAGES)


def language_of(user, fallback: str | None = None) -> str:
    """The language to write to ``user`` in when no browser tells: theirs, else ``fallback``.

    ``fallback`` is the best guess for someone who never chose (e.g. the host's language
    for an invitation to a new address); without one it is ``settings.LANGUAGE_CODE``.
    ``user`` may be None (an address with no account yet).
    """
    chosen = getattr(user, "language", "") or ""
    if is_language(chosen):
        return chosen
    if fallback and is_language(fallback):
        return fallback
    return settings.LANGUAGE_CODE


def activate_for(request: HttpRequest, user) -> None:
    """Make ``user``'s own language the one this request answers in, if they chose one."""
    chosen = getattr(user, "language", "")
    if chosen and is_language(chosen):
        translation.activate(chosen)
        request.LANGUAGE_CODE = chosen


class UserLanguageMiddleware:
    """After ``AuthenticationMiddleware``: a signed-in person's setting beats the browser's.

    ``LocaleMiddleware`` (before it) already chose from the cookie and ``Accept-Language``
    and sets ``Content-Language`` on the way out from whatever is active then, so the
    answer's header follows this choice too.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            activate_for(request, user)
        return self.get_response(request)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The language switch (POST ``language`` and ``next``): Django's ``set_language``.

    It stores the choice in the language cookie and redirects to ``next`` (a path on this
    site only); for a signed-in person it also becomes their setting, so their emails
    follow it and it holds on any browser they sign in from.
    """
    response = django_set_language(request)
    code = request.POST.get("language", "")
    if request.user.is_authenticated and is_language(code) and request.user.language != code:
        get_user_model().objects.filter(pk=request.user.pk).update(language=code)
        request.user.language = code
    return response
