"""URL normalization, link resolution and validation (Combine focused crawler, section 4.3 "URL filtering").

Every URL is normalized before it enters the database so that the many spellings of one address
collapse to one key. Normalization follows the Combine list (host lower-casing, port substitution,
fragment removal, CGI repetitions, dot collapsing, session ids, server aliases) plus RFC 3986 section 6.2.2
(case and percent-encoding normalization). Validation is Combine's three tests: length, allow, exclude.
"""
from __future__ import annotations

import fnmatch
import ipaddress
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import SplitResult, urljoin, urlsplit, urlunsplit

import idna

from . import suffixes
from .regex_safety import backtracking_problem
from .suffixes import split_domain

DEFAULT_SESSION_PARAMS: tuple[str, ...] = (
    "jsessionid", "phpsessid", "sid", "sessionid", "session_id", "aspsessionid*", "cfid", "cftoken",
)
DEFAULT_PORTS = {"http": 80, "https": 443, "ftp": 21}
MAX_URL_LENGTH = 250  # Combine's default maxUrlLength

# Binary formats we never fetch as documents. PDF is deliberately absent: it is a document. So are
# scripts (.js, .mjs): a site's own script may name the pages no <a href> names (links of kind
# "script-src", which only the site's own scripts get: crawler.scriptlinks.own_script).
BINARY_EXTENSIONS: frozenset[str] = frozenset("""
    jpg jpeg jpe png gif bmp tif tiff webp ico svg svgz avif heic psd raw cr2 nef
    mp3 wav ogg oga opus flac aac m4a wma mid midi aif aiff
    mp4 m4v mkv avi mov wmv flv webm mpg mpeg 3gp ogv swf
    zip rar 7z tar gz tgz bz2 tbz xz txz lz lzma z cab iso dmg jar war apk deb rpm
    exe msi bin dll so dylib class pkg app bat com
    woff woff2 ttf otf eot
    css map
""".split())

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Characters legal as-is in a path or query (RFC 3986 pchar + "/" + "?"); everything else is escaped.
_PATH_SAFE = _UNRESERVED | frozenset("!$&'()*+,;=:@/%")
_QUERY_SAFE = _PATH_SAFE | frozenset("?")
_USERINFO_SAFE = _UNRESERVED | frozenset("!$&'()*+,;=:%")
_HEX = "0123456789abcdefABCDEF"
_NON_FETCHABLE_SCHEMES = frozenset({
    "javascript", "mailto", "tel", "data", "about", "sms", "callto", "skype", "vbscript", "file", "blob",
})
_JSESSIONID_PATH = re.compile(r";jsessionid=[^/?#]*", re.IGNORECASE)
_HOST_CHARS = re.compile(r"^[a-z0-9._~!$&'()*+,;=-]+$")


class InvalidURL(ValueError):
    """A URL that cannot be normalized; the message says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class RuleError(ValueError):
    """A bad line in an allow/exclude rule file; the message names the line number."""


# --- normalization -----------------------------------------------------------------------------------


def _normalize_percent(text: str, safe: frozenset[str]) -> str:
    """Decode escaped unreserved characters, upper-case other escapes, escape unsafe characters (RFC 3986 6.2.2)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "%" and i + 2 < n and text[i + 1] in _HEX and text[i + 2] in _HEX:
            decoded = chr(int(text[i + 1:i + 3], 16))
            out.append(decoded if decoded in _UNRESERVED else "%" + text[i + 1:i + 3].upper())
            i += 3
            continue
        if ch == "%":
            out.append("%25")  # a lone percent sign is data, not an escape
        elif ch in safe:
            out.append(ch)
        else:
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
        i += 1
    return "".join(out)


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 section 5.2.4."""
    if "." not in path:
        return path
    output: list[str] = []
    segments = path.split("/")
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        if seg == ".":
            if last:
                output.append("")
        elif seg == "..":
            if len(output) > 1:
                output.pop()
            if last:
                output.append("")
        else:
            output.append(seg)
    result = "/".join(output)
    if path.startswith("/") and not result.startswith("/"):
        result = "/" + result
    return result


def _normalize_host(host: str) -> str:
    host = host.strip().rstrip(".").lower()
    if not host:
        raise InvalidURL("URL has no host")
    if host.startswith("["):
        if not host.endswith("]"):
            raise InvalidURL(f"bad IPv6 literal {host!r}")
        try:
            return "[" + ipaddress.IPv6Address(host[1:-1]).compressed + "]"
        except ValueError:
            raise InvalidURL(f"bad IPv6 literal {host!r}") from None
    if host.isascii():
        if not _HOST_CHARS.match(host):
            raise InvalidURL(f"host {host!r} contains characters not allowed in a host name")
        if ".." in host or len(host) > 253:
            raise InvalidURL(f"host {host!r} is not a valid host name")
        if "xn--" in host:
            try:  # an ASCII host may still carry broken punycode
                idna.decode(host)
            except idna.IDNAError as exc:
                raise InvalidURL(f"host {host!r} is not a valid international domain name ({exc})") from None
        return host
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except idna.IDNAError as exc:
        raise InvalidURL(f"host {host!r} is not a valid international domain name ({exc})") from None


def _split(url: str) -> SplitResult:
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 -- raises ValueError for a bad port
    except ValueError as exc:
        raise InvalidURL(f"malformed URL: {exc}") from None
    return parts


@lru_cache(maxsize=64)
def _session_matcher(patterns: tuple[str, ...]):
    """One regex for all session-id name patterns (shell-style, case-insensitive)."""
    if not patterns:
        return lambda name: False
    rx = re.compile("|".join(f"(?:{fnmatch.translate(p.lower())})" for p in patterns))
    return lambda name: rx.match(name.lower()) is not None


def _normalize_query(query: str, is_session) -> str:
    seen: set[str] = set()
    kept: list[str] = []
    for param in query.split("&"):
        if not param:
            continue
        param = _normalize_percent(param, _QUERY_SAFE)
        name = param.split("=", 1)[0]
        if is_session(name) or param in seen:  # Combine: session ids and CGI repetitions go
            continue
        seen.add(param)
        kept.append(param)
    return "&".join(kept)


def normalize_url(
    url: str,
    *,
    session_params: Iterable[str] = DEFAULT_SESSION_PARAMS,
    host_aliases: Mapping[str, str] | None = None,
) -> str:
    """Return the canonical spelling of an absolute URL, or raise InvalidURL naming the problem.

    session_params are case-insensitive shell-style patterns of query parameter names (``aspsessionid*``);
    host_aliases maps an alias host to its canonical host (Combine's ``serveralias``).
    """
    if not isinstance(url, str) or not url.strip():
        raise InvalidURL("empty URL")
    parts = _split(url)
    scheme = parts.scheme.lower()
    if not scheme:
        raise InvalidURL(f"URL {url!r} has no scheme (expected http:// or https://)")
    if not parts.netloc or parts.hostname is None:
        raise InvalidURL(f"URL {url!r} has no host")
    raw_host = parts.netloc.rpartition("@")[2]
    if raw_host.startswith("["):
        raw_host = raw_host[: raw_host.index("]") + 1] if "]" in raw_host else raw_host
    else:
        raw_host = raw_host.split(":", 1)[0]
    host = _normalize_host(raw_host)
    if host_aliases:
        aliases = {k.strip().rstrip(".").lower(): v.strip().rstrip(".").lower() for k, v in host_aliases.items()}
        host = aliases.get(host, host)
    netloc = host
    if parts.port is not None and parts.port != DEFAULT_PORTS.get(scheme):
        netloc = f"{host}:{parts.port}"
    userinfo = parts.netloc.rpartition("@")[0] if "@" in parts.netloc else ""
    if userinfo:
        netloc = f"{_normalize_percent(userinfo, _USERINFO_SAFE)}@{netloc}"

    path = _JSESSIONID_PATH.sub("", parts.path)
    path = _remove_dot_segments(_normalize_percent(path, _PATH_SAFE))
    if not path and scheme in ("http", "https"):
        path = "/"
    query = _normalize_query(parts.query, _session_matcher(tuple(session_params)))
    return urlunsplit((scheme, netloc, path, query, ""))


def resolve_link(base_url: str, href: str | None) -> str | None:
    """Absolute URL of href as linked from base_url (fragment kept), or None when it leads nowhere fetchable."""
    if href is None:
        return None
    # HTML: strip surrounding whitespace, drop tabs and newlines anywhere in the URL.
    href = re.sub(r"[\t\n\r]", "", href.strip(" \t\n\r\f"))
    if not href:
        return None
    scheme = re.match(r"^([a-zA-Z][a-zA-Z0-9+.-]*):", href)
    if scheme and scheme.group(1).lower() in _NON_FETCHABLE_SCHEMES:
        return None
    try:
        return urljoin(base_url, href.replace("\\", "/") if not scheme else href)
    except ValueError:
        return None


def defragment(url: str) -> str:
    """url without its #fragment."""
    return url.split("#", 1)[0]


# --- allow / exclude rules ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Rule:
    action: str  # "allow" | "exclude"
    target: str  # "HOST" | "URL"
    pattern: re.Pattern
    line: int

    @property
    def label(self) -> str:
        return f"{self.target}:{self.pattern.pattern}"

    def matches(self, url: str, host: str) -> bool:
        return bool(self.pattern.search(host if self.target == "HOST" else url))


_BINARY_EXT_RX = re.compile(r"\.(" + "|".join(sorted(map(re.escape, BINARY_EXTENSIONS))) + r")$", re.IGNORECASE)


@dataclass
class UrlRules:
    """Combine's allow/exclude tests: HOST: regexes match the host, URL: regexes the whole URL (re.search)."""

    allow: list[_Rule] = field(default_factory=list)
    exclude: list[_Rule] = field(default_factory=list)
    default_excludes: bool = True

    @classmethod
    def parse(cls, text_or_lines: str | Iterable[str], *, default_excludes: bool = True) -> "UrlRules":
        lines = text_or_lines.splitlines() if isinstance(text_or_lines, str) else list(text_or_lines)
        rules = cls(default_excludes=default_excludes)
        for number, raw in enumerate(lines, start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            action, _, rest = line.partition(" ")
            action = action.lower()
            if action not in ("allow", "exclude"):
                raise RuleError(f"line {number}: expected 'allow' or 'exclude' at the start, got {action!r}")
            rest = rest.strip()
            target, sep, regex = rest.partition(":")
            if not sep or target.upper() not in ("HOST", "URL"):
                raise RuleError(f"line {number}: expected HOST:<regex> or URL:<regex> after {action!r}, got {rest!r}")
            if not regex:
                raise RuleError(f"line {number}: empty regular expression after {target.upper()}:")
            try:
                compiled = re.compile(regex, re.IGNORECASE if target.upper() == "HOST" else 0)
            except re.error as exc:
                raise RuleError(f"line {number}: bad regular expression {regex!r}: {exc}") from None
            problem = backtracking_problem(regex)
            if problem:
                raise RuleError(f"line {number}: regular expression {regex!r} refused: {problem}")
            rule = _Rule(action, target.upper(), compiled, number)
            (rules.allow if action == "allow" else rules.exclude).append(rule)
        return rules

    def check(self, url: str) -> str | None:
        """None when the URL passes the allow test and no exclude test; otherwise the reason."""
        try:
            parts = urlsplit(url)
            host = (parts.hostname or "").lower()
        except ValueError as exc:
            return f"malformed URL: {exc}"
        if self.default_excludes:
            if not host or not parts.scheme:
                return "malformed URL: no scheme or host"
            ext = _BINARY_EXT_RX.search(parts.path)
            # Gzip-compressed XML is how large sites ship their sitemaps (sitemaps.py reads them).
            if ext and not parts.path.lower().endswith(".xml.gz"):
                return f"excluded: binary file extension .{ext.group(1).lower()}"
        if self.allow and not any(rule.matches(url, host) for rule in self.allow):
            return "not allowed"
        for rule in self.exclude:
            if rule.matches(url, host):
                return f"excluded by {rule.label}"
        return None


def validate_url(url: str, rules: UrlRules | None = None, max_length: int = MAX_URL_LENGTH) -> str | None:
    """Combine's validation: None when the URL may be scheduled, else the reason it may not."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        return f"malformed URL: {exc}"
    if parts.scheme.lower() not in ("http", "https"):
        return f"scheme {parts.scheme or '(none)'!r} is not http or https"
    if not parts.hostname:
        return "malformed URL: no host"
    if len(url) > max_length:
        return f"URL is {len(url)} characters long, over the limit of {max_length}"
    return (rules or _DEFAULT_RULES).check(url)


_DEFAULT_RULES = UrlRules()


# --- hosts and sites ----------------------------------------------------------------------------------


def site_name(host: str, strip_www: bool = True) -> str:
    """The key of a Site: the host, lower-cased, without port and (by default) without a leading 'www.'."""
    host = host.strip().lower().rstrip(".")
    if not host.startswith("[") and host.count(":") == 1:
        host = host.split(":", 1)[0]
    if strip_www and host.startswith("www.") and host.count(".") >= 2:
        host = host[4:]
    return host


@lru_cache(maxsize=65536)
def ends_in_public_suffix(name: str) -> bool:
    """Does the dotted name end in a public suffix ('primer.rs', 'a.co.rs', 'github.io': yes; 'o-nama.html': no)?"""
    _, domain, suffix = split_domain(name.lower().rstrip("."), private=False)
    return bool(suffix and domain)


@lru_cache(maxsize=65536)
def registrable_domain(host: str) -> str:
    """The registrable domain of a host as the crawl names it (any case, a port, a trailing dot):
    'www.rts.co.rs' -> 'rts.co.rs', 'ana.github.io' -> 'ana.github.io' (crawlweb.crawler.suffixes)."""
    return suffixes.registrable_domain(site_name(host, strip_www=False))
