"""Parse seed files: plain text (one URL a line) or CSV (url[,label]). Pure: no Django.

Every bad line is reported with its line number; the good lines are kept, so one typo never
costs an operator the rest of the list.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from urllib.parse import urlsplit

MAX_URL_LENGTH = 2000  # Seed.url's column; a longer URL is refused by line, never cut or left to the database
MAX_LABEL_LENGTH = 200  # Seed.label's column


@dataclass(frozen=True)
class SeedEntry:
    line: int
    url: str
    label: str = ""


@dataclass(frozen=True)
class SeedError:
    line: int
    text: str
    problem: str

    def __str__(self):
        return f"line {self.line}: {self.problem}: {self.text!r}"


def url_problem(url: str) -> str | None:
    """Why ``url`` cannot be a seed, or None when it can."""
    if len(url) > MAX_URL_LENGTH:
        return f"URL longer than {MAX_URL_LENGTH} characters ({len(url)})"
    if any(ch.isspace() for ch in url):
        return "URL contains whitespace"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as error:
        return f"malformed URL ({error})"
    if parts.scheme not in ("http", "https"):
        return "not an http(s) URL"
    if not parts.hostname or "." not in parts.hostname.strip("."):
        return "URL has no valid host name"
    return None


def parse_seed_file(content: str | bytes, filename: str = "") -> tuple[list[SeedEntry], list[SeedError]]:
    if isinstance(content, bytes):
        try:
            content = content.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            return [], [SeedError(0, "", f"file is not UTF-8 text ({error})")]
    is_csv = filename.lower().endswith(".csv") or _looks_like_csv(content)
    rows = _csv_rows(content) if is_csv else _text_rows(content)
    entries: list[SeedEntry] = []
    errors: list[SeedError] = []
    first_line_of: dict[str, int] = {}
    for line_no, url, label, raw in rows:
        problem = url_problem(url)
        if not problem and len(label) > MAX_LABEL_LENGTH:
            problem = f"label longer than {MAX_LABEL_LENGTH} characters ({len(label)})"
        if problem:
            errors.append(SeedError(line_no, raw if len(raw) <= 120 else raw[:100] + "…", problem))
        elif url in first_line_of:
            errors.append(SeedError(line_no, raw, f"duplicate of line {first_line_of[url]}"))
        else:
            first_line_of[url] = line_no
            entries.append(SeedEntry(line_no, url, label))
    return entries, errors


def _looks_like_csv(content: str) -> bool:
    first = next((line for line in content.splitlines() if line.strip() and not line.startswith("#")), "")
    return "," in first


def _text_rows(content: str):
    for line_no, raw in enumerate(content.splitlines(), start=1):
        text = raw.strip()
        if text and not text.startswith("#"):
            yield line_no, text, "", raw


def _csv_rows(content: str):
    reader = csv.reader(io.StringIO(content))
    for row in reader:
        line_no = reader.line_num
        cells = [cell.strip() for cell in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if line_no == 1 and cells[0].lower() in ("url", "seed", "seed_url"):
            continue  # a header row
        label = cells[1] if len(cells) > 1 else ""
        yield line_no, cells[0], label, ",".join(row)
