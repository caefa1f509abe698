"""The browser tests' page: Debian's Chromium, driven by Playwright, on a server's game.

The page's script is ES modules (static/app.js and what it imports), whose names are
their own: a test reads the page's state and calls its functions through the one handle
app.js gives the tests, ``window.minesweep`` (``minesweep.page.game``,
``minesweep.replay(...)``), and stands in for the server with :func:`answer`.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import Server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

#: The marks of a browser test, for a module's ``pytestmark``: slow, and skipped without Chromium.
BROWSER_TEST = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium"),
]


@contextlib.contextmanager
def sqlite_server(database: Path) -> Iterator[Server]:
    """A server of the web game in a subprocess, on a SQLite database at ``database``; stopped
    after."""
    server = Server(f"sqlite:///{database}")
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def browser_page(
    server: Server,
    *,
    bypass_csp: bool = True,
    width: int = 900,
    height: int = 800,
    touch: bool = False,
) -> Iterator[Any]:
    """A page of Debian's Chromium (headless, driven by Playwright) on the server's game.

    Playwright's polling waits evaluate strings, which the page's policy
    forbids; tests may lift it for themselves, and the test of the policy
    keeps it.
    """
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            page = browser.new_page(
                viewport={"width": width, "height": height},
                bypass_csp=bypass_csp,
                has_touch=touch,
            )
            page.goto(server.base)
            page.wait_for_selector(".cell")
            yield page
        finally:
            browser.close()


def open_game(page: Any, token: str) -> None:
    """Point the page at the game ``token`` names (it starts a game of its own first)."""
    page.wait_for_function("localStorage.getItem('minesweep-game') !== null")
    page.evaluate(f"localStorage.setItem('minesweep-game', '{token}')")
    page.reload()
    page.wait_for_function(f"minesweep.page.game && minesweep.page.game.id === '{token}'")


def read_view(page: Any, rows: int, cols: int) -> str:
    """The board as the page shows it, from the buttons' aria-labels."""
    labels = page.eval_on_selector_all(
        ".cell", "cells => cells.map(c => c.getAttribute('aria-label'))"
    )
    symbols = []
    for label in labels:
        what = label.split(": ", 1)[1]
        if what.startswith("hidden") or what.startswith("question"):
            symbols.append("#")
        elif what.startswith("flagged"):
            symbols.append("F")
        elif what == "blank":
            symbols.append(".")
        else:
            symbols.append(what[0])
    return "\n".join("".join(symbols[r * cols : (r + 1) * cols]) for r in range(rows))


def bar(page: Any) -> tuple[str, str, str]:
    """The bar's counters as shown: mines left, time, status."""
    return (page.inner_text("#left"), page.inner_text("#time"), page.inner_text("#status"))


def answer(page: Any, url: str, body: Any) -> None:
    """Answer the page's requests to ``url`` (a glob) with ``body``, as the server would."""
    page.route(
        url,
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(body)
        ),
    )
