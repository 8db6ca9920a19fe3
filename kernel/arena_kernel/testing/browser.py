"""Checks of a written report in a real browser (headless Chromium through Playwright):
what the ``report_browser`` fixture hands a test.

A page is opened from disk, as a reader opens it, and handed over once it has drawn itself
from the report's data files (a run page's games list, the game page's game); every console
error, uncaught script error and request for anything but a ``file:`` URL is recorded, so a
test can assert that a page works offline and quietly. Playwright is imported only when a
browser is started: arena runs without it.

The browser lives on a thread of its own. Playwright's synchronous API leaves the thread
that starts it with an event loop marked as running, where ``asyncio.run`` (every arena
run) then fails; so every call into Playwright is made on the browser's thread, and the
page a test drives is a :class:`ThreadBound` stand-in that forwards each call there.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from arena_kernel.report.viewer_page import VIEWER

T = TypeVar("T")

CHROMIUM = Path("/usr/bin/chromium")
"""The system's Chromium (Debian's package): the browser the checks drive."""

CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
"""No sandbox of its own (tests may run as root, in a container), and none of Chromium's
own calls home, which would show up as requests of the page."""

DRAWN = """() => {
  const games = document.getElementById("games");
  if (games) return games.dataset.ready === "true" || games.dataset.failed === "true";
  if (!document.getElementById("replay-files")) return true;
  return document.body.dataset.ready === "true" || !document.getElementById("missing").hidden;
}"""
"""Whether a page of the report has drawn itself: a run page its games list, the game
page its game (or why it has none); any other page at once."""


def unavailable() -> str | None:
    """Why no browser can be started here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright)"
    if not (CHROMIUM.is_file() or shutil.which("chromium")):
        return f"there is no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


PLAIN = (type(None), bool, int, float, str, bytes)
"""What a Playwright call returns that is data, handed back as it is."""


class BrowserThread:
    """The one thread every Playwright call of a :class:`ReportBrowser` is made on."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="report-browser")

    def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return self._executor.submit(function, *args, **kwargs).result()

    def shutdown(self) -> None:
        self._executor.shutdown(wait=True)


class ThreadBound:
    """A Playwright object (a page, a locator...) used from the test's thread: reading an
    attribute or calling a method happens on the browser's thread, and what comes back is
    bound the same way unless it is plain data (lists are bound item by item)."""

    def __init__(self, thread: BrowserThread, target: Any) -> None:
        self._thread = thread
        self._target = target

    def __getattr__(self, name: str) -> Any:
        value = self._thread.call(getattr, self._target, name)
        if not callable(value):
            return self._bind(value)

        def method(*args: Any, **kwargs: Any) -> Any:
            return self._bind(self._thread.call(value, *args, **kwargs))

        return method

    def _bind(self, value: Any) -> Any:
        if isinstance(value, PLAIN):
            return value
        if isinstance(value, list):
            return [self._bind(item) for item in value]
        return ThreadBound(self._thread, value)


@dataclass
class OpenPage:
    """A page being looked at: Playwright's ``page`` (bound to the browser's thread) for
    a test's own steps, and what it has said and asked for so far."""

    page: Any
    console_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class PageCheck:
    """A page as a reader saw it: its text, and its errors and requests."""

    text: str
    console_errors: list[str]
    requests: list[str]


@dataclass(frozen=True)
class ReplayCheck:
    """A game page stepped through to its end: the caption of its last step, how many
    steps the viewer has, the page's errors and requests, and where its screenshot went."""

    console_errors: list[str]
    requests: list[str]
    caption: str
    steps: int
    screenshot: Path | None


class ReportBrowser:
    """One browser for a whole test session; a fresh page (and context) per check."""

    def __init__(self, artifacts: Path) -> None:
        self.artifacts = artifacts
        self._thread = BrowserThread()
        try:
            self._playwright, self._browser = self._thread.call(self._start)
        except BaseException:
            self._thread.shutdown()
            raise

    @staticmethod
    def _start() -> tuple[Any, Any]:
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        executable = CHROMIUM if CHROMIUM.is_file() else Path(shutil.which("chromium") or "")
        try:
            browser = playwright.chromium.launch(
                executable_path=str(executable), args=list(CHROMIUM_ARGS)
            )
        except Exception:
            playwright.stop()
            raise
        return playwright, browser

    def close(self) -> None:
        try:
            self._thread.call(self._browser.close)
            self._thread.call(self._playwright.stop)
        finally:
            self._thread.shutdown()

    @contextmanager
    def open(self, path: Path, fragment: str | None = None) -> Iterator[OpenPage]:
        """The page at ``path`` (a file; ``#fragment`` added to its address: the game
        page's game id), loaded and drawn, with its errors and requests recorded."""
        seen = OpenPage(None)
        context, page = self._thread.call(self._load, Path(path), fragment, seen)
        seen.page = ThreadBound(self._thread, page)
        try:
            yield seen
        finally:
            self._thread.call(context.close)

    def open_game(self, report_dir: Path, game_id: int) -> AbstractContextManager[OpenPage]:
        """The game page of the report in ``report_dir`` showing game ``game_id``, as
        :meth:`open` opens a page."""
        return self.open(Path(report_dir) / VIEWER, str(game_id))

    def _load(self, path: Path, fragment: str | None, seen: OpenPage) -> tuple[Any, Any]:
        """On the browser's thread: a fresh context and page, its listeners, the load, the
        page's own drawing."""
        context = self._browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.on(
            "console",
            lambda message: (
                seen.console_errors.append(message.text) if message.type == "error" else None
            ),
        )
        page.on("pageerror", lambda error: seen.console_errors.append(f"uncaught: {error}"))
        page.on(
            "request",
            lambda request: (
                None if request.url.startswith("file:") else seen.requests.append(request.url)
            ),
        )
        page.on("dialog", lambda dialog: self._dialog(seen, dialog))
        address = path.resolve().as_uri() + ("" if fragment is None else f"#{fragment}")
        try:
            page.goto(address, wait_until="load")
            page.wait_for_function(DRAWN)
        except Exception:
            context.close()
            raise
        return context, page

    @staticmethod
    def _dialog(seen: OpenPage, dialog: Any) -> None:
        """A script that opens a dialog (``alert(1)`` injected by a bot) is an error."""
        seen.console_errors.append(f"dialog opened: {dialog.type}: {dialog.message}")
        dialog.dismiss()

    def check_run_page(self, path: Path) -> PageCheck:
        """A run page (or the index) loaded: its visible text, errors and requests."""
        with self.open(path) as seen:
            return PageCheck(seen.page.inner_text("body"), seen.console_errors, seen.requests)

    def check_replay(
        self, report_dir: Path, game_id: int, screenshot: str | None = None
    ) -> ReplayCheck:
        """Open game ``game_id`` on the game page of the report in ``report_dir``
        (``game.html#<id>``) and step through the game with the Right key, so that every
        step's picture is drawn once (a drawing that fails says so on the console), then
        read the last step's caption; raise AssertionError when the steps did not reach
        the last one. ``screenshot``: save the page as ``<name>.png`` in the artifacts
        folder."""
        with self.open_game(report_dir, game_id) as seen:
            page = seen.page
            page.wait_for_selector("#steplist li")
            steps = page.locator("#steplist li").count()
            body = page.locator("body")
            for _ in range(steps - 1):
                body.press("ArrowRight")
            value = page.input_value("#slider")
            if value != str(steps - 1):
                raise AssertionError(
                    f"game {game_id}: after {steps - 1} steps the slider is at {value}, "
                    f"not {steps - 1}"
                )
            caption = page.inner_text("#caption")
            shot = None
            if screenshot is not None:
                self.artifacts.mkdir(parents=True, exist_ok=True)
                shot = self.artifacts / f"{screenshot}.png"
                page.screenshot(path=str(shot), full_page=True)
            return ReplayCheck(list(seen.console_errors), list(seen.requests), caption, steps, shot)

    def assert_replay_shows_winner(
        self, report_dir: Path, replay: Any, screenshot: str | None = None
    ) -> ReplayCheck:
        """The standard check of a game's page (``replay`` is the game as
        :func:`arena_kernel.testkit.load_replay` reads it): it loads from disk, steps to
        the last step with every picture drawn, with no console error and no request, and
        the last step's caption names every bot ranked first. ``screenshot`` as in
        :meth:`check_replay`."""
        check = self.check_replay(report_dir, replay.game_id, screenshot)
        problems = []
        if check.console_errors:
            problems.append(f"console errors {check.console_errors}")
        if check.requests:
            problems.append(f"requests {check.requests}")
        missing = [bot for bot in replay.winners() if not _names(check.caption, bot)]
        if missing or not replay.winners():
            problems.append(f"last caption {check.caption!r} does not name winner(s) {missing}")
        if problems:
            raise AssertionError(f"game {replay.game_id}'s page: " + "; ".join(problems))
        return check

    def assert_run_page_lists(
        self, page: Path, bots: Sequence[str], scorers: Sequence[str]
    ) -> PageCheck:
        """A run page (or an index that is one) loads with no console error and no
        request, and its text names every one of ``bots`` and ``scorers`` (titles, as
        the standings print them: "Wins", "Elo"...)."""
        check = self.check_run_page(page)
        problems = []
        if check.console_errors or check.requests:
            problems.append(f"console errors {check.console_errors}, requests {check.requests}")
        absent = [name for name in (*bots, *scorers) if name not in check.text]
        if absent:
            problems.append(f"it does not show {absent}")
        if problems:
            raise AssertionError(f"{page}: " + "; ".join(problems))
        return check


def _names(text: str, bot: str) -> bool:
    """Whether ``text`` names ``bot`` as a word of its own ("a" is not named by "draw")."""
    return re.search(rf"(?<![\w.-]){re.escape(bot)}(?![\w-])", text) is not None
