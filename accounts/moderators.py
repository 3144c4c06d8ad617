"""How a suspended or disabled player is told to reach the moderators (MODERATORS_CONTACT)."""

from django.conf import settings
from django.utils.translation import gettext as _


def if_mistaken_sentence() -> str:
    """The sentence after "you are suspended": names ``MODERATORS_CONTACT`` when set.

    Without an address it says so plainly: replies to game emails reach the mail-in
    parser, not a person, so "write to the moderators" alone left the player nowhere.
    """
    contact = settings.MODERATORS_CONTACT
    if contact:
        return _("If you think that is a mistake, write to the moderators at %(address)s.") % {
            "address": contact
        }
    return _(
        "If you think that is a mistake, tell the people who run this site: "
        "it publishes no address for its moderators."
    )
