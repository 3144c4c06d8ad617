"""The request type of a view behind ``login_required``: its user has signed in."""

from django.http import HttpRequest

from accounts.models import User


class AuthenticatedHttpRequest(HttpRequest):
    """An ``HttpRequest`` whose ``user`` is a signed-in ``User``; a type for views only.

    ``login_required`` guarantees it at run time, which the type checker cannot see.
    """

    user: User
