"""Lorem ipsum: a template's filler text is no page's language.

Half-finished real sites keep the template's "Lorem ipsum dolor sit amet…" under a translated frame
(termo.duskomaksimovic on the real development web: English, German, Russian and Serbian gallery
pages, each a translated menu over the same filler). fastText reads the filler as Latin and calls the
page "la", so the site loses its English and Serbian pages. The language of such a page is the
language of its other lines; a page of filler only has none ("und", too short).

A line is filler when at least FILLER_SHARE of its words (and MIN_WORDS of them) are words of the
filler generators, and one of them is a word no living language of ours writes (``SIGNATURE``):
Italian, Spanish or a Latin motto share "non", "est", "in", never "consectetur" and "eiusmod".
Pure: no Django.
"""
from __future__ import annotations

from .markers import words

# The Cicero passage as the generators cut it, and the words lipsum-style generators add.
FILLER_WORDS = frozenset("""
lorem ipsum dolor sit amet consectetur consectetuer adipiscing adipisicing elit sed do eiusmod tempor
incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco
laboris nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit esse
cillum eu fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt culpa qui officia
deserunt mollit anim id est laborum vestibulum mauris nunc integer donec aenean etiam praesent
suspendisse morbi pellentesque curabitur quisque phasellus maecenas nam nullam vivamus fusce cras proin
ac a eget vel at nec quam sapien ligula tellus tortor orci lectus lacus purus felis metus neque nibh
massa mi risus diam urna augue leo justo dui libero odio erat turpis arcu ante vitae sem semper
porttitor posuere rhoncus tincidunt ultrices ultricies viverra volutpat vulputate sagittis mattis
malesuada lacinia interdum faucibus euismod elementum dignissim convallis condimentum blandit aliquam
accumsan auctor bibendum congue cursus dapibus efficitur egestas eleifend facilisis fermentum
feugiat fringilla gravida hendrerit iaculis imperdiet lobortis luctus molestie ornare pharetra placerat
pretium pulvinar scelerisque sodales sollicitudin suscipit tristique varius venenatis
totam rem aperiam eaque ipsa quae ab illo inventore veritatis quasi architecto beatae dicta
explicabo nemo ipsam voluptatem quia voluptas aspernatur aut odit fugit consequuntur magni dolores eos
ratione sequi nesciunt porro quisquam dolorem adipisci numquam eius modi tempora incidunt
""".split())
SIGNATURE = frozenset("""
lorem ipsum dolor amet consectetur consectetuer adipiscing adipisicing eiusmod incididunt aliqua
nostrud ullamco laboris aliquip reprehenderit voluptate cillum fugiat pariatur excepteur occaecat
cupidatat proident deserunt mollit laborum vestibulum pellentesque suspendisse maecenas curabitur
phasellus aenean
""".split())
FILLER_SHARE = 0.6
MIN_WORDS = 4


def is_filler(line: str) -> bool:
    tokens = words(line)  # the identifier's own tokens
    if len(tokens) < MIN_WORDS or not SIGNATURE.intersection(tokens):
        return False
    return sum(1 for t in tokens if t in FILLER_WORDS) >= FILLER_SHARE * len(tokens)


def without_filler(text: str) -> tuple[str, int]:
    """``text`` without its filler lines, and how many lines were taken out."""
    kept, dropped = [], 0
    for line in text.splitlines():
        if is_filler(line):
            dropped += 1
        else:
            kept.append(line)
    return ("\n".join(kept), dropped) if dropped else (text, 0)
