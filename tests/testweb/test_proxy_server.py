"""The loopback proxy itself: request forms, HEAD, errors, threads, disconnects and the log."""
from __future__ import annotations

import socket
import threading
import time

import pytest
import requests

from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.server import TestWebServer


def raw_request(server, request_text: str, read_all: bool = True) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(request_text.encode("ascii"))
        chunks = []
        while read_all:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


def test_absolute_form_and_origin_form_requests_get_the_same_page(server, truth):
    url = truth["sites"][2]["parallel_pairs"][0][0]
    host, path = url[len("http://"):].split("/", 1)
    absolute = raw_request(server, f"GET {url} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
    origin = raw_request(server, f"GET /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
    assert absolute.startswith(b"HTTP/1.1 200")
    assert absolute.split(b"\r\n\r\n", 1)[1] == origin.split(b"\r\n\r\n", 1)[1]


def test_connect_is_refused_because_the_test_web_is_plain_http(server):
    answer = raw_request(server, "CONNECT www.primer.rs:443 HTTP/1.1\r\nHost: www.primer.rs:443\r\n"
                                 "Connection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 501")


def test_unknown_hosts_get_bad_gateway_like_from_a_proxy(client):
    assert client("http://www.example.com/").status_code == 502


def test_only_get_and_head_are_served(client, truth):
    answer = client(truth["seed_urls"][0], method="POST", data=b"x=1")
    assert answer.status_code == 405 and answer.headers["Allow"] == "GET, HEAD"


def test_head_sends_the_headers_of_get_without_a_body(client, truth):
    url = truth["seed_urls"][0]
    head, get = client(url, method="HEAD"), client(url)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["Content-Length"] == get.headers["Content-Length"] == str(len(get.content))
    oversized = client(truth["special_urls"]["oversized"], method="HEAD")
    assert oversized.headers["Content-Length"] == str(11 * 1024 * 1024) and oversized.content == b""


def test_the_log_records_each_request_with_times_host_and_status(server, client, truth):
    server.clear_log()
    url = truth["seed_urls"][0]
    before = time.monotonic()
    client(url)
    client("http://www.example.com/")
    # The server is shared: a background crawl of an earlier test may still send requests.
    first, second = [r for r in server.requests if r.url in (url, "http://www.example.com/")]
    assert (first.method, first.url, first.host, first.status) == ("GET", url, url.split("/")[2], 200)
    assert second.status == 502 and second.host == "www.example.com"
    assert before <= first.monotonic <= first.monotonic_end <= second.monotonic
    assert abs(first.wall - time.time()) < 60 and first.client[0] == "127.0.0.1"
    server.clear_log()
    assert server.requests == []


def test_a_slow_page_does_not_hold_up_other_requests(server, client, truth):
    server.clear_log()
    slow = threading.Thread(target=client, args=(truth["special_urls"]["slow"],))
    slow.start()
    time.sleep(0.05)
    started = time.monotonic()
    assert client(truth["seed_urls"][0]).status_code == 200
    assert time.monotonic() - started < 0.3
    slow.join()
    fast_record, slow_record = sorted(server.requests, key=lambda r: r.monotonic_end)
    assert slow_record.monotonic < fast_record.monotonic_end < slow_record.monotonic_end  # overlapped


def test_the_server_survives_a_client_that_leaves_mid_body(server, client, truth):
    server.clear_log()
    url = truth["special_urls"]["oversized"]
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(f"GET {url} HTTP/1.1\r\nHost: www.problemi.rs\r\n\r\n".encode())
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    deadline = time.monotonic() + 10
    while not server.requests and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.requests[0].completed is False
    assert server.requests[0].bytes_sent < 11 * 1024 * 1024
    assert client(truth["seed_urls"][0]).status_code == 200


def test_many_concurrent_clients_are_all_answered(server, truth):
    urls = [url for site in truth["sites"] for url in list(site["pages"])[:4]][:40]
    results = {}

    def fetch(url):
        with requests.Session() as session:
            session.trust_env = False
            results[url] = session.get(url, proxies={"http": server.proxy_url}, timeout=15).status_code

    threads = [threading.Thread(target=fetch, args=(url,)) for url in urls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == len(urls) and set(results.values()) == {200}


def test_server_reports_its_port_and_stops_cleanly():
    server = TestWebServer(generate_web(seed=2, size=3, pages_per_site=2))
    with pytest.raises(RuntimeError, match="not running"):
        _ = server.port
    with server:
        assert server.proxy_url == f"http://127.0.0.1:{server.port}" and server.port > 0
        with pytest.raises(RuntimeError, match="already running"):
            server.start()
        port = server.port
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
