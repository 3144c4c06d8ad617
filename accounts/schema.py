"""OpenAPI (drf-spectacular) description of the API key ("Token <key>" or "Bearer <key>")
and of the session cookie."""

from drf_spectacular import authentication
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object

_ISSUE = "`manage.py issue_token EMAIL` issues one."


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """Found by drf-spectacular through its subclass registry; imported in AccountsConfig.ready.

    One key, two ways to send it, so two schemes of which a client uses either one.
    """

    target_class = "accounts.authentication.ApiTokenAuthentication"
    name = ["tokenAuth", "bearerAuth"]

    def get_security_requirement(self, auto_schema) -> list[dict]:
        # The default for several names is one requirement naming all (all at once);
        # either header alone is enough.
        return [{name: []} for name in self.name]

    def get_security_definition(self, auto_schema) -> list[dict]:
        token = build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Token"
        )
        token["description"] = f'An API key, sent as "Authorization: Token <key>". {_ISSUE}'
        bearer = build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Bearer"
        )
        bearer["description"] = f'The same API key, sent as "Authorization: Bearer <key>". {_ISSUE}'
        return [token, bearer]


class SessionScheme(authentication.SessionScheme):
    """drf-spectacular's ``cookieAuth`` for our subclass of DRF's session authentication
    (which refuses suspended players); its own extension matches DRF's class only."""

    target_class = "accounts.authentication.SessionAuthentication"
    priority = 0
