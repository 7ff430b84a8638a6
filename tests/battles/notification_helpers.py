"""A local HTTP server that records what webhooks post (shared by the notification tests)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Hook:
    server: ThreadingHTTPServer
    requests: list[Received] = field(default_factory=list)
    status: int = 204
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/hook"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def start_hook_server(status: int = 204) -> Hook:
    """Listen on 127.0.0.1 at a free port; answer every POST with ``hook.status``."""
    hook: Hook

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server's naming
            length = int(self.headers.get("Content-Length") or 0)
            hook.requests.append(
                Received(
                    self.path,
                    {k.lower(): v for k, v in self.headers.items()},
                    self.rfile.read(length),
                )
            )
            self.send_response(hook.status)
            for name, value in hook.headers.items():
                self.send_header(name, value)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    hook = Hook(server=server, status=status)
    # A short poll: shutting down waits for the next one (0.5 s by default, at every test).
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    ).start()
    return hook


PUBLIC_ADDRESS = "93.184.215.14"


def fake_dns(monkeypatch, names: dict[str, str] | None = None) -> None:
    """No DNS in the test sandbox: webhook host names resolve through ``names`` (any other name
    to a public address, a name ending in ``.invalid`` to nothing); IP literals (``127.1``
    too) resolve as usual."""
    import socket

    from battles.notifications import urlguard

    real = urlguard.resolve
    table = names or {}

    def resolve(host: str, port: int) -> list[tuple]:
        try:
            socket.getaddrinfo(host, port, flags=socket.AI_NUMERICHOST)
        except socket.gaierror:
            if host.endswith(".invalid"):
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known") from None
            return real(table.get(host, PUBLIC_ADDRESS), port)
        return real(host, port)

    monkeypatch.setattr(urlguard, "resolve", resolve)
