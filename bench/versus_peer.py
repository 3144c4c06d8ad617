"""The service against its peer, boardgame.io playing Piratz, in interleaved pairs (issue 36).

``make bench-peer`` (``PAIRS=N``): installs the peer's node packages (``bench/peer/``, pinned
by its package-lock.json) when missing, then runs PAIRS pairs, each the peer's run then the
service's run (``bench/api.py``, one project phase) under the same load (8 clients, one
4-seat game each, 5 s warm-up, 20 s measured, PostgreSQL on 127.0.0.1:5432), and prints
both systems' figures per pair, their medians and the service's ratio to the peer; then
the service's floor (a bare write, measured after each service run) and the best a move
could do at it. The peer
plays our engine's own deck (``games/kinds/piratz/rules/deck.json``). See BENCHMARKS.md,
"The service against boardgame.io". Numbers mean something only on a quiet machine.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEER = ROOT / "bench" / "peer"
ENGINE_DECK = ROOT / "games" / "kinds" / "piratz" / "rules" / "deck.json"
# The peer's load and the service's, alike (the peer's load.js defaults and bench/api.py's).
CONCURRENCY, PLAYERS, WARMUP_SECONDS = 8, 4, 5
# (key in both results, label, higher is better)
FIGURES = (
    ("moves_per_s", "moves/s", True),
    ("p50_ms", "move p50 ms", False),
    ("p99_ms", "move p99 ms", False),
    ("server_cpu_ms_per_move", "server CPU ms/move", False),
    ("postgres_cpu_ms_per_move", "PostgreSQL CPU ms/move", False),
)


class PeerError(RuntimeError):
    """A run could not be made; the message says what to check."""


# --- Comparison (pure: tests/test_versus_peer.py) --------------------------------------------


def _number(value) -> str:
    return "-" if value is None else f"{value:.1f}"


def comparison_table(peer_runs: list[dict], service_runs: list[dict]) -> str:
    """A Markdown table: per figure, each pair's peer / service values, both medians, and the
    service's median over the peer's ("ratio"), with whether that ratio is the better side.

    CPU per move is also summed (server + PostgreSQL), the issue's "server CPU per move".
    """
    if not peer_runs or len(peer_runs) != len(service_runs):
        raise ValueError("comparison_table needs as many peer runs as service runs, at least one")
    rows = [*FIGURES, ("cpu_total", "CPU ms/move, server + PostgreSQL", False)]

    def with_total(run: dict) -> dict:
        server, postgres = run.get("server_cpu_ms_per_move"), run.get("postgres_cpu_ms_per_move")
        total = None if server is None or postgres is None else server + postgres
        return {**run, "cpu_total": total}

    peer_runs = [with_total(run) for run in peer_runs]
    service_runs = [with_total(run) for run in service_runs]
    pairs = len(peer_runs)
    header = (
        ["figure"]
        + [f"pair {n + 1} peer / service" for n in range(pairs)]
        + ["median peer", "median service", "service / peer"]
    )
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for key, label, higher_is_better in rows:
        cells = [label]
        for peer, service in zip(peer_runs, service_runs, strict=True):
            cells.append(f"{_number(peer.get(key))} / {_number(service.get(key))}")
        peer_values = [run[key] for run in peer_runs if run.get(key) is not None]
        service_values = [run[key] for run in service_runs if run.get(key) is not None]
        peer_median = statistics.median(peer_values) if peer_values else None
        service_median = statistics.median(service_values) if service_values else None
        cells += [_number(peer_median), _number(service_median)]
        if peer_median and service_median is not None:
            ratio = service_median / peer_median
            better = ratio >= 1 if higher_is_better else ratio <= 1
            cells.append(f"{ratio:.2f}x ({'service' if better else 'peer'} ahead)")
        else:
            cells.append("-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def floor_lines(peer_runs: list[dict], service_runs: list[dict]) -> list[str]:
    """What the service's stack costs a request (its bare write, run beside each service
    run), and what that leaves a move of it at best against the peer's medians; empty
    when no service run measured it.

    A move is ``requests_per_move`` requests (the POST and its share of the next players'
    GETs); were the move's own work free, each would still cost about a bare write, so a
    move could make at most ``floor rate / requests`` a second and cost at least
    ``requests x floor CPU``: the bound no cut of the move's own work passes. The last
    line is the same bound for a move of one request, as the peer's is (it pushes each
    player's view; here the next player asks for theirs, decision 0009).
    """
    measured = [run for run in service_runs if run.get("floor")]
    if not measured or not peer_runs:
        return []

    rate = statistics.median([run["floor"]["writes_per_s"] for run in measured])
    server = statistics.median([run["floor"]["server_cpu_ms"] for run in measured])
    postgres = statistics.median([run["floor"]["postgres_cpu_ms"] for run in measured])
    requests = statistics.median([run["requests_per_move"] for run in measured])
    peer_moves = statistics.median([run["moves_per_s"] for run in peer_runs])
    peer_cpu = statistics.median(
        [run["server_cpu_ms_per_move"] + run["postgres_cpu_ms_per_move"] for run in peer_runs]
    )
    best_moves, least_cpu = rate / requests, (server + postgres) * requests
    return [
        f"the service's floor, a bare write (one authenticated, throttled POST that locks and "
        f"updates a row and inserts one, nothing else; median of {len(measured)}): "
        f"{rate:.1f} writes/s, CPU {server:.1f} + {postgres:.1f} ms (server + PostgreSQL)",
        f"a move is {requests:.2f} requests: at the floor it would make at most "
        f"{best_moves:.1f} moves/s ({best_moves / peer_moves:.2f}x the peer's) and cost at "
        f"least {least_cpu:.1f} ms of CPU ({least_cpu / peer_cpu:.2f}x the peer's)",
        f"a move of one request at the floor: at most {rate:.1f} moves/s "
        f"({rate / peer_moves:.2f}x the peer's), at least {server + postgres:.1f} ms of CPU "
        f"({(server + postgres) / peer_cpu:.2f}x the peer's)",
    ]


# --- Running the two systems ------------------------------------------------------------------


def ensure_node() -> None:
    """node and npm on PATH, installed from Debian's packages when missing (as .ci/run
    installs Chromium); elsewhere the message says what to install."""
    if shutil.which("node") and shutil.which("npm"):
        return
    if shutil.which("apt-get") and os.geteuid() == 0:
        subprocess.run(["apt-get", "update"], check=True)
        subprocess.run(
            ["apt-get", "install", "-y", "nodejs", "npm"],
            check=True,
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        )
        return
    raise PeerError("the peer needs node and npm: install Debian's nodejs and npm packages")


def ensure_peer_packages() -> None:
    """``npm ci`` in bench/peer when its node_modules are missing or older than the lock."""
    installed = PEER / "node_modules" / ".package-lock.json"
    lock = PEER / "package-lock.json"
    if installed.exists() and installed.stat().st_mtime >= lock.stat().st_mtime:
        return
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=PEER, check=True)


def _psql(*arguments: str, database_url: str) -> None:
    """Run createdb/dropdb against the server of ``database_url`` (user postgres)."""
    from urllib.parse import urlsplit

    parts = urlsplit(database_url)
    host, port, user = parts.hostname or "127.0.0.1", str(parts.port or 5432), parts.username
    command = [arguments[0], "-h", host, "-p", port, *(["-U", user] if user else [])]
    subprocess.run([*command, *arguments[1:]], check=True, capture_output=True)


def run_peer(server_url: str, port: int, database: str, seconds: float, timeout: float) -> dict:
    """One run of the peer on a fresh database ``database``: its figures (load.js's JSON)."""
    _psql("createdb", database, database_url=server_url)
    env = {
        **os.environ,
        "NODE_ENV": "production",
        "PORT": str(port),
        "STORAGE": "postgres",
        "DATABASE_URL": f"{server_url.rstrip('/')}/{database}",
        "PIRATZ_DECK": str(ENGINE_DECK),  # our engine's deck, not a copy
    }
    with tempfile.TemporaryDirectory(prefix="versus-peer-") as work:
        log_path, out = Path(work) / "server.log", Path(work) / "peer.json"
        with log_path.open("w") as log:
            server = subprocess.Popen(
                ["node", "server.js"], cwd=PEER, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        try:
            for _ in range(100):
                if "listening" in log_path.read_text():
                    break
                if server.poll() is not None:
                    raise PeerError(f"the peer's server stopped:\n{log_path.read_text()[-2000:]}")
                time.sleep(0.1)
            load = subprocess.run(
                [
                    "node",
                    "load.js",
                    "--server",
                    f"http://127.0.0.1:{port}",
                    "--server-pid",
                    str(server.pid),
                    "--db",
                    database,
                    "--concurrency",
                    str(CONCURRENCY),
                    "--players",
                    str(PLAYERS),
                    "--warmup",
                    str(WARMUP_SECONDS),
                    "--seconds",
                    str(seconds),
                    "--matches",
                    "150",
                    "--out",
                    str(out),
                ],
                cwd=PEER,
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
            if load.returncode != 0 or not out.exists():
                raise PeerError(f"the peer's load.js failed:\n{load.stderr[-2000:]}")
            return json.loads(out.read_text())
        finally:
            server.terminate()
            server.wait(timeout=10)
            _psql("dropdb", "--if-exists", "--force", database, database_url=server_url)


def run_service(
    server_url: str, database: str, cache_url: str, seconds: float, timeout: float
) -> dict:
    """One run of ``bench/api.py``: its figures. The project phase is what the pair
    compares; a bare phase after it measures the stack's floor (``floor_lines``)."""
    with tempfile.TemporaryDirectory(prefix="versus-service-") as work:
        out = Path(work) / "service.json"
        command = [
            sys.executable, str(ROOT / "bench" / "api.py"), "--rounds", "1",
            "--warmup-seconds", str(WARMUP_SECONDS), "--phase-seconds", str(seconds),
            "--concurrency", str(CONCURRENCY), "--players", str(PLAYERS), "--games", "60",
            "--database-url", f"{server_url.rstrip('/')}/{database}",
            "--cache-url", cache_url, "--json-out", str(out),
        ]  # fmt: skip
        done = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False
        )
        if done.returncode != 0 or not out.exists():
            raise PeerError(f"bench/api.py failed:\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}")
        return json.loads(out.read_text())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=3, help="interleaved pairs (default 3)")
    parser.add_argument(
        "--postgres",
        default="postgres://postgres@127.0.0.1:5432",
        help="the PostgreSQL server both use, without a database name (default %(default)s)",
    )
    parser.add_argument(
        "--cache-url",
        default="redis://127.0.0.1:6379/13",
        help="the service's Redis (cache and broker, as bench/api.py; default %(default)s)",
    )
    parser.add_argument(
        "--seconds", type=float, default=20, help="measured seconds per run (default 20)"
    )
    parser.add_argument("--port", type=int, default=8765, help="the peer's port (default 8765)")
    parser.add_argument("--out", type=Path, help="also write every run's figures here (JSON)")
    args = parser.parse_args(argv)
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    try:
        ensure_node()
        ensure_peer_packages()
        peer_runs, service_runs = [], []
        for number in range(args.pairs):
            peer = run_peer(
                args.postgres,
                args.port,
                f"versus_peer_{os.getpid()}",
                args.seconds,
                timeout=args.seconds + 100,
            )
            peer_runs.append(peer)
            print(f"pair {number + 1} peer:    {_summary(peer)}", flush=True)
            service = run_service(
                args.postgres,
                f"versus_service_{os.getpid()}",
                args.cache_url,
                args.seconds,
                timeout=args.seconds + 600,
            )
            service_runs.append(service)
            print(f"pair {number + 1} service: {_summary(service)}", flush=True)
    except (PeerError, subprocess.SubprocessError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if args.out:
        args.out.write_text(json.dumps({"peer": peer_runs, "service": service_runs}, indent=1))
    print(f"\n{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the end\n")
    print(comparison_table(peer_runs, service_runs))
    for line in floor_lines(peer_runs, service_runs):
        print(f"\n{line}")
    return 0


def _summary(run: dict) -> str:
    return ", ".join(f"{label} {_number(run.get(key))}" for key, label, _ in FIGURES)


if __name__ == "__main__":
    sys.exit(main())
