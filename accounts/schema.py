"""OpenAPI (drf-spectacular) description of the ``Authorization: Token <key>`` scheme."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """Found by drf-spectacular through its subclass registry; imported in AccountsConfig.ready."""

    target_class = "accounts.authentication.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema) -> dict:
        definition = build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Token"
        )
        definition["description"] = (
            'An API key, sent as "Authorization: Token <key>". '
            "`manage.py issue_token EMAIL` issues one."
        )
        return definition
