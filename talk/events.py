"""What table talk announces to the apps above it (webhooks): the one place to listen.

``message_posted`` is sent by ``talk.actions.post_message`` inside the transaction that
wrote the message, with ``message`` (the ``talk.models.Message`` just created). As with
``games.events``, a receiver writes an outbox row in that transaction or schedules its
work with ``transaction.on_commit``; receivers connect in their app's ``ready()``, so talk
never imports them. Hiding a message later announces nothing: what was posted stays posted.
"""

from django.dispatch import Signal

message_posted = Signal()
