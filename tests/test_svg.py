"""minesweep.svg: boards as SVG, and the objects that show themselves in Jupyter."""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from minesweep import Board, Game, InvalidBoardError, SettingsError, svg
from minesweep.squares import MAX_NUMBER, Glyph
from minesweep.svg import Mark

NS = {"svg": "http://www.w3.org/2000/svg"}
DATA = Path(__file__).parent / "replays" / "data"

#: Every glyph once: the numbers 0-8, then the hidden kinds and the end-of-game marks.
EVERY_GLYPH = np.arange(int(max(Glyph)) + 1).reshape(3, 5)


def parse(picture: str) -> ET.Element:
    return ET.fromstring(picture)


def squares(root: ET.Element) -> list[ET.Element]:
    return [
        rect
        for rect in root.iter(f"{{{NS['svg']}}}rect")
        if "square" in rect.get("class", "").split()
    ]


def texts(root: ET.Element, kind: str) -> list[ET.Element]:
    return [text for text in root.iter(f"{{{NS['svg']}}}text") if text.get("class") == kind]


def square_at(text: ET.Element, size: int) -> tuple[int, int]:
    """The (row, col) of the square whose box holds the text's anchor point."""
    return int(float(text.get("y", "")) // size), int(float(text.get("x", "")) // size)


# --- the picture -------------------------------------------------------------------


def test_the_picture_is_well_formed_with_one_square_element_per_square() -> None:
    root = parse(svg.board(EVERY_GLYPH, size=20))
    assert root.tag == f"{{{NS['svg']}}}svg"
    assert (root.get("width"), root.get("height")) == ("100", "60")
    found = squares(root)
    assert len(found) == EVERY_GLYPH.size
    positions = {(int(r.get("data-row", "")), int(r.get("data-col", ""))) for r in found}
    assert positions == {(row, col) for row in range(3) for col in range(5)}


def test_each_square_says_its_glyph() -> None:
    root = parse(svg.board(EVERY_GLYPH))
    kinds = {
        (int(r.get("data-row", "")), int(r.get("data-col", ""))): r.get("class", "").split()[1]
        for r in squares(root)
    }
    expected = ["number"] * (MAX_NUMBER + 1) + [
        "hidden", "flag", "question", "mine", "exploded", "wrong-flag",
    ]  # fmt: skip
    assert [kinds[divmod(glyph, 5)] for glyph in range(EVERY_GLYPH.size)] == expected


@pytest.mark.parametrize("theme", ["classic", "dark"])
def test_each_number_is_a_text_in_its_colour_on_its_square(theme: str) -> None:
    size = 30
    root = parse(svg.board(EVERY_GLYPH, size=size, theme=theme))
    numbers = texts(root, "glyph")
    # 1-8 and the question mark; a blank (0) has no text.
    written = {square_at(text, size): (text.text, text.get("fill")) for text in numbers}
    for number in range(1, MAX_NUMBER + 1):
        colour = svg.THEMES[theme].numbers[number - 1]
        assert written.pop(divmod(number, 5)) == (str(number), colour)
    assert written == {divmod(int(Glyph.QUESTION), 5): ("?", svg.THEMES[theme].question)}


def test_the_classic_numbers_have_the_classic_colours() -> None:
    assert svg.THEMES["classic"].numbers == (
        "#0000ff", "#008000", "#ff0000", "#000080", "#800000", "#008080", "#000000", "#808080",
    )  # fmt: skip


def test_flags_mines_and_marks_are_drawn_on_their_squares() -> None:
    root = parse(svg.board(EVERY_GLYPH))
    classes = [element.get("class") for element in root.iter()]
    # A flag sign on the flag; a mine sign on the mine, the exploded one and the wrong flag.
    assert classes.count("flag-sign") == 1
    assert classes.count("mine-sign") == 3
    assert classes.count("wrong") == 1
    assert classes.count("bevel") == 2 * 3  # two edges on each of the three hidden kinds


def test_the_exploded_mine_is_on_red() -> None:
    exploded = [
        r for r in squares(parse(svg.board(EVERY_GLYPH))) if "exploded" in r.get("class", "")
    ]
    assert [r.get("fill") for r in exploded] == [svg.THEMES["classic"].exploded]


def test_every_board_has_a_title_and_text_is_escaped() -> None:
    picture = svg.board([[9]], title="<b> & 'quotes'")
    root = parse(picture)
    title = root.find("svg:title", NS)
    assert title is not None
    assert title.text == "<b> & 'quotes'"
    assert "<b>" not in picture
    default = parse(svg.board([[9, 10], [1, 13]])).find("svg:title", NS)
    assert default is not None
    assert default.text == "Minesweeper board, 2 by 2: 2 hidden, 1 flagged, a mine exploded"


def test_the_same_input_gives_the_same_bytes() -> None:
    chances = np.full(EVERY_GLYPH.shape, np.nan)
    chances[1, 4] = 1 / 3
    arguments = {"probabilities": chances, "marks": [Mark(1, 4, "hint")], "cursor": (0, 0)}
    assert svg.board(EVERY_GLYPH, **arguments) == svg.board(EVERY_GLYPH.tolist(), **arguments)  # type: ignore[arg-type]


# --- the heat map ---------------------------------------------------------------------

VIEW = np.array([[1, 9, 9, 9], [9, 9, 11, 10], [0, 2, 9, 9]])
CHANCES = np.array(
    [[np.nan, 0.0, 1.0, 0.125], [0.333, 0.5, 0.004, 0.2], [np.nan, np.nan, 0.996, 0.875]]
)


def test_the_heat_map_writes_each_hidden_squares_probability_rounded() -> None:
    size = 32
    root = parse(svg.board(VIEW, probabilities=CHANCES, size=size))
    written = {square_at(text, size): text.text for text in texts(root, "percent")}
    # Every hidden square but the flag, whose sign covers its square.
    expected = {
        (row, col): f"{math.floor(CHANCES[row, col] * 100 + 0.5)}%"
        for row, col in zip(*np.nonzero(~np.isnan(CHANCES)), strict=True)
        if VIEW[row, col] != Glyph.FLAG
    }
    expected[(1, 2)] = "<1%"
    expected[(2, 2)] = ">99%"
    assert written == expected


def test_the_heat_colours_run_from_safe_to_mine() -> None:
    root = parse(svg.board(VIEW, probabilities=CHANCES))
    fills = {
        (int(r.get("data-row", "")), int(r.get("data-col", ""))): r.get("fill")
        for r in squares(root)
    }
    safe, middle, mine = svg.THEMES["classic"].heat
    assert (fills[(0, 1)], fills[(1, 1)], fills[(0, 2)]) == (safe, middle, mine)
    assert fills[(0, 0)] == svg.THEMES["classic"].revealed  # no heat on a revealed square
    assert len({fills[(0, 3)], fills[(1, 3)], fills[(2, 3)]}) == 3


@pytest.mark.parametrize("size", [8, 16, 18, 20, 21, 24, 30, 48, 256])
def test_no_text_is_wider_than_its_square(size: int) -> None:
    every = np.vstack([EVERY_GLYPH, np.full((1, 5), int(Glyph.HIDDEN))])
    chances = np.full(every.shape, np.nan)
    chances[3] = [1.0, 0.999, 0.004, 0.5, 0.0]
    root = parse(svg.board(every, probabilities=chances, size=size))
    everything = list(root.iter(f"{{{NS['svg']}}}text"))
    assert everything
    for text in everything:
        width = svg.text_width(text.text or "", float(text.get("font-size", "")))
        assert width <= size - 2 * svg.PERCENT_PADDING, (text.text, size)
        # And the text stays inside its own square.
        x = float(text.get("x", ""))
        left = x - width / 2
        assert left >= (x // size) * size
        assert left + width <= (x // size + 1) * size


def wcag_contrast(first: str, second: str) -> float:
    """The WCAG 2 contrast ratio of two ``#rrggbb`` colours, from the standard's formulas."""

    def luminance(colour: str) -> float:
        values = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        # WCAG 2.0's own threshold (0.03928); sRGB's 0.04045 gives the same for 8-bit channels.
        r, g, b = (v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in values)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


#: Certain squares, the heat map's stops and the points between, and a fine grid.
CONTRAST_CHANCES = sorted({0.0, 1.0, 0.25, 0.5, 0.75, 0.004, 0.996, *np.linspace(0, 1, 401)})


@pytest.mark.parametrize("theme", sorted(svg.THEMES))
def test_every_percentage_reads_on_its_square_in_every_theme(theme: str) -> None:
    chances = np.array(CONTRAST_CHANCES).reshape(1, -1)
    view = np.full(chances.shape, int(Glyph.HIDDEN))
    root = parse(svg.board(view, probabilities=chances, theme=theme))
    fills = {int(r.get("data-col", "")): r.get("fill", "") for r in squares(root)}
    written = texts(root, "percent")
    assert len(written) == chances.size
    for text in written:
        _, col = square_at(text, 24)
        fill, ink = fills[col], text.get("fill", "")
        contrast = wcag_contrast(ink, fill)
        # AA for normal text, and the better of black and white: no other choice reads more.
        assert contrast >= 4.5, (theme, CONTRAST_CHANCES[col], ink, fill, round(contrast, 2))
        assert ink in ("#000000", "#ffffff")
        assert contrast >= max(wcag_contrast(c, fill) for c in ("#000000", "#ffffff"))


def test_the_dark_middle_of_the_heat_map_is_written_in_black() -> None:
    # White on the dark theme's middle colour reads at 2.88:1 only: the case this guards.
    middle = svg.THEMES["dark"].heat[1]
    assert wcag_contrast("#ffffff", middle) < 4.5
    root = parse(svg.board([[int(Glyph.HIDDEN)]], probabilities=[[0.5]], theme="dark"))
    assert [t.get("fill") for t in texts(root, "percent")] == ["#000000"]


def test_percentages_are_written_at_the_default_size_and_left_out_when_too_small() -> None:
    chances = np.array([[1.0]])
    assert [t.text for t in texts(parse(svg.board([[9]], probabilities=chances)), "percent")] == [
        "100%"
    ]
    default = texts(parse(svg.board([[9]], probabilities=chances)), "percent")[0]
    assert float(default.get("font-size", "")) >= svg.MIN_PERCENT_FONT
    assert texts(parse(svg.board([[9]], probabilities=chances, size=16)), "percent") == []


def test_a_question_mark_shows_where_no_percentage_stands_in_for_it() -> None:
    chances = np.array([[0.25]])
    with_room = texts(parse(svg.board([[11]], probabilities=chances)), "glyph")
    without = texts(parse(svg.board([[11]], probabilities=chances, size=16)), "glyph")
    assert ([t.text for t in with_room], [t.text for t in without]) == ([], ["?"])


def test_the_default_size_reads() -> None:
    root = parse(svg.board(EVERY_GLYPH))
    assert all(float(t.get("font-size", "")) >= 12 for t in texts(root, "glyph"))


def test_the_percent_label_rounds_half_up_and_never_claims_certainty() -> None:
    assert svg.percent_label(0.125) == "13%"
    assert svg.percent_label(0.5) == "50%"
    assert svg.percent_label(0.0049) == "<1%"
    assert svg.percent_label(0.9951) == ">99%"
    assert (svg.percent_label(0.0), svg.percent_label(1.0)) == ("0%", "100%")


# --- marks and the cursor ---------------------------------------------------------------


def test_marks_and_the_cursor_are_drawn_where_asked() -> None:
    marks = [Mark(0, 1, "hint"), Mark(0, 2, "click"), Mark(1, 0, "safe"), Mark(2, 3, "mine")]
    root = parse(svg.board(VIEW, marks=marks, cursor=(2, 2)))
    drawn = {
        (
            element.get("class", "").split()[1],
            int(element.get("data-row", "")),
            int(element.get("data-col", "")),
        )
        for element in root.iter()
        if element.get("class", "").startswith("mark ")
    }
    assert drawn == {(m.kind, m.row, m.col) for m in marks}
    cursors = [r for r in root.iter(f"{{{NS['svg']}}}rect") if r.get("class") == "cursor"]
    assert len(cursors) == 1
    assert (float(cursors[0].get("x", "")) // 24, float(cursors[0].get("y", "")) // 24) == (2, 2)


def test_a_square_marked_safe_or_a_mine_shows_its_mark_instead_of_its_percentage() -> None:
    marks = [Mark(0, 1, "safe"), Mark(0, 2, "mine"), Mark(0, 3, "hint")]
    root = parse(svg.board(VIEW, probabilities=CHANCES, marks=marks, size=32))
    written = {square_at(text, 32) for text in texts(root, "percent")}
    assert (0, 1) not in written
    assert (0, 2) not in written
    assert (0, 3) in written  # a hint frames its square and leaves the percentage


def test_a_mark_of_an_unknown_kind_is_refused() -> None:
    with pytest.raises(SettingsError, match="'arrow'"):
        Mark(0, 0, "arrow")  # type: ignore[arg-type]


# --- what is refused -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("view", "message"),
    [
        ([1, 2, 3], r"2-D array of glyphs, got int64 \(3,\)"),
        ([[1, 2], [3]], "rectangular"),
        ([[]], "non-empty"),
        ([[0.5]], "float64"),
        ([[0, 15]], "view square at row 1, column 2 is 15, not a glyph"),
        ([[0, 1], [-1, 2]], "view square at row 2, column 1 is -1"),
    ],
)
def test_a_bad_view_is_refused_saying_what_and_where(view: object, message: str) -> None:
    with pytest.raises(InvalidBoardError, match=message):
        svg.board(view)  # type: ignore[arg-type]


def test_probabilities_of_another_shape_or_out_of_range_are_refused() -> None:
    with pytest.raises(InvalidBoardError, match=r"shape \(2, 2\), the view \(3, 4\)"):
        svg.board(VIEW, probabilities=np.zeros((2, 2)))
    bad = CHANCES.copy()
    bad[1, 1] = 1.5
    with pytest.raises(InvalidBoardError, match=r"probability of row 2, column 2 is 1\.5"):
        svg.board(VIEW, probabilities=bad)
    with pytest.raises(InvalidBoardError, match="array of numbers"):
        svg.board(VIEW, probabilities=[["a"] * 4] * 3)


@pytest.mark.parametrize("size", [7, 257, 24.0, True, "24"])
def test_a_bad_size_is_refused(size: object) -> None:
    with pytest.raises(SettingsError, match=f"size must be an int.*got {size!r}"):
        svg.board(VIEW, size=size)  # type: ignore[arg-type]


def test_a_bad_theme_is_refused() -> None:
    with pytest.raises(
        SettingsError, match=r"theme must be one of \('classic', 'dark'\), got 'neon'"
    ):
        svg.board(VIEW, theme="neon")


def test_marks_and_cursors_off_the_view_are_refused() -> None:
    with pytest.raises(InvalidBoardError, match=r"hint mark \(3, 0\) is off the 3x4 view"):
        svg.board(VIEW, marks=[Mark(3, 0, "hint")])
    with pytest.raises(InvalidBoardError, match=r"cursor \(0, -1\) is off"):
        svg.board(VIEW, cursor=(0, -1))
    with pytest.raises(InvalidBoardError, match="cursor must be a"):
        svg.board(VIEW, cursor=[0, 0])  # type: ignore[arg-type]
    with pytest.raises(InvalidBoardError, match="marks must be Mark objects"):
        svg.board(VIEW, marks=[(0, 0, "hint")])  # type: ignore[list-item]


# --- objects in Jupyter ------------------------------------------------------------------


def played() -> Game:
    game = Game(9, 9, 10, seed=7)
    game.reveal(4, 4)
    return game


def test_a_game_shows_its_view() -> None:
    game = played()
    root = parse(game._repr_svg_())
    assert len(squares(root)) == 81
    hidden = sum("hidden" in r.get("class", "") for r in squares(root))
    assert hidden == int((game.glyphs() == Glyph.HIDDEN).sum())
    title = root.find("svg:title", NS)
    assert title is not None
    assert title.text is not None
    assert "9 by 9, 10 mines, playing, 1 actions" in title.text


def test_a_board_shows_its_view() -> None:
    game = played()
    assert game.field is not None
    board = Board(game.field)
    board.reveal(4, 4)
    root = parse(board._repr_svg_())
    assert len(squares(root)) == 81
    hidden = sum("hidden" in r.get("class", "") for r in squares(root))
    assert hidden == str(board).count("#")


def test_an_analysis_shows_its_heat_map_and_certain_squares() -> None:
    from minesweep.solver.probability import analyze

    analysis = analyze(played().glyphs(), 10, exact=True)
    root = parse(analysis._repr_svg_())
    written = {square_at(text, 24): text.text for text in texts(root, "percent")}
    assert written
    for (row, col), label in written.items():
        assert label == svg.percent_label(float(analysis.probability[row, col]))
    marked = {
        (int(e.get("data-row", "")), int(e.get("data-col", "")))
        for e in root.iter()
        if e.get("class", "").startswith("mark ")
    }
    certain = {(int(r), int(c)) for r, c in [*analysis.safe, *analysis.mines]}
    assert marked == certain
    hidden = {(int(r), int(c)) for r, c in np.argwhere(~np.isnan(analysis.probability))}
    assert set(written) == hidden - certain


def test_a_replay_is_drawn_with_its_final_board_and_statistics() -> None:
    from minesweep.replays import picture, read

    root = parse(picture(read(DATA / "test_subject.evf")))
    assert len(squares(root)) == 16 * 30
    title = root.find("svg:title", NS)
    assert title is not None
    assert title.text == (
        "Replay of Szymon_M (EVF, 16 by 30, 99 mines), won: time 69.60 s, 3BV 167/167, 3BV/s 2.40"
    )
    # Won: every mine flagged, nothing left hidden.
    kinds = [r.get("class", "").split()[1] for r in squares(root)]
    assert (kinds.count("flag"), kinds.count("hidden")) == (99, 0)
    # The statistics are seen too, not only read by a screen reader.
    assert [text.text for text in texts(root, "caption")] == [
        "Szymon_M, won: time 69.60 s, 3BV 167/167, 3BV/s 2.40",
        "EVF, 16 by 30, 99 mines",
    ]


def test_a_replay_shows_itself_in_jupyter_as_its_picture() -> None:
    from minesweep.replays import picture, read

    replay = read(DATA / "test_subject.evf")
    assert replay._repr_svg_() == picture(replay)


def test_a_replay_draws_itself_whichever_module_was_imported_first() -> None:
    # The model does not import the drawing (that would be a cycle): the
    # package installs it. Importing the model alone must still install it.
    code = (
        "from minesweep.replays.model import Replay\n"
        "from minesweep.replays.evf import read_evf\n"
        f"replay = read_evf(open({str(DATA / 'test_subject.evf')!r}, 'rb').read(), 'x.evf')\n"
        "print('Szymon_M, won' in replay._repr_svg_())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_a_caption_is_written_under_the_board_in_lines_that_fit() -> None:
    words = "one two three four five six seven eight nine ten eleven twelve"
    picture = svg.board(np.zeros((3, 5), np.uint8), size=24, caption=words + "\nlast line")
    root = parse(picture)
    lines = texts(root, "caption")
    assert len(lines) > 2
    assert " ".join(line.text or "" for line in lines) == words + " last line"
    assert lines[-1].text == "last line"
    width, height = int(root.get("width", "")), int(root.get("height", ""))
    assert width == 5 * 24
    # Every line below the board and inside the picture, the background behind them.
    baselines = [float(line.get("y", "")) for line in lines]
    assert 3 * 24 < baselines[0] < baselines[-1] <= height
    rects = root.iter(f"{{{NS['svg']}}}rect")
    background = next(rect for rect in rects if rect.get("class") == "background")
    assert background.get("height") == str(height)
    for line in lines[:-1]:
        assert svg._caption_width(line.text or "") <= width - svg.CAPTION_FONT
    # Without a caption, the picture is the board's size exactly.
    assert parse(svg.board(np.zeros((3, 5), np.uint8), size=24)).get("height") == "72"


# --- in a browser --------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

#: Draws an SVG on a canvas and reads the colour of the pixels asked for.
_READ_PIXELS = """async ([picture, points]) => {
  const image = new Image();
  image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(picture);
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  return points.map(([x, y]) => Array.from(context.getImageData(x, y, 1, 1).data.slice(0, 3)));
}"""


def pixels(picture: str, points: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """The colours Chromium paints at ``points`` (x, y) of ``picture``."""
    playwright: Any = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page()
            found = page.evaluate(_READ_PIXELS, [picture, points])
        finally:
            browser.close()
    return [tuple(colour) for colour in found]


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_chromium_paints_a_flag_red_a_hidden_square_grey_and_the_heat_map() -> None:
    chances = np.full(EVERY_GLYPH.shape, np.nan)
    chances[1, 4] = 0.0
    picture = svg.board(EVERY_GLYPH, probabilities=chances, size=24)
    flag = divmod(int(Glyph.FLAG), 5)
    exploded = divmod(int(Glyph.EXPLODED), 5)
    question = divmod(int(Glyph.QUESTION), 5)
    points = [
        (flag[1] * 24 + 10, flag[0] * 24 + 8),  # in the flag's cloth
        (question[1] * 24 + 5, question[0] * 24 + 5),  # a hidden face, off the "?"
        (exploded[1] * 24 + 3, exploded[0] * 24 + 3),  # the exploded square's corner
        (4 * 24 + 5, 1 * 24 + 5),  # a hidden square certainly safe, in the heat map
    ]
    assert pixels(picture, points) == [(255, 0, 0), (192, 192, 192), (255, 0, 0), (76, 175, 80)]


# --- the README's picture ----------------------------------------------------------------

README_PICTURE = Path(__file__).parent.parent / "docs" / "heat-map.svg"


def readme_picture() -> str:
    """The heat map the README shows: a beginner game after its first click, with the hint."""
    from minesweep.solver import analyze, hint_from_analysis

    game = played()
    glyphs = game.glyphs()
    analysis = analyze(glyphs, 10)
    advice = hint_from_analysis(analysis, glyphs)
    marks = [Mark(int(row), int(col), "safe") for row, col in analysis.safe]
    marks += [Mark(int(row), int(col), "mine") for row, col in analysis.mines]
    marks.append(Mark(advice.row, advice.col, "hint"))
    title = "A beginner game after its first click: mine probabilities, and the hint framed"
    return svg.board(glyphs, probabilities=analysis.probability, marks=marks, size=32, title=title)


def test_the_readme_picture_is_what_the_code_draws() -> None:
    assert README_PICTURE.read_text(encoding="utf-8") == readme_picture(), (
        "docs/heat-map.svg is stale: rewrite it with python -m tests.test_svg"
    )


if __name__ == "__main__":
    README_PICTURE.write_text(readme_picture(), encoding="utf-8")
