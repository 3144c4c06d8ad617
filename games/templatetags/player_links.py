"""``{% player_link person %}``: a person's public name, linked to their player page.

Every page that names people links them through here, so every link uses the address that
stays theirs (``User.public_id``) and a deleted account (no page) is plain text.
"""

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def player_link(person) -> SafeString:
    """``person``'s public name as a link to ``/people/<public id>/``; only the name (never
    a link) once they deleted their account; nothing for no person."""
    if person is None:
        return format_html("")
    if person.erased_at is not None:
        return format_html("{}", person.public_name)
    url = reverse("games:player", args=[person.public_id])
    return format_html('<a href="{}">{}</a>', url, person.public_name)
