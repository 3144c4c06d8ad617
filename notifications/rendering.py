"""Rendering an outbox email from its templates, and the JSON form its context is kept in.

``queue_email`` stores what to render (template, context, language) instead of the
rendered email whenever the context survives a trip through JSON unchanged; the email is
rendered when it is read (``OutboundEmail``'s content fields), i.e. by the worker that
sends it. Why: rendering three templates is a third of a move that passes the turn, and
the move holds its game's row lock meanwhile (BENCHMARKS.md "API").

A context may go further and be *composed* when read (``Composed``): the row then keeps
only a registered composer's name and its JSON arguments (a snapshot of what the email
must show), and the composer builds the context in the worker. Why: composing the turn
email (the recap read from the move log, the table put in words) cost more than
rendering it, inside the move's transaction (BENCHMARKS.md "Move path").
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import cast

from django.conf import settings
from django.template import Context
from django.template.backends.django import Template as DjangoBackendTemplate
from django.template.loader import get_template, render_to_string
from django.utils import translation
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe

SUBJECT_MAX_LENGTH = 255  # OutboundEmail.subject's max_length
# Values JSON has no type for are kept as {"$<tag>": <text>}; a context dict whose own keys
# start with "$" could be mistaken for one, so such a context is rendered at once instead.
_TAG = "$"
# A composed context is stored as {"$compose": <composer name>, "$arguments": {...}}.
_COMPOSE = _TAG + "compose"
_ARGUMENTS = _TAG + "arguments"


def render_email(
    template: str, context: dict, *, language: str | None = None
) -> tuple[str, str, str]:
    """The (subject, plain text, HTML) of ``templates/emails/<template>/`` with ``context``.

    Rendered in ``language`` (default ``settings.LANGUAGE_CODE``): the translations, and
    the ``date``/number filters' localised formats, are the recipient's.
    """
    context = {**context, "site_url": settings.SITE_URL}
    with translation.override(language or settings.LANGUAGE_CODE):
        subject = " ".join(_render_plain(f"emails/{template}/subject.txt", context).split())
        body_text = _render_plain(f"emails/{template}/body.txt", context).strip() + "\n"
        body_html = render_to_string(f"emails/{template}/body.html", context)
    if len(subject) > SUBJECT_MAX_LENGTH:
        subject = subject[: SUBJECT_MAX_LENGTH - 1] + "…"
    return subject, body_text, body_html


def check_templates(template: str) -> None:
    """Raise ``TemplateDoesNotExist`` unless all three templates of ``template`` exist
    (cheap: the loaded templates are cached)."""
    for name in ("subject.txt", "body.txt", "body.html"):
        get_template(f"emails/{template}/{name}")


def _render_plain(name: str, context: dict) -> str:
    # Plain text is not HTML: a player called "Tom & Jerry" must not arrive as "Tom &amp; Jerry".
    # The project's templates are the Django template language's (settings.TEMPLATES).
    template = cast(DjangoBackendTemplate, get_template(name))
    return template.template.render(Context(context, autoescape=False))


class NotJsonSafe(ValueError):
    """The context holds a value ``context_to_json`` cannot keep exactly."""


# Composer name -> function(**arguments) -> context; filled by ``composer``.
_COMPOSERS: dict[str, Callable[..., dict]] = {}


def composer(name: str):
    """Register the decorated function as the composer ``name`` (see ``Composed``).

    The function takes the ``Composed`` arguments as keywords and returns the context
    dict; it runs in the recipient's language and may read the database. It must be
    registered by the time a worker reads the row: define it in a module that its app's
    ``ready()`` imports. Names are stored in rows, so a renamed composer strands them.
    """

    def register(function: Callable[..., dict]) -> Callable[..., dict]:
        if _COMPOSERS.get(name, function) is not function:
            raise ValueError(f"the email composer {name!r} is registered twice")
        _COMPOSERS[name] = function
        return function

    return register


@dataclass(frozen=True)
class Composed:
    """A context to build when the email is read: ``composer(**arguments)``.

    For ``queue_email``'s ``context``: the row keeps the composer's name and the
    arguments (which must be JSON-safe as ``context_to_json`` defines it), not the
    context. The arguments must hold everything the email shows that may change before
    the email is sent (e.g. the game's state when the turn began): the composer reads
    the rest from the database when the worker sends it. They are kept in a JSON column,
    which on PostgreSQL (jsonb) does not keep the order of a dict's keys: pass a dict
    whose order matters as JSON text.
    """

    composer: str
    arguments: dict


def context_to_json(context: dict | Composed, language: str | None = None) -> dict:
    """``context`` as JSON-ready data that ``context_from_json`` turns back into an equal
    context (or, for a ``Composed`` one, into the context its composer builds then);
    raises ``NotJsonSafe`` for anything it could not give back exactly.

    Kept: str (lazy translations made text in ``language``, as rendering would), int,
    float, bool, None, lists, dicts with str keys, and, tagged, HTML marked safe,
    datetimes and dates. Not kept (the caller renders at once): tuples, sets, model
    instances, any other object. A ``Composed`` context's arguments must be kept:
    otherwise ``NotJsonSafe`` (it cannot be rendered at once either), as it is for a
    composer nobody registered.
    """
    with translation.override(language or settings.LANGUAGE_CODE):
        if isinstance(context, Composed):
            if context.composer not in _COMPOSERS:
                raise NotJsonSafe(f"no email composer is registered as {context.composer!r}")
            return {_COMPOSE: context.composer, _ARGUMENTS: _encode(context.arguments)}
        return _encode(context)


def context_from_json(data: dict, language: str | None = None) -> dict:
    """The context ``context_to_json`` stored; a composed one is built now, in ``language``
    (the recipient's; default ``settings.LANGUAGE_CODE``)."""
    if _COMPOSE in data:
        with translation.override(language or settings.LANGUAGE_CODE):
            return _COMPOSERS[data[_COMPOSE]](**_decode(data[_ARGUMENTS]))
    return _decode(data)


def _encode(value):
    if isinstance(value, Promise):
        value = str(value)
    if isinstance(value, SafeString):
        return {_TAG + "safe": str.__str__(value)}
    if isinstance(value, str):
        return str.__str__(value)  # a StrEnum renders as its value, and so does this
    if value is None or type(value) in (bool, int, float):
        return value
    if isinstance(value, datetime):
        return {_TAG + "datetime": value.isoformat()}
    if isinstance(value, date):
        return {_TAG + "date": value.isoformat()}
    if type(value) is list:
        return [_encode(item) for item in value]
    if type(value) is dict:
        if not all(isinstance(key, str) and not key.startswith(_TAG) for key in value):
            _refuse(value)
        return {key: _encode(item) for key, item in value.items()}
    return _refuse(value)


def _refuse(value):
    raise NotJsonSafe(f"{type(value).__name__} is not kept exactly in JSON")


_DECODERS: dict[str, Callable[[str], object]] = {
    _TAG + "safe": mark_safe,
    _TAG + "datetime": datetime.fromisoformat,
    _TAG + "date": date.fromisoformat,
}


def _decode(value):
    if type(value) is list:
        return [_decode(item) for item in value]
    if type(value) is dict:
        if len(value) == 1:
            ((key, text),) = value.items()
            if key in _DECODERS:
                return _DECODERS[key](text)
        return {key: _decode(item) for key, item in value.items()}
    return value
