"""The benchmark server's URLs: the project's, plus the bare move (``bench.bare``)."""

from django.urls import path

from bench.bare import bare_move
from piratz_site.urls import urlpatterns as project_urlpatterns

urlpatterns = [
    path("bench/bare-move/<uuid:game_id>/", bare_move, name="bench-bare-move"),
    *project_urlpatterns,
]
