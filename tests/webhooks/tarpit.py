"""A tarpit on 127.0.0.1: an HTTP endpoint that answers one byte at a time, for a long while."""

import socket
import threading
import time


class Tarpit:
    """Reads each request, then answers ``200 OK`` one byte every ``interval`` seconds (a
    long header: hours of bytes). It hangs up after ``hang_up_after`` seconds, so a client
    that does not give up fails its test instead of hanging it. ``connections`` holds each
    connection's (accepted, closed) ``time.monotonic()`` (closed None while open)."""

    ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Padding: " + b"." * 10_000

    def __init__(self, interval: float = 0.5, hang_up_after: float = 10):
        self.interval = interval
        self.hang_up_after = hang_up_after
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.socket.settimeout(0.1)
        self.port = self.socket.getsockname()[1]
        self.connections: list[list[float | None]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def accepted(self) -> int:
        with self._lock:
            return len(self.connections)

    def open_connections(self) -> int:
        with self._lock:
            return sum(1 for _, closed in self.connections if closed is None)

    def durations(self) -> list[float]:
        """Seconds each closed connection lasted."""
        with self._lock:
            return [closed - opened for opened, closed in self.connections if closed]

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _accept(self):
        while not self._stop.is_set():
            try:
                connection, _ = self.socket.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                times = [time.monotonic(), None]
                self.connections.append(times)
            threading.Thread(target=self._trickle, args=(connection, times), daemon=True).start()

    def _trickle(self, connection: socket.socket, times: list):
        with connection:
            connection.settimeout(self.hang_up_after)
            hang_up_at = time.monotonic() + self.hang_up_after
            try:
                connection.recv(65536)
                for byte in self.ANSWER:
                    if self._stop.wait(self.interval) or time.monotonic() > hang_up_at:
                        break
                    connection.sendall(bytes([byte]))
                    # The client gone: its end of the connection reads as closed.
                    connection.setblocking(False)
                    try:
                        if connection.recv(1) == b"":
                            break
                    except BlockingIOError:
                        pass
                    finally:
                        connection.settimeout(self.hang_up_after)
            except OSError:
                pass
        with self._lock:
            times[1] = time.monotonic()

    def close(self):
        self._stop.set()
        self._thread.join()
        self.socket.close()
