"""The rules pages for players, ``/rules/<kind>/``: each game's rules in our own words.

A game offers a page through its spec (``GameSpec.rules_templates``, one body per
language, and ``rules_context`` for its drawings); a game without one has no page (404)
and no "Rules" links. The pages are public: someone invited, not yet signed in, reads
the rules before accepting. Each rule id (P12, R20) is an element id on the page, so the
ids the code and docs/rules/ cite resolve to ``/rules/<kind>/#P12``.

Why a body per language rather than ``{% blocktranslate %}`` paragraphs: the rules are a
few pages of prose whose examples are told differently in each language; whole texts are
read, reviewed and corrected as texts, where a hundred long .po entries would not be. The
page's frame (title, headings of the site) still goes through the .po.
"""

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation

from games.catalogue import GameSpec, UnknownGame, spec_for


def rules_path(kind) -> str:
    """The path of the rules page of the game ``kind``, or ``""`` when it has none (an
    unknown kind, or a game without ``rules_templates``)."""
    try:
        spec = spec_for(kind)
    except UnknownGame:
        return ""
    if not spec.rules_templates:
        return ""
    return reverse("games:rules", args=[spec.kind])


def body_template(spec: GameSpec, language: str) -> tuple[str, str]:
    """``(template, language)`` of the body read in ``language`` (``"de"``, ``"de-at"``):
    its own, else the site default language's, else the first the game has."""
    templates = spec.rules_templates
    for code in (language, language.split("-")[0], settings.LANGUAGE_CODE):
        if code in templates:
            return templates[code], code
    code = next(iter(templates))
    return templates[code], code


def rules_page(request: HttpRequest, kind: str) -> HttpResponse:
    """The rules of ``kind`` in the request's language (the site's language switch or the
    browser's); 404 for an unknown game or one without a rules page."""
    try:
        spec = spec_for(kind)
    except UnknownGame:
        raise Http404("no such game") from None
    if not spec.rules_templates:
        raise Http404("this game has no rules page")
    body, language = body_template(spec, translation.get_language() or settings.LANGUAGE_CODE)
    context = spec.rules_context() if spec.rules_context else {}
    return render(
        request,
        "games/rules_page.html",
        {
            **context,
            "game_name": spec.name,
            "kind": spec.kind,
            "body_template": body,
            "body_language": language,
        },
    )
