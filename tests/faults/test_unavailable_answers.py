"""What a request answers when every query fails as with the database gone (in-process).

``connection.execute_wrapper`` makes each query raise Django's ``OperationalError``, as a
stopped server does; tests/faults/test_postgres_restart.py does the same against a real
PostgreSQL that is stopped and started. Runs on SQLite too.
"""

import json

import pytest
from django.db import OperationalError, connection

from tests.factories import client_for

pytestmark = pytest.mark.django_db


def database_gone(execute, sql, params, many, context):
    raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")


@pytest.mark.parametrize("debug", [False, True])
def test_the_api_answers_503_unavailable_with_retry_after(anna, game, settings, debug):
    settings.DEBUG = debug
    client = client_for(anna)
    with connection.execute_wrapper(database_gone):
        response = client.post(f"/api/games/{game.id}/moves/", {"version": 0}, format="json")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content)["code"] == "unavailable"
    assert response["Retry-After"] == "5"


@pytest.mark.parametrize("debug", [False, True])
def test_a_page_answers_a_plain_503_not_a_traceback(anna, client, settings, debug):
    settings.DEBUG = debug
    client.raise_request_exception = False  # a real server answers; the test client re-raises
    client.force_login(anna)
    with connection.execute_wrapper(database_gone):
        response = client.get("/games/")
    body = response.content.decode()
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "<h1>" in body and "Traceback" not in body and "OperationalError" not in body


def test_an_api_address_no_view_answers_gets_the_json_503(settings, client):
    """A session cookie makes middleware read the database before any view runs."""
    client.raise_request_exception = False
    client.cookies["sessionid"] = "abcdefghijklmnopqrstuvwxyz012345"
    with connection.execute_wrapper(database_gone):
        response = client.get("/api/no-such-address/")
    assert response.status_code == 503
    assert json.loads(response.content)["code"] == "unavailable"


def test_a_bug_is_still_a_500(anna, game, settings):
    settings.DEBUG = False

    def bug(execute, sql, params, many, context):
        raise ZeroDivisionError

    client = client_for(anna)
    with connection.execute_wrapper(bug):
        response = client.get(f"/api/games/{game.id}/")
    assert response.status_code == 500
    assert json.loads(response.content)["code"] == "server_error"


def test_the_schema_documents_503_on_every_operation(client):
    schema = json.loads(
        client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content
    )
    for item in schema["paths"].values():
        for method, operation in item.items():
            if method in {"get", "post", "put", "patch", "delete"}:
                assert "503" in operation["responses"], method
