"""The few HTML primitives every page of the report uses: escaping, data for scripts, the
page shell with its no-network policy.

Everything a bot made (its messages, its stderr, a reason quoting it) is hostile: it is
only ever put in a page through :func:`esc` or :func:`json_script`, never as markup.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from html import escape
from typing import Any

from arena_kernel.model import cell

CSP = (
    "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)
"""The pages' Content-Security-Policy: scripts and styles from the report's own folder,
nothing fetched from anywhere, not even a form submitted; a page opened from disk works."""

_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def esc(value: Any) -> str:
    """``value`` as HTML text (quotes too, so it may sit in an attribute)."""
    return escape(str(value), quote=True)


def json_script(element_id: str, data: Any) -> str:
    """``data`` as a ``<script type="application/json">`` block a page's script reads with
    ``JSON.parse``. ``<``, ``>`` and ``&`` are written as JSON escapes, so no text inside
    (``</script>`` from a bot, say) can end the block: the browser never sees a tag."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (
        f'<script type="application/json" id="{esc(element_id)}">'
        f"{text.translate(_SCRIPT_SAFE)}</script>"
    )


def page(
    title: str,
    body: str,
    *,
    root: str,
    scripts: Iterable[str] = (),
    styles: Iterable[str] = (),
) -> str:
    """A whole page: ``root`` is the relative path from the page to the report's folder
    (``""`` or ``"../"``); ``scripts`` and ``styles`` are paths under that folder."""
    links = "".join(
        f'<link rel="stylesheet" href="{esc(root + path)}">'
        for path in ("assets/report.css", *styles)
    )
    tags = "".join(f'<script src="{esc(root + path)}"></script>' for path in scripts)
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{esc(title)}</title>{links}</head>\n"
        f"<body>{body}{tags}</body></html>\n"
    )


def table(
    columns: Iterable[str],
    rows: Iterable[Iterable[Any]],
    *,
    cls: str = "",
    numeric: Iterable[bool] | None = None,
) -> str:
    """A plain data table; each cell's value is escaped, None shows as a dash."""
    columns = list(columns)
    cells = [list(row) for row in rows]
    right = list(numeric) if numeric is not None else _numeric(cells, len(columns))
    head = "".join(
        f"<th{' class=num' if num else ''}>{esc(col)}</th>"
        for col, num in zip(columns, right, strict=True)
    )
    body = "".join(
        "<tr>"
        + "".join(
            f"<td{' class=num' if num else ''}>{esc(cell(value))}</td>"
            for value, num in zip(row, right, strict=True)
        )
        + "</tr>"
        for row in cells
    )
    attr = f' class="{esc(cls)}"' if cls else ""
    return f"<table{attr}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _numeric(rows: list[list[Any]], width: int) -> list[bool]:
    """Columns whose every value is a number (or undefined) are right-aligned."""
    return [
        bool(rows) and all(isinstance(row[i], int | float | None) for row in rows)
        for i in range(width)
    ]
