"""The page shell, colours and escaping shared by the views."""

from __future__ import annotations

import html
from typing import Iterable

#: background shade of each text layer (light, so that span colours stay readable on top)
LAYER_COLOURS: dict[str, str] = {"JING": "#fff7d6", "ZHU": "#e3f0ff", "SHU": "#e6f5e6", "OTHER": "#eeeeee"}
LAYER_NAMES: dict[str, str] = {"JING": "經", "ZHU": "注", "SHU": "疏", "OTHER": "其他"}

#: span label colours (displaCy ``colors`` option)
LABEL_COLOURS: dict[str, str] = {
    "ACTOR": "#f4a3a3",
    "VERB": "#9fd3f7",
    "OBJECT": "#f7d794",
    "LOCATION": "#a8e6a1",
    "FACING": "#d5b3f0",
}

FONT_STACK = ('"Noto Serif CJK TC", "Noto Sans CJK TC", "Source Han Serif TC", "WenQuanYi Micro Hei", '
              '"PingFang TC", "Microsoft JhengHei", serif')

BASE_CSS = f"""
body {{ font-family: {FONT_STACK}; margin: 1.5em auto; max-width: 72em; padding: 0 1em; color: #222; }}
h1 {{ font-size: 1.6em; }} h2 {{ font-size: 1.25em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }}
table {{ border-collapse: collapse; margin: 0.6em 0; }}
th, td {{ border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }}
th {{ background: #f3f3f3; }}
.legend span {{ display: inline-block; padding: 0.1em 0.6em; margin-right: 0.4em; border-radius: 0.3em; }}
.meta {{ color: #666; font-size: 0.85em; }}
.num {{ text-align: right; }}
"""


def esc(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def page(title: str, body: str, css: str = "") -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"zh-Hant\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{esc(title)}</title>\n<style>{BASE_CSS}{css}</style>\n</head>\n<body>\n"
        f"<h1>{esc(title)}</h1>\n{body}\n</body>\n</html>\n"
    )


def legend(items: Iterable[tuple[str, str]], cls: str = "legend") -> str:
    return f'<p class="{cls}">' + "".join(f'<span style="background:{c}">{esc(t)}</span>' for t, c in items) + "</p>"


def table(headers: list[str], rows: Iterable[Iterable[object]], cls: str = "") -> str:
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="num">{esc(v)}</td>' if isinstance(v, (int, float)) else f"<td>{esc(v)}</td>" for v in row
        )
        body.append(f"<tr>{cells}</tr>")
    return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
