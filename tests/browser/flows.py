"""What players do in the browser, step by step, by clicking: sign in from the login email,
create a game, answer an invitation, open a game from its email, play a move."""

import random
import re

from games import actions
from games.kinds.piratz import rules as piratz
from games.models import Game, GameStatus
from tests.browser.conftest import SETTLED, Visitor, a_game_id

INVITATION_LINK = r"/invitations/[^/\s]+/"
LOGIN_LINK = r"/accounts/login/[^/\s]+/"


def entry_link(game_id) -> str:
    """The path pattern of a game email's signed link to ``game_id``."""
    return rf"/games/{game_id}/enter/[^/\s]+/"


def sign_in(visitor: Visitor, email: str, *, start: str = "/accounts/login/") -> None:
    """Open ``start`` (the login page, or a page that asks to sign in first), ask for a
    login link, open it from the email and confirm: signed in, on the page it was for."""
    visitor.open(start)
    visitor.page.get_by_label("Email").fill(email)
    visitor.click("Email me a login link")
    visitor.open(visitor.site.link_in_last_email(email, LOGIN_LINK))
    visitor.click("Log in")


def create_game(visitor: Visitor, emails: list[str], *, blind: bool = False) -> Game:
    """Fill in "My games"' create form (seat order = ``emails``) and send it."""
    visitor.open("/games/")
    for number, email in enumerate(emails, start=1):
        visitor.page.get_by_label(re.compile(rf"^Player {number}\b")).fill(email)
    if blind:
        visitor.page.get_by_label(re.compile("^Blind mode")).check()
    visitor.click("Create the game")
    return Game.objects.filter(seats__user__email=emails[0]).latest("created_at")


def accept_invitation(visitor: Visitor, email: str) -> None:
    """Open the newest invitation email's link and accept."""
    visitor.open(visitor.site.link_in_last_email(email, INVITATION_LINK))
    visitor.click("Accept")
    # Values first, then assert: pytest's report of a failed assert would print the page's
    # address, and this one carries the invitation's token.
    answered = visitor.page.get_by_text(re.compile("accepted|started")).count()
    assert answered, visitor.where


def enter_game(visitor: Visitor, email: str, game_id) -> None:
    """Open the newest email's link to the game and press its button: on the table."""
    visitor.open(visitor.site.link_in_last_email(email, entry_link(game_id)))
    visitor.click(visitor.page.locator("main form button"))  # "Open the game", any language
    opened = a_game_id(visitor.where)
    assert opened == game_id


# --- The table ---------------------------------------------------------------------------


def table_version(visitor: Visitor) -> int:
    """The version of the game the page shows (the table root's ``data-version``), once
    the page has settled."""
    visitor.page.wait_for_function(SETTLED)
    root = visitor.page.locator("[data-version]")
    assert root.count(), f"{visitor.name}: no table (data-version) on {visitor.where}"
    return int(root.first.get_attribute("data-version"))


def offered_actions(visitor: Visitor) -> set[str]:
    """The kinds of move the page offers its reader now (its ``data-action`` forms)."""
    return set(
        visitor.page.eval_on_selector_all(
            "form[data-action]", "nodes => nodes.map(n => n.dataset.action)"
        )
    )


def play(visitor: Visitor, action: str, rng: random.Random) -> None:
    """Fill in one ``data-action=<action>`` form (a random one of several; a random
    choice in each of its radio groups and selects) and submit it with its button."""
    forms = visitor.page.locator(f'form[data-action="{action}"]')
    form = forms.nth(rng.randrange(forms.count()))
    names = form.evaluate(
        "f => [...new Set([...f.querySelectorAll('input[type=radio]')].map(r => r.name))]"
    )
    for name in names:
        radios = form.locator(f'input[type=radio][name="{name}"]:not([disabled])')
        visitor.choose(radios.nth(rng.randrange(radios.count())))
    selects = form.locator("select")
    for index in range(selects.count()):
        options = selects.nth(index).locator("option:not([disabled])")
        value = options.nth(rng.randrange(options.count())).get_attribute("value")
        selects.nth(index).select_option(value)
    visitor.click(form.locator("button, input[type=submit]").last)


def switch_language(visitor: Visitor, code: str) -> None:
    """Choose ``code`` in the language switch every page has, and send it."""
    switch = visitor.page.locator("form.language-switch")
    switch.locator("select").select_option(code)
    visitor.click(switch.locator("button"))


def step_through_the_replay(visitor: Visitor, game: Game, *, arrows: int = 1000) -> None:
    """Open the replay (it shows the latest move), go to the start with the "first" link,
    step forward with the "next" link, then with the arrow key (at most ``arrows`` times),
    then jump to the last move; every step is a page, checked like all pages."""
    visitor.open(f"/games/{game.id}/replay/")
    steps = visitor.page.locator("[data-replay-step-current]")
    assert steps.get_attribute("data-replay-step-current") == str(game.version)
    visitor.click(visitor.page.locator('a[data-replay-step="first"]'))
    assert steps.get_attribute("data-replay-step-current") == "0"
    visitor.click(visitor.page.locator('a[data-replay-step="next"]'))
    step = 1
    while visitor.page.locator('a[data-replay-step="next"]').count() and step <= arrows:
        visitor.press("ArrowRight")
        step += 1
        assert steps.get_attribute("data-replay-step-current") == str(step)
    if visitor.page.locator('a[data-replay-step="last"]').count():
        visitor.click(visitor.page.locator('a[data-replay-step="last"]'))
    assert steps.get_attribute("data-replay-step-current") == str(game.version)
    if game.status == GameStatus.FINISHED:
        assert visitor.page.locator("[data-replay-scoring]").count(), "the scoring explained"


def play_on_server(game: Game, users: list, *, until=None) -> Game:
    """Play moves through ``games.actions`` as the players' other clients would (the API,
    the emails' deadlines), until ``until(game)`` is true or the game ends: reveal, then
    end the turn or, with three cards face up, pass; a rat alert keeps its first choice.
    """
    while game.is_active and not (until and until(game)):
        state = game.load_state()
        seat = piratz.current_seat(state)
        offered = piratz.legal_actions(state, seat)
        kinds = {action["action"] for action in offered}
        wanted = "reveal" if "reveal" in kinds else "end_turn" if "end_turn" in kinds else None
        if wanted == "end_turn" and len(piratz.view(state, seat)["face_up"]) >= 3:
            wanted = "pass"
        action = next((a for a in offered if a["action"] == wanted), offered[0])
        game = actions.do_play_move(game.id, users[seat], game.version, action)
    return game
