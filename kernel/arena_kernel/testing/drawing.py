"""A renderer's drawing script checked without a browser, under Node.js: what
:func:`arena_kernel.testkit.check_drawing` does."""

from __future__ import annotations

import json
import re
import subprocess

from arena_kernel.report.renderer import Renderer

LOAD = """
globalThis.window = globalThis;
globalThis.arenaReport = { drawers: {} };
const source = require("fs").readFileSync(0, "utf8");
new Function(source)();
const drawer = arenaReport.drawers[%s];
process.stdout.write(typeof drawer === "function" ? String(drawer.length) : "missing");
"""
"""Runs the script as a page would load it (the report's namespace made first) and says
how many parameters the game's drawer takes, or that it registered none."""

MARKUP = re.compile(r"\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write")
"""How a script would turn text into markup: a bot's text must only ever be text."""


def check_drawing(renderer: Renderer, node: str) -> None:
    """Raise AssertionError unless ``renderer``'s drawing script loads under Node.js
    (``node``: its path) and registers ``arenaReport.drawers[<its name>]``, a function of
    ``(element, picture, context)``; builds no markup from strings; and its style, if any,
    is scoped under ``.picture-<name>``."""
    name = renderer.name
    script = renderer.script()
    if not script:
        raise AssertionError(f"the {name} renderer has no drawing script")
    loaded = subprocess.run(
        [node, "-e", LOAD % json.dumps(name)],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if loaded.returncode != 0:
        raise AssertionError(f"the {name} drawing script does not load: {_error(loaded.stderr)}")
    if loaded.stdout != "3":
        raise AssertionError(
            f"the {name} drawing script registers no drawer of (element, picture, context) "
            f"as arenaReport.drawers[{name!r}] (found: {loaded.stdout})"
        )
    markup = MARKUP.search(script)
    if markup:
        raise AssertionError(f"the {name} drawing script builds markup: {markup.group(0)!r}")
    style = re.sub(r"/\*.*?\*/", "", renderer.style(), flags=re.DOTALL)
    rules = [rule.strip() for rule in re.findall(r"(?:^|})\s*([^{}@]+?)\s*\{", style)]
    loose = [r for r in rules if not all(f".picture-{name}" in s for s in r.split(","))]
    if loose:
        raise AssertionError(f"the {name} style has rules outside .picture-{name}: {loose[:3]}")


def _error(stderr: str) -> str:
    """Node's line naming the error (``SyntaxError: Unexpected token ')'``), not its
    stack."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    named = [line for line in lines if re.match(r"^\w*(Error|Exception)\b", line)]
    return (named or lines or ["no message"])[0]
