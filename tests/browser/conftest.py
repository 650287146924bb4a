"""The browser tests of `iago web`: the real binary on loopback, the page in a real headless
Chromium (Debian's, driven by Playwright), under the page's own Content-Security-Policy.

`cargo xtask test` runs them with `IAGO_BIN` (the release binary) and `IAGO_CHROMIUM` (the
browser) set; screenshots and the measured figures go to `IAGO_SCREENSHOTS`
(`target/web-screenshots` by default).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

REPO = Path(__file__).resolve().parents[2]
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
SHOTS = Path(os.environ.get("IAGO_SCREENSHOTS", TARGET / "web-screenshots"))


def binary() -> Path:
    named = os.environ.get("IAGO_BIN")
    path = Path(named) if named else TARGET / "release" / "iago"
    if not path.is_file():
        pytest.fail(f"no iago binary at {path}: run `cargo build --release` (or set IAGO_BIN)")
    return path


def chromium() -> str:
    named = os.environ.get("IAGO_CHROMIUM")
    for candidate in [named, "chromium", "chromium-browser", "google-chrome"]:
        if candidate and shutil.which(candidate):
            return str(shutil.which(candidate))
    pytest.fail("no Chromium: install Debian's chromium (apt-get install chromium) or set IAGO_CHROMIUM")
    raise AssertionError


class Server:
    """`iago web` on a free loopback port."""

    def __init__(self, *args: str) -> None:
        command = [str(binary()), "web", "--listen", "127.0.0.1:0", *args]
        for option, default in (("--threads", "2"), ("--hash", "32")):
            if option not in args:
                command += [option, default]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline().strip()
        assert line.startswith("listening on http://"), line
        self.url = line.removeprefix("listening on ")

    def status(self) -> dict[str, int]:
        with urllib.request.urlopen(self.url + "api/status") as reply:
            status: dict[str, int] = json.loads(reply.read())
        return status

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


@pytest.fixture()
def server() -> Iterator[Server]:
    s = Server()
    yield s
    s.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=chromium(),
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield b
        b.close()


class Tab:
    """A page of the board, with the errors it logged."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def open(self, url: str) -> None:
        self.page.goto(url)
        self.wait(lambda: self.js("document.body.dataset.ready") == "true", "the page is ready")

    def js(self, expression: str) -> Any:
        return self.page.evaluate(expression)

    def wait(self, condition: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
        end = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > end:
                raise AssertionError(f"not within {timeout} s: {what}")
            time.sleep(0.01)

    def transcript(self) -> str:
        return str(self.page.text_content("#transcript") or "")

    def squares(self) -> str:
        """The board as a board string's squares: X, O or - for each square, a1 first."""
        labels: list[str] = self.page.eval_on_selector_all(
            "#board button[data-square]", "els => els.map(e => e.getAttribute('aria-label'))"
        )
        return "".join("X" if ", black disc" in l else "O" if ", white disc" in l else "-" for l in labels)

    def values(self) -> dict[str, str]:
        pairs: list[list[str]] = self.page.eval_on_selector_all(
            "#board button[data-value]", "els => els.map(e => [e.dataset.square, e.dataset.value])"
        )
        return {k: v for k, v in pairs}

    def legal(self) -> list[str]:
        legal: list[str] = self.page.eval_on_selector_all("#board button.legal", "els => els.map(e => e.dataset.square)")
        return legal

    def idle(self, timeout: float = 60.0) -> None:
        self.wait(lambda: not self.js("document.body.dataset.busy"), "the search ends", timeout)

    def paste(self, text: str) -> None:
        self.page.fill("#paste", text)
        self.page.click('[data-action="paste"]')

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture()
def tab(browser: Browser) -> Iterator[Tab]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    t = Tab(context.new_page())
    yield t
    context.close()
    assert not t.errors, t.errors


def figure(name: str, value: str) -> None:
    """Records a measured figure (for the closing notes) beside the screenshots."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    with open(SHOTS / "figures.txt", "a") as out:
        out.write(f"{name}: {value}\n")
    print(f"{name}: {value}")


def show_board(moves: str) -> str:
    """The squares of the position after `moves`, as `iago show` prints them."""
    out = subprocess.run([str(binary()), "show", moves], capture_output=True, text=True, check=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("Board: "))
    return line.removeprefix("Board: ").split()[0]


def solve_score(board: str) -> int:
    out = subprocess.run(
        [str(binary()), "solve", "-", "--json", "--threads", "2"], input=board + "\n", capture_output=True, text=True, check=True
    ).stdout
    score: int = json.loads(out.splitlines()[0])["score"]
    return score
