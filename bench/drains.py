"""Several outbox drains at once over one backlog, on PostgreSQL: emails sent, claims lost.

After an SMTP outage, or under load with several worker processes, more than one drain
(``notifications.outbox.drain_outbox``) works the same backlog of due emails. This queues
``--backlog`` due emails, then runs ``--drains`` drains side by side until none is due and
prints, for each number of drains: the emails sent, the claims lost (a claim UPDATE that
found its email already taken by another drain: work for PostgreSQL and nothing sent)
and the time. The drains are threads of this process released together
(``tests.concurrency.at_once``), each on its own connection, each sending batch after
batch (``DRAIN_BATCH_SIZE``, as a drain that finds more wakes the next) to an SMTP sink
on 127.0.0.1 (aiosmtpd), as worker processes would.

    .venv/bin/python bench/drains.py [--backlog 1000] [--drains 1 2 4]

The bench database (default ``piratz_bench_drains``) is dropped and recreated, and dropped
again at the end. See BENCHMARKS.md ("Scale-out"). Not a test: nothing here asserts a time.
"""

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The database helpers of the HTTP benchmark: create, migrate, set up Django, drop.
from bench import api as bench_api  # noqa: E402

BenchError = bench_api.BenchError


def queue_backlog(count: int) -> None:
    """``count`` pending emails, due now, rendered (as the outbox holds them once due)."""
    from django.utils import timezone

    from notifications.models import OutboundEmail

    now = timezone.now()
    OutboundEmail.objects.bulk_create(
        OutboundEmail(
            to=f"player{number}@example.com",
            subject="Your turn",
            body_text="It is your turn.",
            body_html="<p>It is your turn.</p>",
            send_after=now,
        )
        for number in range(count)
    )


def run_drains(drains: int) -> tuple[list, float]:
    """Run ``drains`` drains side by side until none finds a due email; their results
    (one ``SweepResult`` per batch) and the seconds it took."""
    from notifications.outbox import DRAIN_BATCH_SIZE, send_due_emails
    from tests.concurrency import at_once

    def drain() -> list:
        batches = []
        while (result := send_due_emails(limit=DRAIN_BATCH_SIZE)).tried:
            batches.append(result)
        return batches

    began = time.monotonic()
    per_drain = at_once([drain] * drains, timeout=3600)
    return [result for batches in per_drain for result in batches], time.monotonic() - began


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backlog", type=int, default=1000, help="due emails per run")
    parser.add_argument("--drains", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/piratz_bench_drains"
    )
    args = parser.parse_args(argv)
    if args.backlog < 1 or min(args.drains) < 1:
        parser.error("--backlog and --drains must be at least 1")
    try:
        url, name = bench_api.checked_database_url(args.database_url)
        bench_api.recreate_database(url, name)
    except BenchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    port = bench_api.servers.free_port()  # the sink's; it starts once Django is set up
    env = {
        **bench_api.django_environment(url),
        "DJANGO_SETTINGS_MODULE": "piratz_site.settings",
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(port),
    }
    print(
        f"machine: {bench_api.os.cpu_count()} cores ({bench_api.cpu_model()}); load average "
        f"{', '.join(f'{v:.2f}' for v in bench_api.os.getloadavg())}; backlog {args.backlog}"
    )
    sink = None
    try:
        bench_api.migrate(env, timeout=300)
        bench_api.setup_django(env)
        from notifications.models import OutboundEmail
        from tests.processes import SmtpSink

        sink = SmtpSink(port).start()

        for drains in args.drains:
            OutboundEmail.objects.all().delete()
            queue_backlog(args.backlog)
            received = sink.count()
            results, seconds = run_drains(drains)
            sent = sum(result.sent for result in results)
            lost = sum(result.skipped for result in results)
            print(
                f"  {drains} drain(s): {sent} sent ({sink.count() - received} at the sink), "
                f"{lost} claims lost ({lost / max(sent, 1):.2f} an email), {seconds:.1f} s "
                f"({sent / seconds:.0f} emails/s)",
                flush=True,
            )
    finally:
        if sink is not None:
            sink.stop()
        from django.db import connections

        connections.close_all()
        with bench_api.admin_connection(url) as connection:
            bench_api.drop_database(connection, name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
