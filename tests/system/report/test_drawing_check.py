"""check_drawing, the test kit's check of a drawing script under Node.js: it passes a
good drawing and names what is wrong with each broken one."""

from __future__ import annotations

import pytest

from arena_kernel.plugin import Renderer, Replay, Step
from arena_kernel.testing.nim_render import NimRenderer
from arena_kernel.testkit import check_drawing

GOOD = """arenaReport.drawers["toy"] = function (element, picture, context) {
  element.textContent = String(picture.n) + " of " + context.steps;
};"""


def toy(script: str, style: str = ".picture-toy p { color: red; }") -> Renderer:
    class Toy(Renderer):
        name = "toy"
        summary = "a drawing under test"

        def steps(self, replay: Replay) -> list[Step]:
            return []

        def script(self) -> str:
            return script

        def style(self) -> str:
            return style

    return Toy()


def test_good_drawings_pass(arena_node):
    check_drawing(toy(GOOD), arena_node)
    check_drawing(toy(GOOD, "/* a { } */ .picture-toy a, .picture-toy b { x: y }"), arena_node)
    check_drawing(NimRenderer(), arena_node)


@pytest.mark.parametrize(
    ("script", "style", "problem"),
    [
        ("", "", "has no drawing script"),
        ("arenaReport.drawers.toy = function (e, p, c) {", "", "load: SyntaxError: Unexpected"),
        ("throw new Error('at load')", "", "does not load: Error: at load$"),
        (GOOD.replace('"toy"', '"other"'), "", r"registers no drawer .*\(found: missing\)"),
        ("arenaReport.drawers.toy = function (e) {};", "", r"\(found: 1\)"),
        (GOOD.replace("textContent", "innerHTML"), "", "builds markup: '.innerHTML ='"),
        (GOOD.replace("element.text", "document.write(1); element.text"), "", "document.write"),
        (GOOD, ".picture-toy a, p { color: red }", r"rules outside .picture-toy: \['.picture-toy"),
        (GOOD, "body { margin: 0 }", r"rules outside .picture-toy: \['body'\]"),
    ],
)
def test_broken_drawings_are_named(arena_node, script, style, problem):
    with pytest.raises(AssertionError, match=problem):
        check_drawing(toy(script, style), arena_node)
