"""What a push message says: a title, a line and the game page to open.

Public information only (the game's name, the other players' public names): a push
service and a lock screen may show it. No link token: the game page asks its reader to
sign in unless the browser is already.
"""

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.languages import language_of
from accounts.schedule import EmailKind
from games.models import Game

TITLES = {
    EmailKind.YOUR_TURN: gettext_lazy("Your turn in %(game)s"),
    EmailKind.REMINDER: gettext_lazy("Your turn in %(game)s ends soon"),
    EmailKind.AUTO_MOVED: gettext_lazy("A move was played for you in %(game)s"),
    EmailKind.GAME_STARTED: gettext_lazy("%(game)s has started"),
    EmailKind.GAME_OVER: gettext_lazy("%(game)s is over"),
    EmailKind.GAME_ENDED: gettext_lazy("%(game)s was ended early"),
}


def payload_for(game: Game, user, kind: str) -> dict:
    """``{"title", "body", "url"}`` for news of ``kind`` about ``game``, in ``user``'s
    language; ``url`` the game's page."""
    with translation.override(language_of(user)):  # a seat's label has a word: "· bot"
        others = [
            seat.public_name
            for seat in game.seats.select_related("user").order_by("seat")
            if seat.user_id != user.pk
        ]
        title = str(TITLES[EmailKind(kind)]) % {"game": game.rules.NAME}
        body = _("A game with %(players)s. Open it to see the table.") % {
            "players": ", ".join(others)
        }
    return {
        "title": title,
        "body": body,
        "url": settings.SITE_URL + reverse("games:game", args=[game.id]),
    }
