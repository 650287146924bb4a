"""`iago web` clicked in a real headless Chromium: play, values, paste, keys and variations,
review, solve, tabs, a closed tab, links, rule sets. Each test saves screenshots of its main
states; the figures it measures go to figures.txt beside them."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Literal

from playwright.sync_api import Browser

from conftest import REPO, Server, Tab, figure, show_board, solve_score

# The first position of Edax's hard 20-empties set (tests/data/hard-20-first40.obf).
HARD_20 = (REPO / "tests" / "data" / "hard-20-first40.obf").read_text().splitlines()[0].split(";")[0]


def test_the_page_loads_and_iago_answers_f5(server: Server, tab: Tab) -> None:
    tab.open(server.url)
    ready = tab.js("window.iagoReadyMs")
    figure("page interactive (navigation start to the first state drawn)", f"{ready:.0f} ms")
    assert ready < 2000
    assert tab.squares() == show_board("")
    assert sorted(tab.legal()) == ["c4", "d3", "e6", "f5"]
    labels = tab.page.eval_on_selector_all("#board button", "els => els.map(e => e.getAttribute('aria-label'))")
    assert "f5, empty, legal move" in labels
    assert tab.page.get_attribute("#iago", "value") is None or tab.page.input_value("#iago") == "white"
    tab.shot("start")
    tab.page.click('[data-square="f5"]')
    tab.wait(lambda: len(tab.transcript()) == 4, "Iago's answer")
    moves = tab.transcript()
    assert moves.startswith("f5")
    assert tab.squares() == show_board(moves)
    status = tab.page.text_content("#status") or ""
    assert "Black to move" in status
    # The last move is marked, and the move list has both moves.
    assert tab.page.get_attribute(f'[data-square="{moves[2:]}"]', "class") is not None
    assert "last move" in (tab.page.get_attribute(f'[data-square="{moves[2:]}"]', "aria-label") or "")
    assert tab.page.locator("#moves button.move").count() == 3
    tab.shot("after-f5")


def test_values_appear_on_every_legal_square_and_deepen(server: Server, tab: Tab) -> None:
    tab.open(server.url)
    tab.page.select_option("#iago", "none")
    tab.paste("f5d6c3d3c4f4")
    tab.wait(lambda: tab.transcript() == "f5d6c3d3c4f4", "the paste")
    legal = set(tab.legal())
    tab.page.click('[data-action="values"]')
    tab.wait(lambda: set(tab.values()) == legal, "a value on every legal square", 5)
    first = tab.js("window.iagoValuesShownAt - window.iagoValuesAskedAt")
    figure("first values drawn after the click on 'show values' (in the page)", f"{first:.0f} ms")
    assert first < 1000
    assert tab.page.get_attribute('[data-action="values"]', "aria-pressed") == "true"
    depths: list[str] = []
    seen: list[dict[str, str]] = []
    end = time.monotonic() + 30
    while len(depths) < 3 and time.monotonic() < end:
        depth = tab.page.get_attribute("#board", "data-depth")
        if depth and (not depths or depths[-1] != depth):
            depths.append(depth)
            seen.append(tab.values())
        time.sleep(0.01)
    assert len(depths) >= 3, depths
    assert all(set(v) == legal for v in seen)
    assert all(abs(int(x)) <= 64 for v in seen for x in v.values())
    # The best move is highlighted, and the best line is shown.
    assert tab.page.locator("#board button.best").count() >= 1
    assert tab.page.locator("#analysis .pv").count() >= 1
    tab.shot("values")
    tab.page.click('[data-action="stop"]')
    tab.idle(5)


def test_a_pasted_transcript_gives_its_board_and_move_list(server: Server, tab: Tab) -> None:
    tab.open(server.url)
    tab.page.select_option("#iago", "none")
    tab.paste("1. F5 d6 2. c3 D3 3. c4")
    tab.wait(lambda: tab.transcript() == "f5d6c3d3c4", "the paste")
    assert tab.squares() == show_board("f5d6c3d3c4")
    moves = tab.page.eval_on_selector_all("#moves button.move:not(.start)", "els => els.map(e => e.firstChild.textContent)")
    assert moves == ["f5", "d6", "c3", "d3", "c4"]
    # A bad paste says where, and changes nothing.
    tab.paste("f5d6c3c3")
    tab.wait(lambda: tab.page.text_content("#error"), "an error")
    assert "move 4" in (tab.page.text_content("#error") or "")
    assert tab.transcript() == "f5d6c3d3c4"
    # A board string and a GGF game read as well.
    tab.paste(HARD_20)
    tab.wait(lambda: tab.squares() == HARD_20.split()[0], "the board")
    tab.paste("(;GM[Othello]PC[x]PB[Ann]PW[Bob]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)")
    tab.wait(lambda: tab.transcript() == "f5d6", "the GGF game")
    # The link holds the game.
    assert tab.page.url.endswith("#f5d6")
    tab.shot("pasted")


def test_keys_go_back_and_a_different_move_starts_a_variation(server: Server, tab: Tab) -> None:
    tab.open(server.url)
    tab.page.select_option("#iago", "none")
    tab.paste("f5d6c3d3c4f4")
    tab.wait(lambda: tab.transcript() == "f5d6c3d3c4f4", "the paste")
    tab.page.locator("body").press("ArrowLeft")
    tab.page.locator("body").press("ArrowLeft")
    tab.wait(lambda: tab.squares() == show_board("f5d6c3d3"), "two moves back")
    tab.page.keyboard.press("Home")
    tab.wait(lambda: tab.squares() == show_board(""), "the start")
    tab.page.keyboard.press("End")
    tab.wait(lambda: tab.squares() == show_board("f5d6c3d3c4f4"), "the end")
    for _ in range(3):
        tab.page.keyboard.press("ArrowLeft")
    tab.wait(lambda: tab.squares() == show_board("f5d6c3"), "three moves back")
    other = next(m for m in tab.legal() if m != "d3")
    tab.page.click(f'[data-square="{other}"]')
    tab.wait(lambda: tab.transcript() == "f5d6c3" + other, "the variation")
    # The main line is kept: the list shows it, with the variation in brackets.
    assert tab.page.locator("#moves .variation").count() == 1
    main = tab.page.eval_on_selector_all("#moves > .line > button.move", "els => els.map(e => e.firstChild.textContent)")
    assert main[:7] == ["start", "f5", "d6", "c3", "d3", "c4", "f4"], main
    tab.shot("variation")
    # Clicking a move of the main line goes back to it.
    tab.page.click("#moves > .line > button.move >> nth=6")
    tab.wait(lambda: tab.transcript() == "f5d6c3d3c4f4", "the main line again")


def test_a_review_draws_the_graph_and_the_losses(server: Server, tab: Tab) -> None:
    tab.open(server.url)
    tab.page.select_option("#iago", "none")
    game = "f5d6c3d3c4f4f6f3e6e7d7c6b5"
    tab.paste(game)
    tab.wait(lambda: tab.transcript() == game, "the paste")
    tab.page.select_option("#review-depth", "8")
    tab.page.click('[data-action="review"]')
    tab.wait(lambda: tab.page.locator("#review-table").count() == 1, "the review table", 60)
    tab.wait(lambda: "so far" not in (tab.page.text_content("#review h2") or ""), "the whole review", 120)
    losses = tab.page.eval_on_selector_all("#moves button[data-loss]", "els => els.map(e => Number(e.dataset.loss))")
    assert len(losses) == len(game) // 2
    assert all(loss >= 0 for loss in losses)
    points = tab.page.locator("#graph circle[data-node]").count()
    assert points == len(game) // 2 + 1, points
    rows = tab.page.eval_on_selector_all("#review-table tbody tr", "els => els.map(e => e.textContent)")
    assert any(r.startswith("blackall") for r in rows) and any(r.startswith("whiteall") for r in rows), rows
    tab.shot("review")
    # A click on the graph goes to a move.
    box = tab.page.locator("#graph").bounding_box()
    assert box is not None
    tab.page.mouse.click(box["x"] + 20, box["y"] + box["height"] / 2)
    tab.wait(lambda: tab.squares() == show_board(""), "the graph's first point")


def test_a_solve_of_twenty_empties_gives_iago_solves_score(server: Server, tab: Tab) -> None:
    tab.open(server.url)
    tab.paste(HARD_20)
    tab.wait(lambda: tab.squares() == HARD_20.split()[0], "the board")
    tab.page.click('[data-action="solve"]')
    tab.wait(lambda: tab.page.locator("#analysis .solved").count() == 1, "the solve", 120)
    text = tab.page.text_content("#analysis .solved") or ""
    score = solve_score(HARD_20)
    sign = f"+{score}" if score > 0 else str(score)
    assert f"({sign} for the side to move)" in text, text
    tab.shot("solve")


def test_two_tabs_do_not_interfere(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    a, b = Tab(context.new_page()), Tab(context.new_page())
    a.open(server.url)
    b.open(server.url)
    a.page.click('[data-square="f5"]')
    a.wait(lambda: len(a.transcript()) == 4, "Iago's answer in tab A")
    b.page.select_option("#rules", "6x6 othello")
    b.wait(lambda: b.page.locator("#board button").count() == 36, "the 6x6 board in tab B")
    assert b.transcript() == ""
    a.page.click('[data-action="values"]')
    a.wait(lambda: len(a.values()) > 0, "values in tab A")
    assert a.page.locator("#board button").count() == 64
    assert b.values() == {}
    assert server.status()["clients"] == 2
    a.shot("tab-a")
    b.shot("tab-b")
    context.close()
    assert not a.errors and not b.errors, a.errors + b.errors


def test_closing_a_tab_stops_its_search(server: Server, browser: Browser) -> None:
    context = browser.new_context()
    t = Tab(context.new_page())
    t.open(server.url)
    t.page.select_option("#iago", "none")
    t.page.click('[data-action="values"]')
    t.wait(lambda: server.status()["searches"] == 1, "the values search runs", 10)
    time.sleep(0.3)
    t.page.close()
    closed = time.monotonic()
    while server.status()["searches"] > 0:
        assert time.monotonic() - closed < 2, "the search outlived its tab"
        time.sleep(0.002)
    stopped = (time.monotonic() - closed) * 1000
    figure("search stopped after its tab closed", f"{stopped:.0f} ms")
    assert stopped <= 100
    context.close()


def test_a_link_opens_its_game_and_every_rule_set_is_offered(server: Server, tab: Tab) -> None:
    tab.open(server.url + "#f5d6c3")
    tab.wait(lambda: tab.transcript() == "f5d6c3", "the link's game")
    assert tab.squares() == show_board("f5d6c3")
    offered = tab.page.eval_on_selector_all("#rules option", "els => els.map(e => e.value)")
    for rules, squares in [
        ("6x6 othello", 36),
        ("4x4 othello", 16),
        ("reversi", 64),
        ("anti", 64),
        ("othello 32-discs", 64),
        ("othello", 64),
    ]:
        assert rules in offered
        tab.page.select_option("#rules", rules)
        tab.wait(lambda: tab.page.locator("#board button").count() == squares, f"the {rules} board")
        tab.wait(lambda: len(tab.legal()) > 0, f"the moves of {rules}")
        if rules == "reversi":
            assert tab.squares().count("-") == 64
        if rules == "6x6 othello":
            tab.shot("six-by-six")
    # A game played to its end shows the result.
    tab.page.select_option("#rules", "4x4 othello")
    tab.page.select_option("#iago", "both")
    tab.wait(lambda: "Game over" in (tab.page.text_content("#status") or ""), "a 4x4 game played by Iago", 60)
    assert "wins by" in (tab.page.text_content("#status") or "") or "draw" in (tab.page.text_content("#status") or "")
    tab.shot("game-over")


def test_iago_answers_within_its_time(browser: Browser) -> None:
    server = Server("--no-book")
    try:
        context = browser.new_context()
        t = Tab(context.new_page())
        t.open(server.url)
        t.page.select_option("#level-kind", "time")
        t.page.fill("#level-value", "0.3")
        t.page.locator("#level-value").dispatch_event("change")
        t.wait(lambda: t.page.input_value("#level-value") == "0.3", "the level")
        time.sleep(0.2)
        overheads = []
        for _ in range(3):
            before = t.transcript()
            move = t.legal()[0]
            t.page.click(f'[data-square="{move}"]')
            t.wait(lambda: len(t.transcript()) >= len(before) + 4, "Iago's answer", 10)
            drawn = t.js("window.iagoDrawnAt - window.iagoClickAt")
            title = t.page.get_attribute("#moves button.move.current", "title") or ""
            # "Iago: +2 at depth 9@58% in 0.30 s"
            searched = float(title.rsplit(" in ", 1)[1].removesuffix(" s")) * 1000
            overheads.append(drawn - searched)
        figure(
            "Iago's reply drawn after its search, time a move 0.3 s (click to board, less the search)",
            ", ".join(f"{o:.0f} ms" for o in overheads),
        )
        assert max(overheads) < 250
        context.close()
        assert not t.errors, t.errors
    finally:
        server.stop()


def test_assets_are_small() -> None:
    page = REPO / "src" / "web" / "page"
    total = sum(p.stat().st_size for p in Path(page).iterdir())
    figure("the page's files together", f"{total} bytes")
    assert total <= 300 * 1024


def test_files_open_and_games_go_out(server: Server, tab: Tab, tmp_path: Path) -> None:
    tab.page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url.rstrip("/"))
    tab.open(server.url)
    tab.page.select_option("#iago", "none")
    start = "BO[8 ---------------------------O*------*O--------------------------- *]"
    games = tmp_path / "two.ggf"
    games.write_text(
        f"(;GM[Othello]PC[x]PB[Ann]PW[Bob]TY[8]{start}B[f5]W[d6];)\n"
        f"(;GM[Othello]PC[x]PB[Cid]PW[Dee]TY[8]{start}B[f5]W[f6]B[e6];)\n"
    )
    tab.page.set_input_files("#file", str(games))
    tab.wait(lambda: tab.page.locator("#games button.game-pick").count() == 2, "the file's games")
    assert "Cid" in (tab.page.text_content("#games button.game-pick >> nth=1") or "")
    tab.page.click("#games button.game-pick >> nth=1")
    tab.wait(lambda: tab.transcript() == "f5f6e6", "the second game")
    tab.page.set_input_files("#file", str(REPO / "tests" / "data" / "wthor" / "WTH_2023.wtb"))
    tab.wait(lambda: tab.page.locator("#games button.game-pick").count() > 10, "the WTHOR file's games")
    assert "WTH_2023.wtb" in (tab.page.text_content("#io-message") or "")
    tab.shot("file")
    tab.page.click("#games button.game-pick >> nth=0")
    tab.wait(lambda: len(tab.transcript()) > 100, "a WTHOR game")
    moves = tab.transcript()
    # Out: the transcript to the clipboard, the game as GGF, the board as SVG.
    tab.page.click('[data-action="copy"]')
    tab.wait(lambda: "copied" in (tab.page.text_content("#io-message") or ""), "the copy")
    assert tab.page.evaluate("navigator.clipboard.readText()") == moves
    with tab.page.expect_download() as download:
        tab.page.click('[data-action="ggf"]')
    ggf = Path(download.value.path()).read_text()
    assert ggf.startswith("(;GM[Othello]") and ggf.count("B[") + ggf.count("W[") >= len(moves) // 2
    with tab.page.expect_download() as download:
        tab.page.click('[data-action="svg"]')
    svg = Path(download.value.path()).read_text()
    assert svg.startswith("<svg") and svg.count("<circle") == 64 - tab.squares().count("-")


def test_the_keyboard_plays_and_reduced_motion_turns_the_animation_off(server: Server, browser: Browser) -> None:
    motions: tuple[tuple[Literal["no-preference", "reduce"], str], ...] = (("no-preference", "flip"), ("reduce", "none"))
    for motion, animation in motions:
        context = browser.new_context(reduced_motion=motion)
        t = Tab(context.new_page())
        t.open(server.url)
        # A square is a button: focused, Enter plays it.
        t.page.focus('[data-square="f5"]')
        t.page.keyboard.press("Enter")
        t.wait(lambda: t.transcript().startswith("f5"), "f5 from the keyboard")
        # The disc of the last move turns over as its flips do.
        name = t.js("getComputedStyle(document.querySelector('#board .lastmove .disc')).animationName")
        assert name == animation, (motion, name)
        context.close()
        assert not t.errors, t.errors


def test_a_playing_level_can_be_chosen(server: Server, tab: Tab) -> None:
    tab.open(server.url)
    tab.page.select_option("#level-kind", "level")
    tab.page.fill("#level-value", "1")
    tab.page.locator("#level-value").dispatch_event("change")
    time.sleep(0.3)
    assert tab.page.input_value("#level-kind") == "level" and tab.page.input_value("#level-value") == "1"
    tab.page.click('[data-square="f5"]')
    tab.wait(lambda: len(tab.transcript()) == 4, "the beginner's answer", 10)
    title = tab.page.get_attribute("#moves button.move.current", "title") or ""
    assert "Iago:" in title and "book" not in title, title
