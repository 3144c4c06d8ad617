"""The Celery worker's consumer: Celery's own, kept alive when it closes a dropped broker
connection while it holds a task (decision 0010).

Celery 5.7.0, on losing the broker, first collects the connection (the transport lets go of
its settings) and then closes it. We run with ``acks_late``, so a task in progress is a
message not yet acknowledged. The close then has the Redis channel give such messages back,
and kombu, which no longer knows the broker's address, raises ``AttributeError``. The worker
takes that for an unrecoverable error and exits: any Redis restart or dropped connection
during a task stopped every worker.

Here that one error, raised once the connection is already dropped, is logged and the
consumer reconnects as for any lost connection. Nothing is lost:
- the message stays in Redis's set of unacknowledged messages, and kombu's workers put it
  back on its queue after the visibility timeout;
- a Redis that restarted empty lost it anyway, and the sweeps redo what such a task did;
- every task here acts once even if it runs twice.

``piratz_site.settings`` names this class in ``CELERY_WORKER_CONSUMER``, Celery's setting
for the consumer class.
"""

import logging

from celery.worker.consumer import Consumer as CeleryConsumer

logger = logging.getLogger(__name__)


class Consumer(CeleryConsumer):
    def on_connection_error_after_connected(self, exc):
        """Celery's handling of a lost connection; survives its close of that connection."""
        try:
            super().on_connection_error_after_connected(exc)
        except AttributeError as error:
            if self.connection is not None:  # not the close of a dropped connection: a bug
                raise
            logger.warning(
                "The lost broker connection did not close cleanly (%r); reconnecting. Its "
                "unacknowledged messages come back from the broker after the visibility "
                "timeout.",
                error,
            )
