"""The zero-setup broker: kombu's ``filesystem://`` transport, each message whole when seen.

kombu's own transport (5.7) creates a message's file under its final name and then writes
the message into it. Its worker lists the folder and takes files without the writer's
lock, so it can take a file that is created but not yet written, read nothing, and stop
on the empty JSON (kombu issue #1551): under ``make run`` that was a web request's
wake-up, and the worker's end stopped the whole service (``bin/run-local``).

Here a message is written under a name the worker passes over (``….msg.part``) and then
renamed to its queue's name, which on one filesystem is atomic: the worker sees the whole
message or none. Everything else (names, order, the folders, ``polling_interval``) is
kombu's. ``piratz_site.celery`` makes ``filesystem://`` URLs mean this transport.
"""

import os
import uuid
from contextlib import suppress
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

# After kombu's "<queue>.msg": the worker takes only names that end in that.
UNFINISHED_SUFFIX = ".part"


class Channel(filesystem.Channel):
    # kombu names the argument ``payload`` here and ``message`` in its base class: either
    # name breaks one of the two signatures, so keep filesystem.Channel's.
    def _put(self, queue, payload, **kwargs):  # type: ignore[override]
        """Put ``payload`` onto ``queue``: written whole, then renamed into the queue."""
        # kombu's file name: the worker takes the oldest first, by this millisecond count.
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        path = os.path.join(self.data_folder_out, name)
        unfinished = path + UNFINISHED_SUFFIX
        try:
            with open(unfinished, "wb") as out:
                out.write(str_to_bytes(dumps(payload)))
            os.replace(unfinished, path)
        except OSError as exc:
            with suppress(OSError):
                os.remove(unfinished)
            raise ChannelError(f"Cannot add file {path!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel


def serve_filesystem_urls() -> None:
    """Make ``filesystem://`` broker URLs use this transport in this process.

    kombu finds a URL's transport by its scheme in ``TRANSPORT_ALIASES``. The URL decides,
    not a setting beside it: a ``transport`` setting would win over any URL, the tests'
    ``memory://`` and Redis brokers too.
    """
    TRANSPORT_ALIASES["filesystem"] = f"{__name__}:Transport"
