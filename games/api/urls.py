"""URLs of the games REST API, mounted at /api/."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games.api import notes, standing_order, substitutes, take_back, together, views, watching
from games.api.verification import verification

urlpatterns = [
    path("games/", views.GameListCreateView.as_view(), name="api-games"),
    # Anyone, signed in or not: the public games being played or ended lately.
    path("games/public/", watching.PublicGamesView.as_view(), name="api-games-public"),
    path("games/next/", watching.next_game, name="api-games-next"),
    path("games/<uuid:game_id>/", views.game_detail, name="api-game"),
    path("games/<uuid:game_id>/accept/", views.accept_invitation, name="api-game-accept"),
    path("games/<uuid:game_id>/decline/", views.decline_invitation, name="api-game-decline"),
    path("games/<uuid:game_id>/moves/", views.MoveView.as_view(), name="api-game-moves"),
    path(
        "games/<uuid:game_id>/standing-order/",
        standing_order.standing_order,
        name="api-game-standing-order",
    ),
    path("games/<uuid:game_id>/verification/", verification, name="api-game-verification"),
    path("games/<uuid:game_id>/take-back/", take_back.take_back, name="api-game-take-back"),
    path("games/<uuid:game_id>/resign/", together.resign, name="api-game-resign"),
    path("games/<uuid:game_id>/pause/", together.pause, name="api-game-pause"),
    path("games/<uuid:game_id>/resume/", together.resume, name="api-game-resume"),
    path("games/<uuid:game_id>/extend/", together.extend, name="api-game-extend"),
    path("games/<uuid:game_id>/rematch/", together.rematch, name="api-game-rematch"),
    # The host's chair offers an absent player's seat to a substitute (docs/api.md).
    path(
        "games/<uuid:game_id>/seats/<int:seat>/substitute/",
        substitutes.seat_offer,
        name="api-game-seat-offer",
    ),
    path("games/<uuid:game_id>/spectators/", watching.spectators, name="api-game-spectators"),
    # The caller's private notes on the game (issue 34): nobody else's, staff's neither.
    path("games/<uuid:game_id>/notes/", notes.game_notes, name="api-game-notes"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file (?script), and
    # templates/api/docs.html has no inline style: no exception to the site's CSP.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api/docs.html"),
        name="api-docs",
    ),
]
