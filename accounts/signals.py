"""What a person's settings changes announce to the apps above accounts.

``turn_clock_changed`` is sent with ``user`` inside the transaction that saved a change
to what times that person's turns: their vacations, quiet hours, time zone, notification
mode, reminder lead times or unsubscriptions. A receiver runs in that transaction (its
work commits or rolls back with the change) and must raise to refuse it. ``games``
connects the receiver that moves the turn deadlines (``games.apps``), so accounts never
imports games.
"""

from django.dispatch import Signal

turn_clock_changed = Signal()
