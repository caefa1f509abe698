"""The page's style sheet against the pictures' themes: one set of heat-map colours.

static/style.css names the probability overlay's stops as CSS variables, since the page
paints from them without asking the server; minesweep.svg's THEMES are the source they
must copy, so a change to either side without the other fails here.
"""

from __future__ import annotations

import re

import pytest

from minesweep import svg
from minesweep.web.app import STATIC

# Each skin's block of variables, by its selector: the light default, the dark class the
# theme button sets, and the dark skin a browser asks for when no button was pressed.
BLOCKS = {
    ":root": "classic",
    ":root.dark": "dark",
    ":root:not(.light)": "dark",
}


def _variables(css: str, selector: str) -> dict[str, str]:
    found = re.search(rf"(?m)^\s*{re.escape(selector)}\s*\{{([^}}]*)\}}", css)
    assert found is not None, f"style.css has no {selector} block"
    return dict(re.findall(r"(--[\w-]+)\s*:\s*([^;]+);", found.group(1)))


@pytest.mark.parametrize(("selector", "theme"), BLOCKS.items())
def test_the_overlays_stops_are_the_svg_themes(selector: str, theme: str) -> None:
    variables = _variables((STATIC / "style.css").read_text(encoding="utf-8"), selector)
    stops = tuple(variables.get(f"--heat-{i}", "").strip().lower() for i in range(3))
    assert stops == tuple(stop.lower() for stop in svg.THEMES[theme].heat)


def test_no_script_spells_a_stop_of_its_own() -> None:
    # The scripts read the stops from the variables (drawing.js, heatStops): a stop
    # copied into a script would escape the test above.
    stops = {stop.lower() for theme in svg.THEMES.values() for stop in theme.heat}
    for script in sorted(STATIC.glob("*.js")):
        text = script.read_text(encoding="utf-8").lower()
        assert "--heat-" in text or script.name != "drawing.js"
        assert [stop for stop in stops if stop in text] == [], script.name
