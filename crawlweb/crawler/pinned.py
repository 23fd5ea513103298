"""HTTP connections pinned to the addresses the address policy checked (closes the DNS rebinding gap).

A plain HTTP library resolves the host name again when it connects, so a name that answered with a public
address when it was checked can answer with 127.0.0.1 a moment later. Here the connection itself resolves
the name once (addresses.allowed_addresses), checks every address, and connects to one of those very
addresses; the Host header and the TLS server name still carry the host name, since urllib3 takes them
from the connection's host, not from the socket. Requests sent through a proxy are not pinned: the proxy
is the operator's and resolves the name itself (the fetcher still checks what it can see).
"""
from __future__ import annotations

import socket

from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NewConnectionError
from urllib3.util import connection

from .addresses import Resolver, allowed_addresses


def _connect_checked(conn: HTTPConnection, policy: str, resolver: Resolver | None) -> socket.socket:
    """Resolve conn's host once, check it (AddressRefused propagates), connect to a checked address."""
    last_error: OSError | None = None
    for ip in allowed_addresses(conn._dns_host.rstrip("."), policy, resolver):
        try:
            return connection.create_connection((str(ip), conn.port), conn.timeout,
                                                source_address=conn.source_address,
                                                socket_options=conn.socket_options)
        except socket.timeout as exc:
            raise ConnectTimeoutError(conn, f"Connection to {conn.host} ({ip}) timed out") from exc
        except OSError as exc:
            last_error = exc
    raise NewConnectionError(conn, f"Failed to establish a new connection: {last_error}") from last_error


def _pool_classes(policy: str, resolver: Resolver | None) -> dict[str, type]:
    class PinnedHTTPConnection(HTTPConnection):
        def _new_conn(self) -> socket.socket:
            return _connect_checked(self, policy, resolver)

    class PinnedHTTPSConnection(HTTPSConnection):
        def _new_conn(self) -> socket.socket:
            return _connect_checked(self, policy, resolver)

    class PinnedHTTPConnectionPool(HTTPConnectionPool):
        ConnectionCls = PinnedHTTPConnection

    class PinnedHTTPSConnectionPool(HTTPSConnectionPool):
        ConnectionCls = PinnedHTTPSConnection

    return {"http": PinnedHTTPConnectionPool, "https": PinnedHTTPSConnectionPool}


class PinnedAdapter(HTTPAdapter):
    """A requests adapter whose direct connections go only to addresses the policy allows."""

    def __init__(self, policy: str, resolver: Resolver | None = None, **kwargs):
        self.policy, self.resolver = policy, resolver
        super().__init__(**kwargs)

    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = _pool_classes(self.policy, self.resolver)
