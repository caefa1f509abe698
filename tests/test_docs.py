"""The documentation site: an API reference that reads as prose (issue 49).

The docstrings name objects with reST roles (``:func:`analyze```);
docs/griffe_roles.py turns them into links when the site is built. One
``mkdocs build --strict``, as CI runs it, serves the site tests; the others
load a small package with the extension alone.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

griffe = pytest.importorskip("griffe")
pytest.importorskip("mkdocstrings_handlers.python")
pytest.importorskip("mkdocs_gen_files")

ROOT = Path(__file__).resolve().parent.parent
RAW_ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj):")


def _roles_extension() -> ModuleType:
    spec = importlib.util.spec_from_file_location("griffe_roles", ROOT / "docs" / "griffe_roles.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The site built as .ci/run builds it, and what the build printed."""
    site = tmp_path_factory.mktemp("site")
    finished = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env={**os.environ, "DISABLE_MKDOCS_2_WARNING": "true"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = finished.stdout + finished.stderr
    assert finished.returncode == 0, output
    return site, output


def _reference_pages(site: Path) -> Iterator[tuple[Path, str]]:
    pages = sorted((site / "reference").rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        yield page, page.read_text(encoding="utf-8")


@pytest.mark.slow
def test_build_is_quiet(built: tuple[Path, str]) -> None:
    """No warning (autorefs reports an unresolved link as one), no page
    listed as left out of the nav, no banner."""
    _, output = built
    assert "WARNING" not in output
    assert "not included in the" not in output
    assert "ProperDocs" not in output


@pytest.mark.slow
def test_reference_has_no_raw_roles(built: tuple[Path, str]) -> None:
    site, _ = built
    for page, html in _reference_pages(site):
        assert not RAW_ROLE.search(html), page
        # A link autorefs did not replace would show as its Markdown.
        assert "][minesweep." not in html, page


@pytest.mark.slow
def test_roles_are_links(built: tuple[Path, str]) -> None:
    site, _ = built
    policy = (site / "reference" / "minesweep" / "solver" / "policy" / "index.html").read_text(
        encoding="utf-8"
    )
    # :class:`~.guess.PolicyConfig` in minesweep.solver.policy: relative to
    # the package, shown by its last component.
    assert re.search(
        r'<a class="autorefs autorefs-internal"[^>]*href="[^"]*#minesweep\.solver\.guess\.'
        r'PolicyConfig"><code>PolicyConfig</code></a>',
        policy,
    )
    links = sum(
        html.count('class="autorefs autorefs-internal"') for _, html in _reference_pages(site)
    )
    assert links > 300


@pytest.fixture(scope="module")
def link_roles() -> ModuleType:
    return _roles_extension()


def _docstrings(link_roles: ModuleType, modules: dict[str, str]) -> dict[str, str]:
    extensions = griffe.load_extensions(link_roles.LinkRoles)
    with griffe.temporary_visited_package("pkg", modules, extensions=extensions) as package:
        return {
            obj.path: obj.docstring.value
            for obj in link_roles._walk(package)
            if obj.docstring is not None
        }


def test_roles_resolve_as_sphinx_finds_them(link_roles: ModuleType) -> None:
    docstrings = _docstrings(
        link_roles,
        {
            "__init__.py": '"""See :class:`~.guess.Guess`, :func:`.guess.best` and '
            ':mod:`pkg.guess`."""\nfrom .guess import Guess\n__all__ = ["Guess"]\n',
            "guess.py": '"""Guesses."""\n'
            "class Guess:\n"
            '    """A guess; :meth:`score` rates it, :class:`Guess` it is."""\n'
            "    def score(self) -> int:\n"
            '        """Its score, for :func:`best`."""\n'
            "        return 0\n"
            "def best() -> Guess:\n"
            '    """The best :class:`Guess`, or :exc:`ValueError` (:data:`_TOP`)."""\n'
            "    return Guess()\n"
            "_TOP = 1\n",
            "sub/__init__.py": '"""Uses :class:`pkg.Guess` and :meth:`Guess.score <pkg.guess.'
            'Guess.score>`."""\n',
        },
    )
    assert docstrings["pkg"] == (
        "See [`Guess`][pkg.guess.Guess], [`guess.best`][pkg.guess.best] and "
        "[`pkg.guess`][pkg.guess]."
    )
    assert docstrings["pkg.guess.Guess"] == (
        "A guess; [`score`][pkg.guess.Guess.score] rates it, [`Guess`][pkg.guess.Guess] it is."
    )
    assert docstrings["pkg.guess.Guess.score"] == "Its score, for [`best`][pkg.guess.best]."
    # A private name and the standard library have no page: plain code.
    assert docstrings["pkg.guess.best"] == (
        "The best [`Guess`][pkg.guess.Guess], or `ValueError` (`_TOP`)."
    )
    # An alias links to the object's own page; a title is kept.
    assert docstrings["pkg.sub"] == (
        "Uses [`pkg.Guess`][pkg.guess.Guess] and [`Guess.score`][pkg.guess.Guess.score]."
    )


def test_examples_are_left_alone(link_roles: ModuleType) -> None:
    docstrings = _docstrings(
        link_roles,
        {"__init__.py": '"""Doc.\n\n>>> ":func:`x`"\n\':func:`x`\'\n\nAfter :func:`f`."""\n'},
    )
    assert docstrings["pkg"] == "Doc.\n\n>>> \":func:`x`\"\n':func:`x`'\n\nAfter `f`."


# --- the guides' pictures, drawn at build time (issue 52) ----------------------------------

#: What docs/gen_pictures.py draws, and the guide that shows each.
PICTURES = {
    "board.svg": "game.md",
    "heat-map.svg": "solver.md",
    "replay-final.svg": "replays.md",
    "replay-timeline.svg": "replays.md",
    "replay.gif": "replays.md",
}


@pytest.mark.slow
def test_the_picture_script_draws_every_guide_picture_into_the_build_only(
    tmp_path: Path,
) -> None:
    """docs/gen_pictures.py as mkdocs-gen-files runs it (a few seconds, no site built):
    each picture lands in the build's docs folder, never in docs/, and reads."""
    import io
    import runpy
    import xml.etree.ElementTree as ET

    image = pytest.importorskip("PIL.Image")
    from mkdocs.config import load_config
    from mkdocs.structure.files import Files
    from mkdocs_gen_files.editor import FilesEditor

    config = load_config(str(ROOT / "mkdocs.yml"), site_dir=str(tmp_path / "site"))
    script = ROOT / "docs" / "gen_pictures.py"
    assert str(script) in config.plugins["gen-files"].config.scripts
    build = tmp_path / "docs"
    with FilesEditor(Files([]), config, str(build)) as editor:
        runpy.run_path(str(script))
    written = {Path(name).name for name in editor.files.src_uris if name.startswith("pictures/")}
    assert written == set(PICTURES)
    assert not (ROOT / "docs" / "pictures").exists()
    for name in PICTURES:
        data = (build / "pictures" / name).read_bytes()
        if name.endswith(".svg"):
            root = ET.fromstring(data)
            assert root.tag == "{http://www.w3.org/2000/svg}svg"
            assert root.find("{http://www.w3.org/2000/svg}title") is not None
        else:
            gif = image.open(io.BytesIO(data))
            assert gif.format == "GIF"
            assert gif.n_frames > 100
            assert gif.size == (30 * 16, 16 * 16 + 16 + 4)


def test_each_guide_links_the_pictures_it_shows() -> None:
    """The links are to the build's pictures/ folder; mkdocs build --strict fails
    on a link to a picture the script did not draw."""
    linked: dict[str, str] = {}
    for page in (ROOT / "docs").glob("*.md"):
        for name in re.findall(r"\]\(pictures/([^)\s]+)\)", page.read_text(encoding="utf-8")):
            linked[name] = page.name
    assert linked == PICTURES


@pytest.mark.slow
def test_the_built_guides_show_the_pictures(built: tuple[Path, str]) -> None:
    site, _ = built
    for name, guide in PICTURES.items():
        assert (site / "pictures" / name).stat().st_size > 1000, name
        html = (site / Path(guide).stem / "index.html").read_text(encoding="utf-8")
        assert re.search(rf'<img alt="[^"]{{40,}}" src="\.\./pictures/{re.escape(name)}"', html), (
            name
        )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("module", "members"),
    [
        ("svg", ["board", "Mark", "percent_label"]),
        ("replays/timeline", ["timeline"]),
        ("replays/animation", ["frames", "animation", "gif", "save_animation", "save_gif"]),
        ("replays/drawing", ["picture", "guess_pictures"]),
    ],
)
def test_the_reference_documents_the_picture_modules(
    built: tuple[Path, str], module: str, members: list[str]
) -> None:
    html = (site_page := built[0] / "reference" / "minesweep" / module / "index.html").read_text(
        encoding="utf-8"
    )
    dotted = "minesweep." + module.replace("/", ".")
    for member in members:
        assert f'id="{dotted}.{member}"' in html, (site_page, member)
