"""Write one API reference page per public module, found by walking the package.

mkdocs-gen-files runs this at build time, so a module added or moved under
src/minesweep appears in the reference without editing any list; modules whose
name starts with an underscore are private and left out.
"""

from pathlib import Path

import mkdocs_gen_files

package_root = Path(__file__).resolve().parent.parent / "src"
links: list[str] = []

for source in sorted((package_root / "minesweep").rglob("*.py")):
    parts = list(source.relative_to(package_root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if any(part.startswith("_") for part in parts):
        continue
    module = ".".join(parts)
    page = Path("reference", *parts).with_suffix(".md")
    links.append(f"- [`{module}`]({Path(*parts).with_suffix('.md').as_posix()})\n")
    with mkdocs_gen_files.open(page, "w") as handle:
        handle.write(f"# `{module}`\n\n::: {module}\n")
    mkdocs_gen_files.set_edit_path(page, source.relative_to(package_root.parent))

with mkdocs_gen_files.open("reference/index.md", "w") as handle:
    handle.write(
        "# API reference\n\nOne page per public module, generated from its docstrings.\n\n"
    )
    handle.writelines(links)
