"""The `Response` the test web answers with, and small builders for common answers."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Iterator, Union

Body = Union[bytes, Iterator[bytes]]


@dataclass
class Response:
    """One HTTP answer. `body` is bytes, or an iterator of chunks for streamed pages
    (then `Content-Length` is in `headers`). `delay_s` is how long the server waits
    before answering (the slow page)."""

    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: Body = b""
    delay_s: float = 0.0

    def read(self) -> bytes:
        """The whole body (consumes a streamed one): for tests and small pages."""
        if isinstance(self.body, bytes):
            return self.body
        return b"".join(self.body)


REASONS = {200: "OK", 301: "Moved Permanently", 302: "Found", 304: "Not Modified",
           400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
           500: "Internal Server Error", 502: "Bad Gateway"}


def html_response(body: bytes, status: int = 200, charset: str | None = "utf-8",
                  extra: dict[str, str] | None = None) -> Response:
    content_type = f"text/html; charset={charset}" if charset else "text/html"
    headers = {"Content-Type": content_type, "Content-Length": str(len(body))}
    headers.update(extra or {})
    return Response(status, headers, body)


def text_response(body: bytes, content_type: str = "text/plain; charset=utf-8",
                  status: int = 200) -> Response:
    return Response(status, {"Content-Type": content_type, "Content-Length": str(len(body))}, body)


def error_page(status: int, detail: str = "") -> Response:
    reason = REASONS.get(status, "Error")
    body = (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{status} {reason}"
            f"</title></head><body><h1>{status} {reason}</h1><p>{html.escape(detail)}</p></body></html>\n")
    return html_response(body.encode("utf-8"), status=status)


def redirect(location: str, status: int = 301) -> Response:
    body = (f'<!DOCTYPE html><html><head><title>Moved</title></head><body>'
            f'<a href="{html.escape(location)}">{html.escape(location)}</a></body></html>\n').encode()
    return html_response(body, status=status, extra={"Location": location})
