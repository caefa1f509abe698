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
