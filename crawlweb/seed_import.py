"""Parse seed files: plain text (one URL a line) or CSV (url[,label]). Pure: no Django.

Every bad line is reported with its line number; the good lines are kept, so one typo never
costs an operator the rest of the list.
"""
from __future__ import annotations

import codecs
import csv
import io
from dataclasses import dataclass
from urllib.parse import urlsplit

MAX_URL_LENGTH = 2000  # Seed.url's column; a longer URL is refused by line, never cut or left to the database
MAX_LABEL_LENGTH = 200  # Seed.label's column
# A seed file is a list an operator wrote or exported: larger ones are mistakes (a log, a dump) and are
# refused whole before anything is created.
MAX_SEED_FILE_BYTES = 20 * 1024 * 1024
MAX_SEED_LINES = 200_000
NO_URL = "no URL in the file: it is empty, or holds only blank lines and # comments"
# Byte-order marks, longest first (the UTF-32 LE mark begins with the UTF-16 LE one).
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


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

    @property
    def whole_file(self) -> bool:
        """The file was refused as a whole (not UTF-8, too large, no URL at all): nothing of it is imported."""
        return self.line == 0

    def __str__(self):
        if self.whole_file:
            return f"the whole file: {self.problem}"
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
    """The good entries and the bad lines of a seed file; a file refused whole (or holding no URL at all)
    is one error on line 0 (SeedError.whole_file)."""
    if isinstance(content, bytes):
        content, problem = decode_seed_bytes(content)
        if problem:
            return [], [SeedError(0, "", problem)]
    lines = content.count("\n") + 1
    if lines > MAX_SEED_LINES:
        return [], [SeedError(0, "", f"file has {lines:,} lines, over the limit of {MAX_SEED_LINES:,}: split it")]
    if len(content) > MAX_SEED_FILE_BYTES:
        return [], [SeedError(0, "", f"file has {len(content):,} characters, over the limit of "
                                     f"{MAX_SEED_FILE_BYTES:,}: split it")]
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
    if not entries and not errors:
        errors.append(SeedError(0, "", NO_URL))
    return entries, errors


def decode_seed_bytes(content: bytes) -> tuple[str, str | None]:
    """The text of a seed file: UTF-8, or UTF-8/16/32 with a byte-order mark. Anything else is refused
    with the encoding it most likely is, so the operator knows what to convert from."""
    if len(content) > 4 * MAX_SEED_FILE_BYTES:  # 4 bytes a character at most, in UTF-32
        return "", f"file is {len(content):,} bytes, over the limit of {MAX_SEED_FILE_BYTES:,} characters: split it"
    for bom, encoding in _BOMS:
        if content.startswith(bom):
            try:
                return content.decode(encoding), None
            except UnicodeDecodeError as error:
                return "", f"file starts with a {encoding.upper()} byte-order mark but is not {encoding.upper()} ({error})"
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as error:
        return "", f"file is not UTF-8 text (byte {error.start}){_hint(content)}"
    if "\x00" in text:  # valid UTF-8, but no text file holds NUL: UTF-16/32 without a mark, or binary
        return "", f"file is not UTF-8 text (NUL bytes){_hint(content)}"
    return text, None


def _hint(content: bytes) -> str:
    guess = _likely_encoding(content)
    if guess is None or guess in ("utf_8", "ascii"):  # no text encoding explains the bytes
        return "; it looks like binary data, not a list of URLs"
    return f"; it looks like {guess}: save it as UTF-8"


def _likely_encoding(content: bytes) -> str | None:
    from charset_normalizer import from_bytes  # imported here: only a refused file needs it
    best = from_bytes(content[:65536]).best()
    return best.encoding if best is not None else None


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
