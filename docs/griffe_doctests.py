"""A griffe extension that fences the docstrings' ``>>>`` examples as code.

Our docstrings are prose with doctest examples, written for ``help()`` and
for pytest's doctest runner, not Markdown. Rendered as Markdown, a ``>>>``
line becomes a block quote and an output such as ``[[9, 9]]`` a broken link;
fencing each example (prompt lines and the output up to a blank line) as
``pycon`` shows it as the session it is.
"""

from typing import Any

import griffe


def _fence_examples(text: str) -> str:
    lines = text.splitlines()
    fenced: list[str] = []
    in_example = False
    for line in lines:
        starts = line.lstrip().startswith(">>>")
        if starts and not in_example:
            fenced.append("```pycon")
            in_example = True
        elif in_example and not line.strip():
            fenced.append("```")
            in_example = False
        fenced.append(line.strip() if in_example and starts else line)
    if in_example:
        fenced.append("```")
    return "\n".join(fenced)


class FenceDoctests(griffe.Extension):
    """Fence the examples of every object's docstring once it is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = _fence_examples(obj.docstring.value)
