"""Send checks: what an email asks, once it is due, before it goes out (send, wait, drop).

An email queued with a ``SendCheck`` (``queue_email(..., send_check=...)``) keeps the
check's registered name and JSON arguments on its row (``OutboundEmail.send_check``). When
the email is due and a worker has claimed it, the check runs with the time and those
arguments and answers None (send it now), ``Hold(until)`` (wait until then: pending again,
no attempt counted) or ``Drop(reason)`` (never send it: ``dropped``). The claim makes the
answer act once, however many sweeps and tasks reach the row.

Checks are registered by the app that queues such emails (its floor may not be imported
here), like composers (``notifications.rendering.composer``): define them in a module its
app's ``ready()`` imports. A check reads the database; it must not change it.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from .delivery import Postponed, Withdrawn
from .rendering import context_from_json, context_to_json


@dataclass(frozen=True)
class SendCheck:
    """For ``queue_email``: ask the check registered as ``name`` with ``arguments`` (kept
    in JSON as an email context is: str, numbers, lists, dicts, datetimes) when it is due."""

    name: str
    arguments: dict


@dataclass(frozen=True)
class Hold:
    """A check's answer: not yet; due again at ``until`` (aware)."""

    until: datetime


@dataclass(frozen=True)
class Drop:
    """A check's answer: never send it; ``reason`` is kept for moderators (no content)."""

    reason: str


Verdict = Hold | Drop | None

# Check name -> function(now, **arguments) -> Verdict; filled by ``send_check``.
_CHECKS: dict[str, Callable[..., Verdict]] = {}


def send_check(name: str):
    """Register the decorated function as the send check ``name``.

    It is called as ``function(now, **arguments)`` and returns a ``Verdict``. Names are
    stored in rows, so a renamed check strands them (they fail, for a moderator to see).
    """

    def register(function: Callable[..., Verdict]) -> Callable[..., Verdict]:
        if _CHECKS.get(name, function) is not function:
            raise ValueError(f"the send check {name!r} is registered twice")
        _CHECKS[name] = function
        return function

    return register


def to_json(check: SendCheck) -> dict:
    """What ``OutboundEmail.send_check`` keeps of ``check``; ``ValueError`` for a check
    nobody registered, ``NotJsonSafe`` for arguments JSON would not keep."""
    if check.name not in _CHECKS:
        raise ValueError(f"no send check is registered as {check.name!r}")
    return {"name": check.name, "arguments": context_to_json(check.arguments)}


def enforce(stored: dict | None, now: datetime) -> None:
    """Ask the check ``stored`` (``to_json``'s; None: there is none) at ``now``; returns if
    the email may go now, raises ``Postponed`` (the delivery machine holds it) or
    ``Withdrawn`` (it drops it). A hold that is not later than ``now`` sends it now."""
    if stored is None:
        return
    verdict = _CHECKS[stored["name"]](now, **context_from_json(stored["arguments"]))
    if isinstance(verdict, Drop):
        raise Withdrawn(verdict.reason)
    if isinstance(verdict, Hold) and verdict.until > now:
        raise Postponed(verdict.until)
