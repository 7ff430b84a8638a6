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
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    hook = Hook(server=server, status=status)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return hook
