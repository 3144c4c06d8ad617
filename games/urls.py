"""Player-facing pages of the games app."""

from django.urls import path

from games.views import (
    fairness,
    live,
    lobby,
    next_game,
    notes,
    players,
    rules,
    substitutes,
    table,
    together,
    watch,
)

app_name = "games"

urlpatterns = [
    path("", table.home, name="home"),
    path("invitations/<str:token>/", table.invitation, name="invitation"),
    # An emailed offer of an absent player's seat to a substitute (games/views/substitutes.py).
    path("substitute/<str:token>/", substitutes.offer_page, name="substitute"),
    path("games/", lobby.my_games, name="my-games"),
    # Anyone, signed in or not: the public games being played now or ended lately.
    path("games/public/", watch.public_games, name="public-games"),
    # "Next game": to the table where your move is due soonest.
    path("next/", next_game.next_game, name="next-game"),
    # Public: the rules as players read them; each rule id is an anchor (#P12, #R20).
    path("rules/<str:kind>/", rules.rules_page, name="rules"),
    path("games/<uuid:game_id>/replay/", lobby.replay, name="replay"),
    path("games/<uuid:game_id>/verification/", fairness.verification_page, name="verification"),
    path("games/<uuid:game_id>/", table.game_page, name="game"),
    path("games/<uuid:game_id>/move/", table.play_move, name="move"),
    path("games/<uuid:game_id>/take-back/", table.take_back_seat, name="take-back"),
    # The table's "My notes" form: the reader's private notes (games/views/notes.py).
    path("games/<uuid:game_id>/notes/", notes.save_notes, name="notes"),
    path("games/<uuid:game_id>/version/", table.game_version, name="version"),
    # The table's live stream (server-sent events; served by the ASGI process in
    # production: docs/operating.md "The table stream").
    path("games/<uuid:game_id>/events", live.game_events, name="events"),
    path("games/<uuid:game_id>/enter/<str:token>/", table.game_entry, name="enter"),
    # Playing together (games/views/together.py): the table's forms post here.
    path("games/<uuid:game_id>/resign/", together.resign, name="resign"),
    path("games/<uuid:game_id>/pause/", together.pause, name="pause"),
    path("games/<uuid:game_id>/resume/", together.resume, name="resume"),
    path("games/<uuid:game_id>/extend/", together.extend, name="extend"),
    path("games/<uuid:game_id>/hand-to-bot/", together.hand_to_bot, name="hand-to-bot"),
    # The host's chair: offer an absent player's seat to a substitute, or withdraw it.
    path("games/<uuid:game_id>/offer-seat/", substitutes.offer_seat, name="offer-seat"),
    path("games/<uuid:game_id>/withdraw-offer/", substitutes.withdraw_offer, name="withdraw-offer"),
    path("games/<uuid:game_id>/rematch/", together.rematch, name="rematch"),
    # The host's chair: who may watch the game, and whether they read its table talk.
    path("games/<uuid:game_id>/spectators/", watch.set_spectators, name="spectators"),
    # A person's record, at the address that is theirs for good (User.public_id); and the
    # old address by the name others see (which may hold a "/"), which leads there.
    path("people/<str:public_id>/", players.player_page, name="player"),
    path("players/<path:name>/", players.player_by_name, name="player-by-name"),
]
