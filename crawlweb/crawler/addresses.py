"""Which network addresses the crawler may connect to (DESIGN: never fetch private, loopback or
link-local addresses unless a setting allows them).

Policies:
  "public"   (default) refuse private, loopback, link-local, multicast, reserved, unspecified and any other
             non-global address;
  "loopback" also allow 127.0.0.0/8 and ::1 (tests and the demo serve the test web on 127.0.0.1);
  "private"  allow everything.
A host name is resolved and EVERY address it resolves to must pass, so a name with one public and one
private address is refused. The crawler's connections (crawler/pinned.py) resolve through
allowed_addresses() and connect to the very addresses it checked, so a DNS answer that changes between
the check and the connection (DNS rebinding) cannot reach a refused address.
"""
from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Callable

POLICIES = ("public", "loopback", "private")
KIND_PRIVATE = "private_address"
KIND_DNS = "dns"  # the name does not exist
KIND_DNS_TEMPORARY = "dns_temporary"  # the resolver failed for now (EAI_AGAIN): worth retrying

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str], list[IPAddress]]  # host name -> its addresses; raises socket.gaierror


class AddressRefused(Exception):
    """The host may not be fetched; .kind is KIND_PRIVATE, KIND_DNS or KIND_DNS_TEMPORARY."""

    def __init__(self, reason: str, kind: str = KIND_PRIVATE):
        super().__init__(reason)
        self.reason = reason
        self.kind = kind


def _category(ip: IPAddress) -> str | None:
    """Why ip is not a public address, or None when it is."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return _category(ip.ipv4_mapped)
    for name, flag in (("unspecified", ip.is_unspecified), ("loopback", ip.is_loopback),
                       ("link-local", ip.is_link_local), ("multicast", ip.is_multicast),
                       ("reserved", ip.is_reserved), ("private", ip.is_private)):
        if flag:
            return name
    if not ip.is_global:
        return "non-global"  # e.g. 100.64.0.0/10 shared address space
    return None


def _is_loopback(ip: IPAddress) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def address_refusal(ip: IPAddress, policy: str) -> str | None:
    """The reason ip is refused under policy, or None."""
    if policy == "private":
        return None
    category = _category(ip)
    if category is None or (policy == "loopback" and _is_loopback(ip)):
        return None
    return f"{ip} is a {category} address (address policy {policy!r})"


_CACHE_SECONDS = 300.0  # a crawl step fetches many pages of one host: resolve it once, not per page
_FAILURE_CACHE_SECONDS = 60.0  # a name that does not resolve (proxied hosts often) is asked again after this
_CACHE_MAX = 4096
# A failure is kept as its errno and message, never as the exception: raising a kept exception again
# chains the new traceback onto the old, and every traceback holds the frames of the fetch that asked,
# its response body included. A long fuzz run held hundreds of MB so (docs/fuzzing.md).
_cache: dict[str, tuple[float, list[IPAddress] | tuple[int, str]]] = {}
_cache_lock = threading.Lock()


def _remember(host: str, expires: float, value) -> None:
    with _cache_lock:
        if len(_cache) >= _CACHE_MAX:
            _cache.clear()
        _cache[host] = (expires, value)


def _resolve(host: str) -> list[IPAddress]:
    now = time.monotonic()
    with _cache_lock:
        hit = _cache.get(host)
    if hit and hit[0] > now:
        if isinstance(hit[1], tuple):
            raise socket.gaierror(*hit[1])
        return hit[1]
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except socket.gaierror as error:
        if error.errno != socket.EAI_AGAIN:  # a temporary resolver failure is retried at once
            _remember(host, now + _FAILURE_CACHE_SECONDS, (error.errno, error.strerror))
        raise
    addresses = list(dict.fromkeys(ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in infos))
    _remember(host, now + _CACHE_SECONDS, addresses)
    return addresses


def check_address_allowed(host: str, policy: str = "public", *, proxied: bool = False,
                          resolver: Resolver | None = None) -> None:
    """Raise AddressRefused when host (name or IP literal) may not be fetched under policy."""
    if policy not in POLICIES:
        raise ValueError(f"unknown address policy {policy!r}; expected one of {', '.join(POLICIES)}")
    if policy == "private" and _literal(host) is None:
        return  # everything is allowed: no need to resolve
    try:
        allowed_addresses(host, policy, resolver)
    except AddressRefused as exc:
        if proxied and exc.kind != KIND_PRIVATE:
            return  # the proxy resolves the name; we cannot see what it will connect to
        raise


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return None


def allowed_addresses(host: str, policy: str, resolver: Resolver | None = None) -> list[IPAddress]:
    """The addresses of host, resolved once and each checked against policy; raise AddressRefused when
    the name does not resolve or any of its addresses is refused. A connection must go to one of these."""
    if not host:
        raise AddressRefused("empty host name", KIND_DNS)
    ip = _literal(host)
    if ip is not None:
        reason = address_refusal(ip, policy)
        if reason:
            raise AddressRefused(reason)
        return [ip]
    try:
        addresses = [ipaddress.ip_address(a) if isinstance(a, str) else a for a in (resolver or _resolve)(host)]
    except (socket.gaierror, UnicodeError) as exc:
        temporary = isinstance(exc, socket.gaierror) and exc.errno == socket.EAI_AGAIN
        raise AddressRefused(f"cannot resolve {host!r}: {exc}",
                             KIND_DNS_TEMPORARY if temporary else KIND_DNS) from None
    if not addresses:
        raise AddressRefused(f"cannot resolve {host!r}: no addresses", KIND_DNS)
    for ip in addresses:
        reason = address_refusal(ip, policy)
        if reason:
            raise AddressRefused(f"{host} resolves to {reason}")
    return addresses
