"""Rattenscharf's emails: the turn email with the table in words and drawn as text, the recap,
one email for a timed-out turn of two strips (R34), game over by rats (R23) and complete
(R25, R26), abandonment (R36), in German for a German reader; digests and stand-in emails
that name the game; never the draw order (R33)."""

import re

import pytest

from accounts.models import NotificationSettings, User
from games import actions
from games.kinds.rattenscharf import rules as rattenscharf
from games.models import Game, GameStatus
from games.notify import table_changes
from games.notify.digest import queue_digest
from games.templatetags.game_names import end_reason
from notifications.models import OutboundEmail
from tests.factories import start_game
from tests.notifications.conftest import emails
from tests.po_catalog import GERMAN_PO, english_left_in, read_po
from tests.rules.rattenscharf.helpers import GAME_A, GAME_R, order
from tests.rules.rattenscharf.helpers import act as place

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_and_clock")]

# docs/rules/rattenscharf.md, Example 5 (game R): green loses to the rats on turn 4.
RAT_TURNS = [
    [(17, 2, 0, "h", False)],
    [(20, -1, 1, "h", False), (18, 2, 1, "h", False)],
    [(24, -1, 2, "h", False), (33, 1, 0, "h", False)],
    [(41, 2, 2, "h", False), (42, 5, 0, "v", False)],
]


def play(game: Game, users, *moves) -> Game:
    for strip, x, y, orientation, flip in moves:
        user = users[game.current_seat]
        game = actions.do_play_move(
            game.id, user, game.version, place(strip, x, y, orientation, flip)
        )
        game.refresh_from_db()
    return game


def new_game(anna, bert, first=GAME_A, **options) -> Game:
    game = start_game([anna, bert], game="rattenscharf", order=order(*first), **options)
    OutboundEmail.objects.all().delete()
    return game


def assert_no_draw_order(game: Game) -> None:
    """R33: no email names a strip still in the pile, nor lists the pile's order."""
    game.refresh_from_db()
    state = game.load_state()
    pile = set(state.pile)
    secret = ", ".join(str(s) for s in state.pile[:4])
    for mail in OutboundEmail.objects.all():
        for part in (mail.subject, mail.body_text, mail.body_html):
            named = {int(n) for n in re.findall(r"(?:strip|Streifen) (\d+)", part)}
            assert not named & pile, (mail.template, named & pile)
            assert not pile or secret not in part


def test_turn_email_tells_the_table_and_the_recap_r31(anna, bert):
    game = new_game(anna, bert)
    game = play(
        game, [anna, bert], (1, 2, 0, "h", False), (3, 2, 1, "h", False), (13, 0, 0, "h", False)
    )

    [mail] = emails("your_turn", anna)
    text = mail.body_text
    assert mail.subject == "Your turn in Rattenscharf with Bert"
    assert "after that the service places your strips for you (rule R34)" in text
    assert "SINCE YOUR LAST TURN" in text
    assert (
        "- Bert placed strip 13 (green cardamom, red chili, green basil) at (0, 0), horizontal, "
        "on level 2: green scored 1 for basil. You drew strip 10 (red paprika, green wasabi, "
        "green jalapeno); strip 2 (green jalapeno, red paprika, green cardamom)." in text
    )
    assert "- Bert placed strip 3 (green jalapeno, red paprika, green jalapeno) at (2, 1)" in text
    assert "You placed strip 1" not in text  # the recap starts after the reader's own move
    assert "THE TABLE (turn 3 of 22)" in text
    assert "Scores: you (red) 0; Bert (green) 1" in text
    assert "Visible rats: red 0; green 0" in text
    assert "Your hand: strip 10 (red paprika, green wasabi, green jalapeno); strip 2 (" in text
    assert "Draw pile: 37 strips" in text
    # The board as docs/rules/rattenscharf.md draws it after turn 2 (Example 1).
    assert "  0  ---1 gCa2 rCh2 gBa2 gBa1 rSa1\n" in text
    assert "  1     .    .    . gJa1 rPa1 gJa1\n" in text
    # The HTML part: a plain table, no script.
    assert '<td title="green basil"' in mail.body_html
    assert "<script" not in mail.body_html
    assert_no_draw_order(game)


def test_two_rats_warn_the_player_r22(anna, bert):
    game = new_game(anna, bert, GAME_R)
    game = play(game, [anna, bert], *RAT_TURNS[0], *RAT_TURNS[1])
    [mail] = emails("your_turn", anna)
    assert "Visible rats: red 2; green 1" in mail.body_text
    assert (
        "Careful: 2 of your rats (red) show. With 3 or more at the end of your own turn you "
        "lose (rule R22)." in mail.body_text
    )
    assert "Careful: 2 of your rats (red) show." in mail.body_html


def test_a_timed_out_turn_of_two_strips_is_one_email_r34(anna, bert, time_machine):
    game = new_game(anna, bert)
    game = play(game, [anna, bert], (1, 2, 0, "h", False))
    OutboundEmail.objects.all().delete()
    time_machine.move_to(game.deadline, tick=False)
    actions.do_play_timeout(game.id, expected_version=game.version)
    game.refresh_from_db()

    [mail] = emails("auto_moved", bert)
    assert mail.subject == "Your time ran out: the service moved for you in Rattenscharf with Anna"
    moves = list(game.moves.order_by("number"))[1:]
    assert len(moves) == 2 and all(m.automatic for m in moves)
    for move in moves:
        assert f"You placed strip {move.action['strip']} (" in mail.body_text
    assert mail.body_text.count("(Played automatically: the deadline had passed.)") == 2
    # R35's choices here (Example 5's vectors for game A): 13@(0,0)h scores green 1.
    assert "at (0, 0), horizontal, on level 2: green scored 1 for basil." in mail.body_text
    assert "Points from these moves: Anna (red): 0; You (green): 1." in mail.body_text
    assert "If both players miss a whole turn back to back" in mail.body_text
    assert [m.to for m in emails("auto_moved")] == [bert.email]  # one email for the turn
    assert [m.to for m in emails("your_turn")] == [anna.email]
    assert_no_draw_order(game)


def test_game_over_by_rats_r23(anna, bert):
    game = new_game(anna, bert, GAME_R)
    game = play(game, [anna, bert], *[m for turn in RAT_TURNS for m in turn])
    assert game.status == GameStatus.FINISHED

    anna_mail = emails("game_over", anna)[0]
    bert_mail = emails("game_over", bert)[0]
    assert anna_mail.subject == "Game over: you won in Rattenscharf with Bert"
    assert bert_mail.subject == "Game over: Anna won in Rattenscharf with Anna"
    assert (
        "Bert ended their turn with 3 of their rats (green) showing and lost (rule R23). "
        "There is no final scoring." in anna_mail.body_text
    )
    assert "You ended your turn with 3 of your rats (green) showing and lost" in bert_mail.body_text
    assert "- You (red): 0 points (winner); 0 from placements, 0 from the final scoring" in (
        anna_mail.body_text
    )
    assert "- Bert (green): 1 point; 1 from placements" in anna_mail.body_text
    assert "Final scoring (rule R25)" not in anna_mail.body_text
    assert_no_draw_order(game)


def test_game_over_complete_with_final_scoring_r25_r26(anna, bert):
    game = start_game([anna, bert], game="rattenscharf", seed=1)
    users = [anna, bert]
    while game.status == GameStatus.ACTIVE:
        action = rattenscharf.timeout_action(game.load_state())
        game = actions.do_play_move(game.id, users[game.current_seat], game.version, action)
        game.refresh_from_db()
    result = game.result
    assert result["reason"] == "complete"

    mail = emails("game_over", anna)[0]
    text = mail.body_text
    assert "Every strip is placed: every group of 2 or more cells scored once more" in text
    assert "Final scoring (rule R25):" in text
    for event in result["final_scoring"]:
        colour = ("red", "green")[event["seat"]]
        spice = event["spice"].split(":")[1]
        line = f"- {colour} scored {event['points']} for {spice} ({len(event['cells'])} cells)"
        assert line in text
    for player in result["players"]:
        name = "You" if player["seat"] == 0 else "Bert"
        assert f"- {name} ({player['colour']}): {player['score']} points" in text
        assert (
            f"{player['placement_points']} from placements, {player['final_points']} from the "
            "final scoring" in text
        )
    winners = ["You" if s == 0 else "Bert" for s in result["winners"]]
    if len(winners) == 1:
        assert f"Winner: {winners[0]}" in text
    assert_no_draw_order(game)


R36_WARNING = (
    "If both players miss a whole turn back to back, the game ends without a result (rule R36)."
)


def test_abandoned_after_two_missed_turns_r36(anna, bert, time_machine):
    game = new_game(anna, bert)
    while game.status == GameStatus.ACTIVE:
        time_machine.move_to(game.deadline, tick=False)
        actions.do_play_timeout(game.id, expected_version=game.version)
        game.refresh_from_db()
    assert game.end_reason == "abandoned"
    assert end_reason(game) == "both players missed a whole turn back to back (rule R36)"
    mails = emails("game_ended")
    assert sorted(m.to for m in mails) == [anna.email, bert.email]
    assert mails[0].subject.startswith("Your game of Rattenscharf with ")
    assert (
        "has ended without a result:\nboth players missed a whole turn back to back, so the "
        "game counts as abandoned (rule R36)." in mails[0].body_text
    )
    # Anna's timed-out turn warned of R36; Bert's, whose placements ended the game, warns
    # of nothing to come.
    *before, last = emails("auto_moved")
    assert [m.to for m in before] == [anna.email] and last.to == bert.email
    assert R36_WARNING in before[0].body_text and R36_WARNING in before[0].body_html
    for part in (last.body_text, last.body_html):
        assert "If both players miss" not in part
    assert_no_draw_order(game)


def test_with_stand_in_bots_the_auto_moved_email_says_bots_take_over_r36(anna, bert, time_machine):
    game = new_game(anna, bert, stand_in_bots=True)
    time_machine.move_to(game.deadline, tick=False)
    actions.do_play_timeout(game.id, expected_version=game.version)

    [mail] = emails("auto_moved", anna)
    sentence = (
        "If both players miss a whole turn back to back, bots take over their seats (rule R36)."
    )
    for part in (mail.body_text, mail.body_html):
        assert sentence in part
        assert "the game ends" not in part and "P25" not in part


# --- In the reader's language; digests and stand-ins name the game -------------------------------


def german(user: User) -> User:
    User.objects.filter(pk=user.pk).update(language="de")
    user.refresh_from_db()
    return user


def assert_all_german(mail: OutboundEmail) -> None:
    catalog = read_po(GERMAN_PO)
    for part in (mail.subject, mail.body_text, mail.body_html):
        assert english_left_in(part, catalog) == [], (mail.template, part)


def test_turn_email_and_game_over_in_german_r22_r23_r31(anna, bert):
    german(anna)  # Bert keeps English: each reads their own language
    game = new_game(anna, bert, GAME_R)
    game = play(game, [anna, bert], *RAT_TURNS[0], *RAT_TURNS[1])

    [mail] = emails("your_turn", anna)
    text = mail.body_text
    assert mail.subject == "Du bist am Zug in Rattenscharf mit Bert"
    assert (
        "du bist am Zug in Rattenscharf mit Bert.\nZieh bis Freitag, 22. November, 09:00 UTC; "
        "danach legt der Dienst deine Streifen für dich (Regel R34)." in text
    )
    assert "SEIT DEINEM LETZTEN ZUG" in text
    assert (
        "- Bert hat Streifen 20 (Ratte (rot), Basilikum (grün), Chili (rot)) auf (-1, 1) "
        "gelegt, waagerecht, auf Ebene 1: keine Punkte." in text
    )
    assert "DER TISCH (Zug 3 von 22)" in text
    assert "Punkte: du (rot) 0; Bert (grün) 0" in text
    assert "Sichtbare Ratten: rot 2; grün 1" in text
    warning = "Vorsicht: 2 deiner Ratten (rot) sind sichtbar. Mit 3 oder mehr am Ende deines"
    assert warning in text and warning in mail.body_html  # R22
    assert "Deine Hand: Streifen 24 (Zimt (rot), Ratte (rot), Jalapeño (grün)); Streifen 33" in text
    assert "Stapel: 37 Streifen" in text
    assert "rRt Ratte (rot), gRt Ratte (grün); --- leer; Sta Startfeld." in text
    assert '<html lang="de">' in mail.body_html
    assert_all_german(mail)

    game = play(game, [anna, bert], *[m for turn in RAT_TURNS[2:] for m in turn])
    assert game.status == GameStatus.FINISHED
    [over] = emails("game_over", anna)
    assert over.subject == "Spielende: Du hast gewonnen in Rattenscharf mit Bert"
    assert (
        "deine Partie Rattenscharf mit Bert ist zu Ende.\nBert hat den Zug mit 3 sichtbaren "
        "Ratten der eigenen Farbe (grün) beendet und verloren (Regel R23). Es gibt keine "
        "Schlusswertung.\nGewinner: Du" in over.body_text
    )
    assert (
        "- Du (rot): 0 Punkte (Gewinner); 0 aus dem Legen, 0 aus der Schlusswertung; "
        "sichtbare Ratten: 4" in over.body_text
    )
    assert "DER TISCH (Zug 4 von 22)" in over.body_text
    assert_all_german(over)
    [bert_over] = emails("game_over", bert)
    assert bert_over.subject == "Game over: Anna won in Rattenscharf with Anna"
    assert_no_draw_order(game)


R34_DIGEST = "When a deadline passes, the service places your strips for you (rule R34)."
P24_DIGEST = "When a deadline passes, the service passes for you (rules P24)."


def test_a_digest_of_rattenscharf_games_names_the_game_and_r34(anna, bert):
    NotificationSettings.objects.create(user=bert, mode="digest")
    game = start_game([bert, anna], game="rattenscharf", order=order(*GAME_A))  # Bert moves
    assert queue_digest(bert, [game]) is True
    [digest] = emails("digest", bert)
    assert digest.subject == "1 game of Rattenscharf waits for your move"
    text = digest.body_text
    assert "- Rattenscharf with Anna: play before Friday 22 November, 09:00 UTC" in text
    assert R34_DIGEST in text and R34_DIGEST in digest.body_html
    assert "Piratz with" not in text and "P24" not in text


def test_a_digest_of_both_games_names_each_and_what_its_deadline_does(anna, bert, carla):
    NotificationSettings.objects.create(user=bert, mode="digest")
    ratten = start_game([bert, anna], game="rattenscharf", order=order(*GAME_A))
    piratz_game = start_game([bert, carla])  # Bert (seat 0) moves in both
    assert queue_digest(bert, [ratten, piratz_game]) is True
    [digest] = emails("digest", bert)
    assert digest.subject == "2 games wait for your move"
    text = digest.body_text
    assert "- Rattenscharf with Anna: play before Friday 22 November, 09:00 UTC" in text
    assert "- Piratz with carla: play before Friday 22 November, 09:00 UTC" in text
    assert f"Rattenscharf: {R34_DIGEST}\nPiratz: {P24_DIGEST}" in text
    assert f"<p>Piratz: {P24_DIGEST}</p>" in digest.body_html


@pytest.mark.parametrize(
    ("why", "sentence"),
    [
        (
            "timeouts",
            "in your game of Rattenscharf with Anna your time ran out 3 turns in a row, so a "
            "careful bot now plays your seat",
        ),
        (
            "abandonment",
            "in your game of Rattenscharf with Anna both players missed a whole turn back to "
            "back. Instead of ending the game (rule R36), a careful bot now plays your seat.",
        ),
        (
            "moderator",
            "in your game of Rattenscharf with Anna a moderator has handed your seat to a "
            "careful bot.",
        ),
    ],
)
def test_the_stand_in_email_names_the_game_r36(anna, bert, settings, why, sentence):
    settings.STAND_IN_AFTER_TIMEOUTS = 3
    game = new_game(anna, bert)
    seat = game.seats.get(seat=1)
    seat.bot = "careful"  # what games.bots.stand_in sets before it tells the player
    table_changes.queue_stand_in(game, seat, why=why)
    [mail] = emails("stand_in", bert)
    assert mail.subject == "A careful bot now plays your seat in Rattenscharf with Anna"
    assert sentence in mail.body_text and sentence in mail.body_html
    assert "Piratz with" not in mail.body_text and "P25" not in mail.body_text
