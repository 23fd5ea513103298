"""Real static sites served beside the generated ones.

The directory holds `hosts/<host>/<path>` files and a `truth.json` (see
/work/shared/data/README.md). `http://<host>/<path>` serves the file; a directory URL
serves its index.html, and a folder named without its closing slash is redirected (301) to the
name with it, as static hosts (GitHub Pages, nginx, Apache) do, so relative links on its index
resolve inside the folder. Any other file the folder holds is served as it is (robots.txt and
sitemap.xml of the real web, scripts); a file the site does not ship is 404.

The real development web (scripts/build_realweb.py, REAL_WEB_DIR) is such a folder too: its
truth.json adds hub hosts (kind "hub") that link the sites and its own `seed_urls`.
"""

from __future__ import annotations

import json
import mimetypes
from functools import cached_property
from pathlib import Path
from urllib.parse import unquote

from .responses import Response, error_page, html_response, redirect


class RealSitesError(ValueError):
    """The real-sites directory is missing or malformed."""


class RealSites:
    def __init__(self, directory: str | Path):
        self.root = Path(directory)
        self.hosts_dir = self.root / "hosts"
        if not self.hosts_dir.is_dir():
            raise RealSitesError(f"{self.root} has no hosts/ directory: not a real-sites directory")
        if not (self.root / "truth.json").is_file():
            raise RealSitesError(f"{self.root} has no truth.json")
        self.hosts = frozenset(p.name.lower() for p in self.hosts_dir.iterdir() if p.is_dir())

    def has_host(self, host: str) -> bool:
        return host.lower() in self.hosts

    def _inside_host(self, host: str, path: str) -> Path | None:
        """What ``path`` names in the host's folder; None when "../" would leave it."""
        base = (self.hosts_dir / host).resolve()
        relative = unquote(path).lstrip("/")
        candidate = (base / relative).resolve() if relative else base
        return candidate if candidate == base or base in candidate.parents else None

    def respond(self, host: str, path: str) -> Response:
        found = self._inside_host(host.lower(), path)
        if found is not None and found.is_dir():
            found = found / "index.html"
            if found.is_file() and not path.endswith("/"):  # as static hosts do (module docstring)
                return redirect(f"http://{host.lower()}{path}/")
        if found is None or not found.is_file():
            return error_page(404, f"no file {path} on {host}")
        body = found.read_bytes()
        if found.suffix.lower() in (".html", ".htm"):
            try:
                body.decode("utf-8")
                return html_response(body)
            except UnicodeDecodeError:
                return html_response(body, charset=None)
        content_type = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
        return Response(200, {"Content-Type": content_type, "Content-Length": str(len(body))}, body)

    @cached_property
    def _truth(self) -> dict:
        try:
            return json.loads((self.root / "truth.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise RealSitesError(f"cannot read {self.root / 'truth.json'}: {error}") from error

    @property
    def seed_urls(self) -> list[str]:
        """The folder's own seeds (hubs plus a few sites) when it names them; else every site's
        root, since nothing else links to the sites."""
        named = self._truth.get("seed_urls")
        return list(named) if named else [f"http://{site['host']}/" for site in self.truth_sites]

    @cached_property
    def truth_sites(self) -> list[dict]:
        """Sites of truth.json, with the keys generated sites have (kind, hosts)."""
        sites = []
        for site in self._truth.get("sites", []):
            merged = dict(site)
            merged.setdefault("kind", "real")
            merged.setdefault("hosts", [site["host"]])
            sites.append(merged)
        return sites
