import gc
import weakref

import pytest

from crawlweb.crawler.addresses import (
    KIND_DNS, KIND_PRIVATE, AddressRefused, check_address_allowed,
)
from crawlweb.crawler.fetch import PRIVATE_ADDRESS, Fetcher

REFUSED_UNDER_PUBLIC = [
    ("127.0.0.1", "loopback"), ("127.8.9.10", "loopback"), ("::1", "loopback"), ("[::1]", "loopback"),
    ("10.0.0.1", "private"), ("172.16.5.4", "private"), ("192.168.1.1", "private"),
    ("169.254.169.254", "link-local"), ("fe80::1", "link-local"), ("224.0.0.1", "multicast"),
    ("0.0.0.0", "unspecified"), ("240.0.0.1", "reserved"), ("100.64.0.1", "non-global"),
    ("::ffff:10.0.0.1", "private"), ("fc00::1", "private"),
]


@pytest.mark.parametrize("host, category", REFUSED_UNDER_PUBLIC)
def test_public_policy_refuses_non_public_literals_naming_the_category(host, category):
    with pytest.raises(AddressRefused, match=category) as info:
        check_address_allowed(host, "public", proxied=False)
    assert info.value.kind == KIND_PRIVATE


@pytest.mark.parametrize("host", ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "1.1.1.1"])
def test_public_literals_pass_every_policy(host):
    for policy in ("public", "loopback", "private"):
        check_address_allowed(host, policy, proxied=False)


def test_loopback_policy_allows_loopback_but_not_private_ranges():
    check_address_allowed("127.0.0.1", "loopback", proxied=False)
    check_address_allowed("::1", "loopback", proxied=False)
    with pytest.raises(AddressRefused, match="private"):
        check_address_allowed("10.0.0.1", "loopback", proxied=False)


def test_private_policy_allows_everything():
    for host, _ in REFUSED_UNDER_PUBLIC:
        check_address_allowed(host, "private", proxied=False)


def test_localhost_resolves_to_loopback_and_is_refused_under_public():
    with pytest.raises(AddressRefused, match="localhost resolves to .* loopback"):
        check_address_allowed("localhost", "public", proxied=False)
    check_address_allowed("localhost", "loopback", proxied=False)


def test_numeric_tricks_that_resolve_to_loopback_are_refused():
    with pytest.raises(AddressRefused, match="loopback"):
        check_address_allowed("2130706433", "public", proxied=False)  # 127.0.0.1 as one number


def test_unresolvable_names_fail_as_dns_without_a_proxy_and_pass_with_one():
    with pytest.raises(AddressRefused, match="cannot resolve") as info:
        check_address_allowed("no-such-host.invalid", "public", proxied=False)
    assert info.value.kind == KIND_DNS
    check_address_allowed("no-such-host.invalid", "public", proxied=True)


def test_an_unknown_policy_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown address policy 'open'"):
        check_address_allowed("1.1.1.1", "open", proxied=False)


def test_a_redirect_to_a_private_address_is_refused_and_recorded(web, no_proxy_env):
    fetcher = Fetcher("CrawlwebBot/0.1", address_policy="loopback")
    result = fetcher.fetch(f"{web.base}/to-private")
    assert result.error_kind == PRIVATE_ADDRESS
    assert "10.0.0.1" in result.error
    assert result.redirects == [(f"{web.base}/to-private", "http://10.0.0.1/secret", 302)]
    assert result.final_url == "http://10.0.0.1/secret"


def test_a_redirect_to_loopback_is_refused_under_the_public_policy_even_through_a_proxy(web, proxy, monkeypatch,
                                                                                         no_proxy_env):
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    fetcher = Fetcher("CrawlwebBot/0.1", address_policy="public")
    result = fetcher.fetch("http://public-site.test/to-loopback")
    assert result.error_kind == PRIVATE_ADDRESS
    assert result.redirects == [("http://public-site.test/to-loopback", f"{web.base}/page", 302)]
    assert "loopback" in result.error


def test_the_first_hop_to_loopback_is_refused_under_the_public_policy(web, no_proxy_env):
    result = Fetcher("CrawlwebBot/0.1").fetch(f"{web.base}/page")
    assert result.error_kind == PRIVATE_ADDRESS
    assert result.status is None and result.body == b""


def test_a_name_that_does_not_resolve_is_not_looked_up_again_for_a_while(monkeypatch):
    import socket

    from crawlweb.crawler import addresses

    calls = []
    real = socket.getaddrinfo

    def counting(host, *args, **kwargs):
        calls.append(host)
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", counting)
    for _ in range(3):
        check_address_allowed("negative-cache.invalid", "public", proxied=True)  # the proxy resolves it
    assert calls == ["negative-cache.invalid"]
    with pytest.raises(AddressRefused):
        check_address_allowed("negative-cache.invalid", "public", proxied=False)
    assert calls == ["negative-cache.invalid"], "the cached failure answers without a proxy too"
    addresses._cache.clear()


class _Payload:
    """Stands for what a fetch holds while it asks for a name: its response, its body."""


def _ask_for_a_name_that_does_not_resolve():
    held_by_the_caller = _Payload()
    try:
        check_address_allowed("held-frames.invalid", "public", proxied=False)
    except AddressRefused:
        pass
    return weakref.ref(held_by_the_caller)


def test_a_cached_resolver_failure_keeps_nothing_of_the_fetches_that_met_it():
    from crawlweb.crawler import addresses

    addresses._cache.clear()
    asked = [_ask_for_a_name_that_does_not_resolve() for _ in range(3)]  # the first resolves, the others hit
    gc.collect()
    assert [ref() for ref in asked] == [None, None, None], "a cached failure holds its callers' frames"
    assert "held-frames.invalid" in addresses._cache
    addresses._cache.clear()


class _RebindingResolver:
    """The outside world's DNS, answering a public address first and loopback afterwards (DNS rebinding)."""

    def __init__(self):
        self.answers = [["93.184.216.34"], ["127.0.0.1"]]
        self.asked = 0

    def __call__(self, host):
        answer = self.answers[min(self.asked, len(self.answers) - 1)]
        self.asked += 1
        return answer


def test_a_name_that_rebinds_to_loopback_after_the_check_never_reaches_loopback(web, no_proxy_env):
    # "localhost" would reach the loopback test server if the HTTP library resolved it on its own.
    resolver = _RebindingResolver()
    fetcher = Fetcher("CrawlwebBot/0.1", address_policy="public", resolver=resolver, connect_timeout=0.5)
    port = web.server_address[1]
    before = len(web.seen)
    result = fetcher.fetch(f"http://localhost:{port}/page")
    assert len(web.seen) == before, "the request reached the loopback server"
    assert not result.ok
    assert result.error_kind == PRIVATE_ADDRESS
    assert "127.0.0.1 is a loopback address" in result.error


def test_the_connection_goes_to_the_checked_address_with_the_original_host_header(web, no_proxy_env):
    asked = []

    def resolver(host):
        asked.append(host)
        return ["127.0.0.1"]

    fetcher = Fetcher("CrawlwebBot/0.1", address_policy="loopback", resolver=resolver)
    port = web.server_address[1]
    result = fetcher.fetch(f"http://made-up-name.test:{port}/page")
    assert result.ok, result.error
    assert web.seen[-1][2]["Host"] == f"made-up-name.test:{port}"
    assert set(asked) == {"made-up-name.test"}

