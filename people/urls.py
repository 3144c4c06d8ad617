"""The pages of people, mounted at /people/ (before games' player pages, /people/<public
id>/, which no route here takes: each of these has a second part)."""

from django.urls import path

from . import views

app_name = "people"

urlpatterns = [
    path("", views.my_people, name="mine"),
    path("<str:public_id>/follow/", views.follow, name="follow"),
    path("<str:public_id>/unfollow/", views.unfollow, name="unfollow"),
    path("<str:public_id>/block/", views.block, name="block"),
    path("<str:public_id>/unblock/", views.unblock, name="unblock"),
    path("games/<uuid:game_id>/follow/", views.follow_game, name="follow-game"),
    path("games/<uuid:game_id>/unfollow/", views.unfollow_game, name="unfollow-game"),
]
