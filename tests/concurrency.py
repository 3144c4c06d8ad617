"""Races in tests: run calls in threads released together, each on its own connection."""

import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connections


def at_once(calls: Sequence[Callable[[], Any]], *, timeout: float = 60) -> list[Any]:
    """Run every call in its own thread, all released together; their results, in order.

    Each thread closes its own database connections when done. A call's exception is
    raised here once every thread has finished (a thread's exception is otherwise lost),
    and so is a thread still running after ``timeout`` seconds.
    """
    start = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            start.wait()
            results[index] = call()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index, call)) for index, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    if errors:
        raise errors[0]
    if any(thread.is_alive() for thread in threads):
        raise AssertionError(f"a call still runs after {timeout} seconds")
    return results
