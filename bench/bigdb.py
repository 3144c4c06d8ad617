"""How far one PostgreSQL carries the service: the hot paths with up to a million games.

Bulk-makes games in one database, growing it to each of ``--sizes`` (default 100,000,
300,000 and 1,000,000 games; ``--active-share`` of them active, the rest finished), and
at each size measures, in-process as a worker or a web process runs them:

- the deadline sweep (``games.sweeps.play_due_timeouts``): empty, and with 100 games due;
- the reminder sweep (``send_due_reminders``) with 100 reminders due;
- the digest sweep (``send_due_digests``) with 500 people due, one of them the *heavy*
  player who holds a seat in 1% of all games;
- the API game list (``GET /api/games/``, plain and ``?my_turn=true``) of the heavy
  player and of a typical one (about 40 games at 1,000,000);
- one move through the service function (``games.actions.do_play_move``).

Every query these paths send is recorded; the ones a path spends most time in are run
again under ``EXPLAIN (ANALYZE, BUFFERS)`` and their plans printed, so a plan that
changes with the size (a sequential scan, a sort of many rows) shows where the database
gives out first. The data is made by the database itself (``INSERT ... SELECT`` over
``generate_series``, copying one template game made through the actions: its state,
seats and moves), so making a million games takes minutes, not hours.

The database (default ``piratz_scale_k4``) is dropped and recreated at the start and
dropped at the end (``--keep`` leaves it). Nothing else is started or stopped. Not a
test: nothing here asserts a time. See BENCHMARKS.md ("One database") and
docs/scaling.md.
"""

import argparse
import os
import platform
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import api as bench_api  # noqa: E402

BenchError = bench_api.BenchError
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/piratz_scale_k4"
USER_DOMAIN = "scale.invalid"
STARTED = time.perf_counter()


def say(text: str) -> None:
    print(f"[{time.perf_counter() - STARTED:7.1f} s] {text}", flush=True)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# --- Data --------------------------------------------------------------------------------------


def make_users(count: int, digest_share: float, batch: int = 5000) -> list[int]:
    """``count`` players with consecutive ids (index 0 is the heavy player); returns the
    ids. ``digest_share`` of them (and the heavy player) take the daily digest, due
    tomorrow (the digest measurement makes some due)."""
    from django.utils import timezone

    from accounts.models import NotificationSettings, User

    for start in range(0, count, batch):
        User.objects.bulk_create(
            [
                # bulk_create skips User.save(): the shown name's key (unique among the
                # living) is set here.
                User(
                    email=f"p{i}@{USER_DOMAIN}",
                    password="!",
                    display_name=f"p{i}",
                    public_name_key=f"p{i}",
                )
                for i in range(start, min(count, start + batch))
            ]
        )
    ids = list(
        User.objects.filter(email__endswith=f"@{USER_DOMAIN}")
        .order_by("id")
        .values_list("id", flat=True)
    )
    if len(ids) != count or ids[-1] - ids[0] + 1 != count:
        raise BenchError("the players' ids are not consecutive; the seat formulas need them so")
    tomorrow = timezone.now() + timedelta(days=1)
    every = max(1, round(1 / digest_share))
    NotificationSettings.objects.bulk_create(
        [
            NotificationSettings(
                user_id=user_id,
                mode=NotificationSettings.Mode.DIGEST,
                next_digest_at=tomorrow,
            )
            for index, user_id in enumerate(ids)
            if index % every == 0
        ],
        batch_size=batch,
    )
    return ids


def template_game(moves: int):
    """One active two-player game made through the actions, ``moves`` moves into it."""
    from accounts.models import User
    from games import actions
    from games.models import Game

    anna = User.objects.create_user(f"anna-template@{USER_DOMAIN}x")
    bert = User.objects.create_user(f"bert-template@{USER_DOMAIN}x")
    game = actions.do_create_game(anna, [anna.email, bert.email])
    actions.do_accept_invitation(game.id, bert)
    for _ in range(moves):
        game = Game.objects.get(id=game.id)
        seat = game.current_seat
        player = anna if seat == 0 else bert
        action = game.table_view(seat)["legal_actions"][0]
        actions.do_play_move(game.id, player, game.version, action)
    return Game.objects.get(id=game.id)


class Generator:
    """Copies the template game into games numbered ``n`` (1, 2, ...), in the database.

    Game ``n`` has the id ``md5('k4-' || n)`` (so its seats and moves can name it without
    a round trip); every ``active_every``-th game is active (deadline 1-72 h ahead, its
    reminder 30 minutes before), the others finished; games are made 15 s apart, game 1
    a year ago. Seat 0 is the heavy player (players index 0) in every 100th game, else a
    player chosen by a fixed formula; seat 1 another. 50,000 players and 1,000,000 games:
    about 40 games each, the heavy player 10,000.
    """

    def __init__(self, template, user_ids: list[int], active_every: int):
        self.template = template
        self.first_user = user_ids[0]
        self.users = len(user_ids)
        self.active_every = active_every
        self.made = 0

    def game_id(self) -> str:
        return "md5('k4-' || n)::uuid"

    def user_of(self, seat_sql: str) -> str:
        u = self.users
        first = f"CASE WHEN mod(n, 100) = 0 THEN 0 ELSE 1 + mod(n * 7919, {u - 1}) END"
        second = f"mod(({first}) + 1 + mod(n * 31, {u - 1}), {u})"
        return f"{self.first_user} + CASE WHEN {seat_sql} = 0 THEN {first} ELSE {second} END"

    def grow_to(self, size: int, batch: int = 50_000) -> None:
        from django.db import connection

        from games.models import Game, Move, Seat

        while self.made < size:
            low, high = self.made + 1, min(size, self.made + batch)
            with connection.cursor() as cursor:
                cursor.execute(self._games_sql(Game), [low, high, self.template.id])
                cursor.execute(self._rows_sql(Seat, "games_seat"), [low, high, self.template.id])
                cursor.execute(self._rows_sql(Move, "games_move"), [low, high, self.template.id])
            self.made = high
            say(f"  made games {low:,}-{high:,}")

    def _games_sql(self, Game) -> str:
        active = f"mod(n, {self.active_every}) = 0"
        base = "(now() - interval '1 year' + n * interval '15 seconds')"
        deadline = "(now() + interval '1 hour' + mod(n * 7, 255600) * interval '1 second')"
        overrides = {
            "id": self.game_id(),
            "status": f"CASE WHEN {active} THEN 'active' ELSE 'finished' END",
            "host_id": self.user_of("0"),
            "deadline": f"CASE WHEN {active} THEN {deadline} END",
            "next_reminder_at": f"CASE WHEN {active} THEN {deadline} - interval '30 minutes' END",
            "turn_started_at": f"CASE WHEN {active} THEN now() - interval '1 hour' END",
            "current_seat": f"CASE WHEN {active} THEN t.current_seat END",
            "created_at": base,
            "updated_at": base,
            "started_at": base,
            "ended_at": f"CASE WHEN {active} THEN NULL ELSE {base} + interval '3 days' END",
            "rematch_id": "NULL",
        }
        return self._copy_sql(Game, "games_game", overrides, "t.id = %s")

    def _rows_sql(self, model, table: str) -> str:
        overrides = {"id": None, "game_id": self.game_id()}
        if table == "games_seat":
            overrides["user_id"] = self.user_of("t.seat")
        else:
            overrides["actor_user_id"] = self.user_of("t.seat")
        return self._copy_sql(model, table, overrides, "t.game_id = %s")

    def _copy_sql(self, model, table: str, overrides: dict, where: str) -> str:
        columns, values = [], []
        for field in model._meta.concrete_fields:
            column = field.column
            if column in overrides and overrides[column] is None:
                continue  # a serial id: the database numbers the row
            columns.append(column)
            values.append(overrides.get(column, f"t.{column}"))
        return (
            f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(values)}"
            f" FROM {table} t, generate_series(%s::bigint, %s::bigint) n WHERE {where}"
        )


def vacuum_analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        for table in ("games_game", "games_seat", "games_move", "accounts_notificationsettings"):
            cursor.execute(f"VACUUM ANALYZE {table}")


def table_sizes() -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, pg_size_pretty(pg_total_relation_size(oid)) FROM pg_class"
            " WHERE relname IN ('games_game', 'games_seat', 'games_move') ORDER BY relname"
        )
        sizes = ", ".join(f"{name} {size}" for name, size in cursor.fetchall())
        cursor.execute("SELECT pg_size_pretty(pg_database_size(current_database()))")
        return f"{sizes}; database {cursor.fetchone()[0]}"


# --- Recording and explaining the queries ------------------------------------------------------


class Recorder:
    """A ``connection.execute_wrapper`` keeping each statement, its parameters and time."""

    def __init__(self):
        self.statements: list[tuple[str, tuple, float]] = []

    def __call__(self, execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.statements.append((sql, params, time.perf_counter() - start))


def recorded(function, *args, **kwargs):
    """(function's result, seconds, statements) of one call."""
    from django.db import connection

    recorder = Recorder()
    with connection.execute_wrapper(recorder):
        started = time.perf_counter()
        result = function(*args, **kwargs)
        seconds = time.perf_counter() - started
    return result, seconds, recorder.statements


def explain(sql: str, params) -> list[str]:
    """The plan of one SELECT as it ran, in a transaction rolled back (FOR UPDATE included)."""
    from django.db import connection, transaction

    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + sql, params)
            lines = [row[0] for row in cursor.fetchall()]
        transaction.set_rollback(True)
    return lines


def slowest_selects(statements, count: int = 2):
    """The ``count`` slowest distinct SELECTs of ``statements`` (by SQL text)."""
    best: dict[str, tuple[str, tuple, float]] = {}
    for sql, params, seconds in statements:
        if not sql.lstrip().upper().startswith("SELECT"):
            continue
        if sql not in best or best[sql][2] < seconds:
            best[sql] = (sql, params, seconds)
    return sorted(best.values(), key=lambda item: -item[2])[:count]


def show_plans(label: str, statements, results: dict, count: int = 2) -> None:
    """Print the plans of the slowest SELECTs; record the slowest one's execution time."""
    for rank, (sql, params, seconds) in enumerate(slowest_selects(statements, count)):
        plan = explain(sql, params)
        executed = next((line for line in plan if line.startswith("Execution Time")), "")
        if rank == 0:
            results[f"{label} plan"] = float(executed.split()[2]) if executed else float("nan")
        print(f"    -- {label}: {sql[:160]}{'...' if len(sql) > 160 else ''}")
        print(f"       ({seconds * 1000:.2f} ms when sent)")
        for line in plan:
            print(f"       {line}")


# --- The measured paths -----------------------------------------------------------------------


def measure_deadline_sweep(results: dict) -> None:
    from django.db import connection
    from django.utils import timezone

    from games.sweeps import play_due_timeouts

    times = []
    for _ in range(30):
        played, seconds, statements = recorded(play_due_timeouts)
        assert played == 0
        times.append(seconds * 1000)
    results["deadline empty ms"] = statistics.median(times)
    show_plans("deadline claim", statements, results, 1)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_game SET deadline = now() - random() * interval '1 hour'"
            " WHERE id IN (SELECT id FROM games_game WHERE status = 'active'"
            " AND deadline > now() ORDER BY random() LIMIT 100)"
        )
    played, seconds, statements = recorded(play_due_timeouts, timezone.now())
    if played != 100:
        raise BenchError(f"the deadline sweep played {played} games, 100 were due")
    results["deadline 100 due ms/game"] = seconds * 1000 / 100
    say(
        f"  deadline sweep: empty {results['deadline empty ms']:.2f} ms, 100 due "
        f"{results['deadline 100 due ms/game']:.2f} ms a game"
    )


def measure_reminder_sweep(results: dict) -> None:
    from django.db import connection

    from games.sweeps import send_due_reminders

    _, seconds, _ = recorded(send_due_reminders)
    results["reminder empty ms"] = seconds * 1000
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_game SET next_reminder_at = now() - interval '1 minute',"
            " reminder_leads_sent = '[]'::jsonb, deadline = now() + interval '12 hours'"
            " WHERE id IN (SELECT id FROM games_game WHERE status = 'active'"
            " AND deadline > now() ORDER BY random() LIMIT 100)"
        )
    sent, seconds, statements = recorded(send_due_reminders)
    results["reminder 100 due ms/game"] = seconds * 1000 / 100
    results["reminders sent"] = sent
    show_plans("reminder listing", statements[:1], results, 1)
    say(
        f"  reminder sweep: empty {results['reminder empty ms']:.2f} ms, 100 due "
        f"{results['reminder 100 due ms/game']:.2f} ms a game ({sent} emails)"
    )


def measure_digest_sweep(results: dict, heavy_id: int) -> None:
    from django.db import connection

    from games.sweeps import send_due_digests

    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE accounts_notificationsettings SET next_digest_at = now() - interval '1 minute'"
            " WHERE user_id = %s OR id IN (SELECT id FROM accounts_notificationsettings"
            " WHERE mode = 'digest' ORDER BY random() LIMIT 499)",
            [heavy_id],
        )
    sent, seconds, statements = recorded(send_due_digests)
    results["digest 500 due ms/person"] = seconds * 1000 / 500
    results["digests sent"] = sent
    # The heavy player's own "games waiting for me" query: the one that grows with a
    # player's games.
    waiting = [s for s in statements if "current_seat" in s[0] and heavy_id in (s[1] or ())]
    show_plans("digest waiting (heavy)", waiting, results, 1)
    say(f"  digest sweep: {results['digest 500 due ms/person']:.2f} ms a person ({sent} emails)")


def measure_game_list(results: dict, heavy_id: int, typical_id: int) -> None:
    from rest_framework.test import APIClient

    from accounts.models import User

    for who, user_id in (("heavy", heavy_id), ("typical", typical_id)):
        client = APIClient()
        client.force_authenticate(User.objects.get(id=user_id))
        for query in ("", "?my_turn=true"):
            label = f"list {who}{query and ' my_turn'}"
            times = []
            for _ in range(7):
                response, seconds, statements = recorded(client.get, f"/api/games/{query}")
                if response.status_code != 200:
                    raise BenchError(f"GET /api/games/{query}: {response.status_code}")
                times.append(seconds * 1000)
            results[f"{label} ms"] = statistics.median(times)
            results[f"{label} count"] = response.json()["count"]
            show_plans(label, statements, results, 2)
            say(f"  {label}: {results[f'{label} ms']:.1f} ms ({results[f'{label} count']:,} games)")


def measure_move(results: dict, sample: int = 30) -> None:
    from django.db import connection

    from games import actions
    from games.models import Game, Seat

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id FROM games_game WHERE status = 'active' AND deadline > now()"
            " ORDER BY random() LIMIT %s",
            [sample],
        )
        ids = [row[0] for row in cursor.fetchall()]
    times, every = [], []
    for game_id in ids:
        game = Game.objects.get(id=game_id)
        player = Seat.objects.select_related("user").get(game=game, seat=game.current_seat).user
        action = game.table_view(game.current_seat)["legal_actions"][0]
        _, seconds, statements = recorded(
            actions.do_play_move, game.id, player, game.version, action
        )
        times.append(seconds * 1000)
        every.extend(statements)
    results["move ms"] = statistics.median(times)
    results["move p90 ms"] = percentile(times, 0.9)
    results["move statements"] = len(every) / len(ids)
    show_plans("move", every, results, 2)
    say(
        f"  move: p50 {results['move ms']:.1f} ms, p90 {results['move p90 ms']:.1f} ms, "
        f"{results['move statements']:.0f} statements"
    )


# --- Main -------------------------------------------------------------------------------------

COLUMNS = [
    ("deadline empty ms", "deadline sweep, nothing due (ms)"),
    ("deadline claim plan", "its claim query (ms, EXPLAIN ANALYZE)"),
    ("deadline 100 due ms/game", "deadline sweep, 100 due (ms a game)"),
    ("reminder 100 due ms/game", "reminder sweep, 100 due (ms a game)"),
    ("reminder listing plan", "its listing query (ms)"),
    ("digest 500 due ms/person", "digest sweep, 500 due (ms a person)"),
    ("digest waiting (heavy) plan", "heavy player's waiting games query (ms)"),
    ("list heavy ms", "GET /api/games/, heavy player (ms)"),
    ("list heavy plan", "its slowest query (ms)"),
    ("list heavy my_turn ms", "... ?my_turn=true (ms)"),
    ("list typical ms", "GET /api/games/, typical player (ms)"),
    ("move ms", "a move, do_play_move p50 (ms)"),
    ("move p90 ms", "a move p90 (ms)"),
    ("move plan", "its slowest query (ms)"),
]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[1:]),
    )
    parser.add_argument(
        "--database-url",
        default=DEFAULT_DATABASE_URL,
        help=f"dropped and recreated; default {DEFAULT_DATABASE_URL}",
    )
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=[100_000, 300_000, 1_000_000],
        help="games in the database at each measurement (ascending)",
    )
    parser.add_argument("--users", type=int, default=50_000, help="players (default 50,000)")
    parser.add_argument(
        "--active-share",
        type=float,
        default=0.1,
        help="share of the games that are active (default 0.1)",
    )
    parser.add_argument(
        "--digest-share",
        type=float,
        default=0.1,
        help="share of the players on the daily digest (default 0.1)",
    )
    parser.add_argument("--moves", type=int, default=3, help="moves copied into every game")
    parser.add_argument("--keep", action="store_true", help="leave the database in place")
    args = parser.parse_args()
    if args.sizes != sorted(args.sizes) or args.users < 3:
        parser.error("--sizes must ascend and --users be at least 3")

    url, name = bench_api.checked_database_url(args.database_url)
    server_version = bench_api.recreate_database(url, name)
    env = bench_api.django_environment(url)
    env["ALLOWED_HOSTS"] = "testserver"
    say(f"database {name} (PostgreSQL {server_version}) created; migrating")
    try:
        bench_api.migrate(env, timeout=600)
        bench_api.setup_django(env)
        return run(args, name)
    finally:
        from django.db import connections

        connections.close_all()
        if args.keep:
            say(f"database {name} kept")
        else:
            with bench_api.admin_connection(url) as connection:
                bench_api.drop_database(connection, name)
            say(f"database {name} dropped")


def run(args, name: str) -> int:
    random.seed(1)
    say(f"making {args.users:,} players")
    user_ids = make_users(args.users, args.digest_share)
    heavy_id, typical_id = user_ids[0], user_ids[len(user_ids) // 2]
    template = template_game(args.moves)
    generator = Generator(template, user_ids, round(1 / args.active_share))
    rows = []
    for size in args.sizes:
        say(f"growing to {size:,} games")
        generator.grow_to(size)
        vacuum_analyze()
        say(f"at {size:,} games: {table_sizes()}")
        results: dict = {"size": size}
        measure_deadline_sweep(results)
        measure_reminder_sweep(results)
        measure_digest_sweep(results, heavy_id)
        measure_game_list(results, heavy_id, typical_id)
        measure_move(results)
        rows.append(results)
    print()
    print(
        f"Machine: {os.cpu_count()} cores, {bench_api.cpu_model()}, Python "
        f"{platform.python_version()}; games {args.sizes}, players {args.users:,}, "
        f"active {args.active_share:.0%}, {args.moves} moves a game"
    )
    print("| measure | " + " | ".join(f"{row['size']:,} games" for row in rows) + " |")
    print("|---|" + "---|" * len(rows))
    for key, label in COLUMNS:
        print(
            f"| {label} | " + " | ".join(f"{row.get(key, float('nan')):.2f}" for row in rows) + " |"
        )
    for key in ("list heavy count", "list typical count", "reminders sent", "digests sent"):
        print(f"| {key} | " + " | ".join(f"{row.get(key, 0):,}" for row in rows) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
