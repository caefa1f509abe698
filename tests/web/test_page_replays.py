"""The replay viewer in a real browser: a ranked game's replay and replay files, step by step."""

from __future__ import annotations

from pathlib import Path

from minesweep.squares import Glyph

from .browser import BROWSER_TEST, answer, bar, browser_page, open_game, read_view, sqlite_server

pytestmark = BROWSER_TEST

REPLAYS = Path(__file__).parent.parent / "replays" / "data"
#: A replay's view codes as read_view reads the page: a mine's label's first letter.
SHOWN = {
    **{n: str(n) for n in range(1, 9)},
    0: ".",
    Glyph.HIDDEN: "#",
    Glyph.FLAG: "F",
    Glyph.WRONG_FLAG: "w",
    Glyph.EXPLODED: "e",
}


def test_a_replay_draws_the_views_the_server_sends(tmp_path: Path) -> None:
    # A chord that changed nothing, then a loss: the page steps nothing itself.
    views = [["###", "###"], ["1##", "###"], ["1##", "###"], ["1X*", "#*#"]]
    data = {
        "name": "ada",
        "seconds": 0.0,
        "rows": 2,
        "cols": 3,
        "mines": 3,
        "history": [{"action": action, "time": 0.0} for action in ("O0,0", "C0,0", "O0,1")],
        "views": views,
    }
    with sqlite_server(tmp_path / "replay.sqlite3") as server, browser_page(server) as page:
        answer(page, "**/api/replays/anything", data)  # the server's answer, as sent
        page.evaluate(
            """async () => {
                    minesweep.page.game = null;  // no game to go back to: the last view stays
                    await minesweep.replay("anything");
                }"""
        )
        # read_view gives a mine's label's first letter: "e"xploded, "m"ine.
        assert read_view(page, 2, 3) == "1em\n#m#"
        # The bar is the replay's, as it ended (no game to go back to).
        assert bar(page) == ("3", "0", "replay: lost")
        assert "Replay over" in page.inner_text("#message")


def test_clicks_during_a_replay_leave_the_game_alone(tmp_path: Path) -> None:
    with sqlite_server(tmp_path / "replay-clicks.sqlite3") as server, browser_page(server) as page:
        page.click('[aria-label="row 8, column 15: hidden"]')
        page.wait_for_selector(".cell.open")
        page.wait_for_timeout(300)  # the opening's animation
        token = page.evaluate("minesweep.page.game.id")
        header = {"Authorization": f"Bearer {token}"}
        before = server.http.get("/api/game", headers=header).json()
        # A replay of another (made-up) game, slow enough to click into.
        data = {
            "name": "ada",
            "seconds": 1.0,
            "rows": 2,
            "cols": 3,
            "history": [{"action": "O0,0", "time": 1.0}],
            "views": [["###", "###"], ["1##", "###"]],
        }
        answer(page, "**/api/replays/anything", data)
        page.evaluate(
            """() => {
                window.replayDone = minesweep.replay("anything").then(() => true);
            }"""
        )
        # The viewer opens (once the answer is in), with the replay's own EVF file offered.
        page.wait_for_selector("#viewer", state="visible")
        assert page.get_attribute("#evflink", "href") == "/api/replays/anything.evf"
        page.click('.cell[data-row="1"][data-col="2"]')
        page.keyboard.press("Enter")
        page.keyboard.press("f")
        page.click("#hint")
        page.click("#undo")
        page.wait_for_function("window.replayDone")
        after = server.http.get("/api/game", headers=header).json()
        assert (after["version"], after["actions"]) == (before["version"], before["actions"])
        # The board is the player's game again.
        assert read_view(page, 16, 30) == "\n".join(after["view"])
        assert page.is_hidden("#viewer")


def test_a_replay_file_steps_click_by_click_with_the_solvers_verdict(tmp_path: Path) -> None:
    from minesweep.replays import read
    from minesweep.replays.clicks import analyse_clicks
    from minesweep.replays.verdict import judge_clicks

    path = REPLAYS / "test_subject.rmv"
    replay = read(path)
    analysis = analyse_clicks(replay)
    table = judge_clicks(replay, analysis)
    count = len(table.clicks)

    def view(index: int) -> str:
        lines = analysis.view(index).tolist()
        return "\n".join("".join(SHOWN[code] for code in line) for line in lines)

    with sqlite_server(tmp_path / "replay-file.sqlite3") as server, browser_page(server) as page:
        page.set_input_files("#replayfile", str(path))
        page.wait_for_selector("#viewer:not([hidden])")
        assert page.inner_text("#frame") == f"Click 1 of {count}"
        assert read_view(page, 8, 8) == view(0)
        assert "test_subject.rmv" in page.inner_text("#viewertitle")
        assert "3BV" in page.inner_text("#headline")
        assert page.locator("#checks li").count() >= 1
        # Step to the first click the solver judged after the first one.
        judged = next(c for c in table.clicks if c.judged and not c.first)
        for _ in range(judged.index):
            page.keyboard.press("ArrowRight")
        assert page.inner_text("#frame") == f"Click {judged.index + 1} of {count}"
        assert read_view(page, 8, 8) == view(judged.view)
        marked = page.eval_on_selector_all(
            ".cell.clicked", "cells => cells.map(c => [+c.dataset.row, +c.dataset.col])"
        )
        assert marked == [[judged.row, judged.col]]
        note = page.inner_text("#note")
        assert f"{judged.verdict.mine_chance * 100:.1f}%" in note
        assert f"{judged.luck:.3f}" in note
        page.click("#prev")
        assert page.inner_text("#frame") == f"Click {judged.index} of {count}"
        page.keyboard.press("End")
        assert page.inner_text("#frame") == f"End, after {count} clicks"
        assert read_view(page, 8, 8) == view(len(analysis.views) - 1)
        assert page.is_disabled("#next")
        # Back to the player's own game, as it was.
        page.keyboard.press("Escape")
        assert page.is_hidden("#viewer")
        assert page.locator(".cell").count() == 16 * 30
        # A file that is no replay says why, and leaves the game alone.
        junk = tmp_path / "junk.avf"
        junk.write_bytes(b"not a replay at all")
        page.set_input_files("#replayfile", str(junk))
        page.wait_for_function(
            "document.getElementById('message').textContent.startsWith('junk.avf: at byte')"
        )
        assert page.is_hidden("#viewer")


def test_a_replay_file_opens_with_probabilities_on_and_shows_its_own_counters(
    tmp_path: Path,
) -> None:
    # The live game is beginner (9×9), the file expert (16×30): before the fix the
    # viewer painted the game's probabilities onto the file's board, and past row 9
    # read a row the overlay does not have (a TypeError, and no frame shown).
    path = REPLAYS / "test_subject.evf"
    with sqlite_server(tmp_path / "viewer-apart.sqlite3") as server:
        # What the server says of the file: its last board and its result.
        data = server.http.post(
            "/api/replay-files?name=test_subject.evf",
            content=path.read_bytes(),
            headers={"Content-Type": "application/octet-stream"},
        ).json()
        flags = sum(line.count("F") + line.count("!") for line in data["views"][-1])
        end = data["clicks"][-1]["time"]
        created = server.http.post("/api/games", json={"preset": "beginner", "seed": 3}).json()
        with browser_page(server) as page:
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            open_game(page, created["id"])
            page.click('[aria-label="row 5, column 5: hidden"]')
            page.wait_for_selector(".cell.open")
            page.click("#overlay")
            page.wait_for_selector(".cell .p")
            page.wait_for_timeout(300)  # the opening's animation
            live = bar(page)
            assert live[2].startswith("playing (assisted)")
            shown_odds = page.locator(".cell .p").count()
            page.set_input_files("#replayfile", str(path))
            page.wait_for_selector("#viewer:not([hidden])")
            page.wait_for_function("document.getElementById('frame').textContent !== ''")
            assert errors == []
            assert page.inner_text("#frame").startswith("Click 1 of ")
            assert page.locator(".cell").count() == 16 * 30
            assert page.locator(".cell .p").count() == 0  # the game's odds are not the file's
            # The bar is the replay's: its 99 mines, its clock, its state.
            assert bar(page) == ("99", "0", "replay: ready")
            page.keyboard.press("End")
            assert bar(page) == (
                str(99 - flags),
                f"{end:.0f}",
                "replay: won" if data["summary"]["won"] else "replay: lost",
            )
            # The live game's clock does not run over the replay's.
            page.wait_for_timeout(600)
            assert bar(page)[2].startswith("replay: ")
            # Back: the game's board, probabilities and counters again, untouched.
            page.keyboard.press("Escape")
            assert page.is_hidden("#viewer")
            assert page.locator(".cell").count() == 81
            assert page.locator(".cell .p").count() == shown_odds
            assert bar(page)[0] == live[0]
            assert bar(page)[2] == live[2]
            # A file smaller than the game (8×8 on 9×9): no odds of the game on it either.
            page.set_input_files("#replayfile", str(REPLAYS / "test_subject.rmv"))
            page.wait_for_function(
                "document.getElementById('viewertitle').textContent.startsWith('test_subject.rmv')"
            )
            assert page.locator(".cell").count() == 64
            assert page.locator(".cell .p").count() == 0
            assert bar(page) == ("10", "0", "replay: ready")
            assert errors == []
