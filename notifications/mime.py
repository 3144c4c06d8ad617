"""An outgoing email's MIME form: Django's, with the unsubscribe headers left readable.

Python's email package folds a header line longer than 78 characters at its spaces, and a
value with no space to break at (a ``<https://…/unsubscribe/<token>/>`` link is one
long word) it turns into RFC 2047 encoded-words (``=?utf-8?q?=3Chttps=3A//…?=``: CPython
issue #85725). RFC 2369's ``List-Unsubscribe`` holds angle-bracketed URIs, where
encoded-words mean nothing: Gmail then offers no unsubscribe button, and the one-click
unsubscribe of RFC 8058 (which Gmail and Yahoo ask of senders) fails. So those headers are
written on one line, as RFC 5322 allows up to 998 characters; every other header is
folded as before.
"""

import email.policy
from email.policy import EmailPolicy

from django.core.mail import EmailMultiAlternatives

_ON_ONE_LINE = frozenset({"list-unsubscribe", "list-unsubscribe-post"})
_MAX_LINE = 998  # RFC 5322 section 2.1.1: a line's limit, without its CRLF


class OutgoingEmail(EmailMultiAlternatives):
    """Django's plain text and HTML email, whose ``List-Unsubscribe`` headers stay whole
    whatever policy the mail backend asks for (the SMTP backend asks for ``SMTP``)."""

    def message(self, *, policy=email.policy.default):
        return super().message(policy=_unsubscribe_on_one_line(policy))


class _UnsubscribeOnOneLine(EmailPolicy):
    """The policy it is given, but the unsubscribe headers are written unfolded when they
    are ASCII and fit a line (anything else is folded as the policy folds it)."""

    def fold(self, name, value):
        return self._one_line(name, value) or super().fold(name, value)

    def fold_binary(self, name, value):
        line = self._one_line(name, value)
        return line.encode("ascii") if line else super().fold_binary(name, value)

    def _one_line(self, name: str, value) -> str | None:
        line = f"{name}: {value}"
        if name.lower() in _ON_ONE_LINE and line.isascii() and len(line) <= _MAX_LINE:
            return line + self.linesep
        return None


def _unsubscribe_on_one_line(policy: EmailPolicy) -> EmailPolicy:
    if isinstance(policy, _UnsubscribeOnOneLine):
        return policy
    # Every setting of the given policy (its line ending above all), on this class.
    return _UnsubscribeOnOneLine(**vars(policy))
