"""Writing SVG elements: every text and attribute escaped, numbers rounded to what a screen shows."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr


def number(value: float) -> str:
    """A coordinate with at most one decimal, no trailing zeros."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def attributes(values: dict[str, object]) -> str:
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        text = number(value) if isinstance(value, float) else str(value)
        parts.append(f" {key.rstrip('_').replace('_', '-')}={quoteattr(text)}")
    return "".join(parts)


def element(tag: str, content: str = "", **values: object) -> str:
    """One element; ``content`` is already SVG (use ``text`` for words)."""
    return f"<{tag}{attributes(values)}>{content}</{tag}>" if content else f"<{tag}{attributes(values)}/>"


def text(x: float, y: float, words: str, **values: object) -> str:
    return f"<text{attributes({'x': float(x), 'y': float(y), **values})}>{escape(str(words))}</text>"


def polyline(points: list[tuple[float, float]], **values: object) -> str:
    return element("polyline", points=" ".join(f"{number(x)},{number(y)}" for x, y in points), **values)


def document(width: int, height: int, title: str, description: str, ident: str, body: list[str]) -> str:
    """The ``<svg>``: an image named by its title and described by its description for screen readers."""
    head = f'<title id="{ident}-title">{escape(title)}</title><desc id="{ident}-desc">{escape(description)}</desc>'
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" class="plot-image"'
        f' aria-labelledby="{ident}-title {ident}-desc" focusable="false">{head}{"".join(body)}</svg>'
    )
