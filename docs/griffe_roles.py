"""A griffe extension that turns the docstrings' reST roles into links.

Our docstrings name other objects the Sphinx way, ``:func:`analyze```,
``:class:`~.guess.Guess``` or ``:meth:`Game.glyphs```, which reads well in
``help()`` but which Markdown shows as the raw text ``:func: analyze``. Once
the package is loaded, each role becomes a mkdocstrings (autorefs)
cross-reference to the object's full path, ``[`analyze`][minesweep.solver.
probability.analyze]``, found as Sphinx finds it: a leading ``.`` is relative
to the docstring's package (``.guess.Guess`` in ``minesweep.solver.policy`` is
``minesweep.solver.guess.Guess``), a plain name is looked up in the
docstring's class, then its module, then the packages above it, then as an
absolute path, then as the unique object whose path ends with it. ``~`` shows
only the last component and ``title <target>`` the title. A target that no
reference page shows (a private module, the standard library) becomes a plain
code span rather than a broken link, so ``mkdocs build --strict`` stays green.

The docstrings in ``src/`` are left as they are; only the site's copy changes.
"""

import re
from collections.abc import Iterator
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj):`([^`]+)`")
_TITLED = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$")

Found = griffe.Object | griffe.Alias


def _lookup(collection: griffe.ModulesCollection, path: str) -> Found | None:
    try:
        found: Found = collection[path]
    except Exception:  # KeyError, AliasResolutionError, CyclicAliasError...
        return None
    return found


def _shown(obj: Found) -> bool:
    """Whether a reference page renders ``obj``.

    Each public module has a page; in it mkdocstrings shows the members that
    our ``filters: ["!^_"]`` keep and that have a docstring, their own or a
    member's (its ``show_if_no_docstring`` is off).
    """
    if obj.is_module:
        return not any(part.startswith("_") for part in obj.path.split("."))
    if obj.name.startswith("_") or obj.parent is None or not obj.has_docstrings:
        return False
    if obj.is_alias and not obj.is_public:
        # mkdocstrings renders an imported name only where it is exported.
        return False
    return _shown(obj.parent)


def _anchor(obj: Found) -> str | None:
    """The identifier autorefs knows ``obj`` by, or None when no page shows it."""
    if isinstance(obj, griffe.Alias):
        try:
            target = obj.final_target
        except Exception:  # an alias to a package that is not loaded
            target = None
        if target is not None and _shown(target):
            return target.path
    return obj.path if _shown(obj) else None


def _walk(obj: griffe.Object) -> Iterator[griffe.Object]:
    yield obj
    for member in obj.members.values():
        if not member.is_alias and isinstance(member, griffe.Object):
            yield from _walk(member)


class _Resolver:
    def __init__(self, package: griffe.Module) -> None:
        self.collection = package.modules_collection
        self.by_suffix: dict[str, list[griffe.Object]] = {}
        for obj in _walk(package):
            parts = obj.path.split(".")
            for start in range(1, len(parts)):
                self.by_suffix.setdefault(".".join(parts[start:]), []).append(obj)

    def candidates(self, target: str, context: griffe.Object) -> Iterator[str]:
        module = context.module
        package = module if module.is_package else module.parent
        if target.startswith("."):
            relative = target.lstrip(".")
            if context.is_class:
                yield f"{context.path}.{relative}"
            if context.parent is not None and context.parent.is_class:
                yield f"{context.parent.path}.{relative}"
            yield f"{module.path}.{relative}"
            if package is not None:
                yield f"{package.path}.{relative}"
            return
        scope: griffe.Object | None = context
        while scope is not None:
            if not scope.is_function:
                yield f"{scope.path}.{target}"
            scope = scope.parent
        yield target

    def resolve(self, target: str, context: griffe.Object) -> str | None:
        for path in self.candidates(target, context):
            found = _lookup(self.collection, path)
            if found is not None:
                return _anchor(found)
        shown = {
            anchor
            for obj in self.by_suffix.get(target.lstrip("."), [])
            if (anchor := _anchor(obj)) is not None
        }
        return shown.pop() if len(shown) == 1 else None


def _link(match: re.Match[str], resolver: _Resolver, context: griffe.Object) -> str:
    content = match.group(1).strip()
    titled = _TITLED.match(content)
    if titled:
        title, target = titled["title"], titled["target"].strip()
    else:
        target = content.lstrip("!")
        shortened = target.startswith("~")
        target = target.lstrip("~")
        title = target.rsplit(".", 1)[-1] if shortened else target.lstrip(".")
    anchor = resolver.resolve(target.lstrip("~"), context)
    if anchor is None:
        return f"`{title}`"
    return f"[`{title}`][{anchor}]"


def link_roles(text: str, resolver: _Resolver, context: griffe.Object) -> str:
    """``text`` with each role outside the ``>>>`` examples turned into a link."""
    lines = text.split("\n")
    in_example = False
    for number, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(">>>"):
            in_example = True
        elif not stripped:
            in_example = False
        if not in_example and ":" in line:
            lines[number] = ROLE.sub(lambda match: _link(match, resolver, context), line)
    return "\n".join(lines)


class LinkRoles(griffe.Extension):
    """Rewrite the roles of every docstring of a package once it is loaded."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        resolver = _Resolver(pkg)
        for obj in _walk(pkg):
            if obj.docstring is not None:
                obj.docstring.value = link_roles(obj.docstring.value, resolver, obj)
