"""core.file_broker: `make run`'s broker hands a worker whole messages only."""

import builtins
import os
import queue as queue_module
from pathlib import Path

import pytest
from kombu import Connection
from kombu.exceptions import ChannelError
from kombu.utils.json import loads

import piratz_site  # noqa: F401  (its Celery app makes filesystem:// URLs use the transport)
from core import file_broker


def _connection(folder: Path, *, out: Path | None = None) -> Connection:
    """A ``filesystem://`` connection on ``folder``, laid out as settings.py lays it out
    (or sending into ``out``)."""
    (folder / "messages").mkdir(exist_ok=True)
    (folder / "control").mkdir(exist_ok=True)
    return Connection(
        "filesystem://",
        transport_options={
            "data_folder_in": str(folder / "messages"),
            "data_folder_out": str(out or folder / "messages"),
            "control_folder": str(folder / "control"),
        },
    )


def test_filesystem_urls_use_the_transport_that_writes_whole_messages(tmp_path):
    with _connection(tmp_path) as connection:
        assert connection.get_transport_cls() is file_broker.Transport
        queue = connection.SimpleQueue("wake-ups")
        queue.put({"task": "drain_outbox"})
        message = queue.get(timeout=1)
        assert message.payload == {"task": "drain_outbox"}
        message.ack()
        queue.close()
    assert list((tmp_path / "messages").iterdir()) == []


def test_a_worker_never_takes_a_message_that_is_still_being_written(tmp_path, monkeypatch):
    """kombu's own transport made the file under its queue's name and then wrote it: a
    worker looking in between took an empty file, and stopped on its JSON (kombu #1551)."""
    messages = tmp_path / "messages"
    seen_by_the_worker = []
    real_open = builtins.open

    class WatchedWhileWritten:
        def __init__(self, file, worker_channel):
            self._file, self._worker_channel = file, worker_channel

        def write(self, data):
            # The moment the worker could look: the message's file exists, still empty.
            try:
                seen_by_the_worker.append(loads(self._worker_channel._get("turns")["body"]))
            except Exception as error:  # what the worker would meet
                seen_by_the_worker.append(error)
            return self._file.write(data)

        def __getattr__(self, name):
            return getattr(self._file, name)

        def __enter__(self):
            self._file.__enter__()
            return self

        def __exit__(self, *exc):
            return self._file.__exit__(*exc)

    with _connection(tmp_path) as sender, _connection(tmp_path) as worker:
        worker_channel = worker.default_channel

        def watched_open(file, mode="r", *args, **kwargs):
            opened = real_open(file, mode, *args, **kwargs)
            if "w" in mode and Path(file).parent == messages:
                return WatchedWhileWritten(opened, worker_channel)
            return opened

        queue = sender.SimpleQueue("turns")
        monkeypatch.setattr(builtins, "open", watched_open)
        queue.put({"game": 1})
        monkeypatch.undo()
        assert len(seen_by_the_worker) == 1
        assert isinstance(seen_by_the_worker[0], queue_module.Empty)
        message = queue.get(timeout=1)
        assert message.payload == {"game": 1}  # and then it is there, whole
        message.ack()
        queue.close()


def test_a_message_that_cannot_be_put_in_place_is_an_error_and_leaves_no_file(
    tmp_path, monkeypatch
):
    def full_disk(source, destination):
        raise OSError(28, "No space left on device")

    with _connection(tmp_path) as connection:
        # A queue of its own: kombu keeps the queues it bound for the whole process.
        queue = connection.SimpleQueue("never-written")
        monkeypatch.setattr(os, "replace", full_disk)
        with pytest.raises(ChannelError):
            queue.put({"game": 1})
        monkeypatch.undo()
        queue.close()
    assert list((tmp_path / "messages").iterdir()) == []  # nor a half-written one
