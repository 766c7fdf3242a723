"""The stylesheet's blocks close where they should: an unclosed media query swallows every rule after it."""

import re
from pathlib import Path

STYLESHEET = Path(__file__).resolve().parent.parent / "static" / "css" / "tablescore.css"


def blocks(css: str) -> list[tuple[str, int]]:
    """Each top-level block's prelude and the depth its body goes down to, comments and strings left out."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    css = re.sub(r'"[^"\n]*"|\'[^\'\n]*\'', '""', css)
    found, depth, deepest, prelude, start = [], 0, 0, "", 0
    for index, character in enumerate(css):
        if character == "{":
            if depth == 0:
                prelude = css[start:index].strip()
                deepest = 0
            depth += 1
            deepest = max(deepest, depth)
        elif character == "}":
            depth -= 1
            assert depth >= 0, f"a closing brace with nothing open, after {css[max(0, index - 60) : index]!r}"
            if depth == 0:
                found.append((prelude, deepest))
                start = index + 1
    assert depth == 0, f"{depth} block(s) never closed; the last one opened with {prelude!r}"
    return found


def test_every_block_of_the_stylesheet_closes():
    assert len(blocks(STYLESHEET.read_text(encoding="utf-8"))) > 50


def test_rules_nest_only_inside_at_rules():
    for prelude, deepest in blocks(STYLESHEET.read_text(encoding="utf-8")):
        if deepest > 1:
            assert prelude.startswith("@"), f"{prelude!r} holds a block of its own"
        assert not (prelude.startswith("@media") and deepest > 2), f"{prelude!r} nests a block inside a rule"


def test_an_unclosed_media_query_is_found():
    unclosed = "@media (max-width: 40rem) {\n  a { color: red; }\n\n.card { padding: 1rem; }\n"
    try:
        blocks(unclosed)
    except AssertionError as error:
        assert "never closed" in str(error)
    else:
        raise AssertionError("an unclosed media query went unnoticed")
