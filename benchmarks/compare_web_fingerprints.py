"""Compare the web parts of two fingerprints by what the games did, not by the API's shape.

When an API changes on purpose (routes, headers, new fields), the bytes of
its responses change; this says whether the games stayed the same: for
every response, its status code, the view, status, counters, score and
ranking of the game in it, the action's effect, the hint's square and
probability, the probabilities, and a replay's views and history. Error
messages and hint reasons that changed are listed, not counted.

    python benchmarks/compare_web_fingerprints.py OLD/web.jsonl NEW/web.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def _game(entry: list[Any]) -> tuple[Any, ...]:
    method, _, _, status, data = entry
    if not isinstance(data, dict):
        return method, status, data
    state = data.get("state", data)
    seen = None
    if isinstance(state, dict) and "view" in state:
        seen = tuple(
            json.dumps(state.get(key))
            for key in ("view", "status", "mines_left", "ranked", "stats")
        )
    hint = data.get("hint") or {}
    done = tuple(
        json.dumps(value)
        for value in (
            data.get("effective"), data.get("opened"), data.get("changed"), hint.get("row"),
            hint.get("col"), hint.get("probability"), data.get("probabilities"),
            data.get("views"), data.get("history"),
        )
    )  # fmt: skip
    return method, status, seen, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    arguments = parser.parse_args()
    old = [json.loads(line) for line in arguments.old.read_text().splitlines()]
    new = [json.loads(line) for line in arguments.new.read_text().splitlines()]
    if len(old) != len(new):
        raise SystemExit(f"{len(old)} responses against {len(new)}: not the same script")
    games = [
        index
        for index, pair in enumerate(zip(old, new, strict=True))
        if _game(pair[0]) != _game(pair[1])
    ]
    print(f"{len(old)} responses; the games differ in {len(games)}: {games[:20]}")
    for key in ("error",):
        changed = {
            (a[4][key], b[4][key])
            for a, b in zip(old, new, strict=True)
            if isinstance(a[4], dict) and isinstance(b[4], dict) and a[4].get(key) != b[4].get(key)
        }
        for before, after in sorted(changed, key=str):
            print(f"{key} changed: {before!r} -> {after!r}")
    reasons = {
        (a[4]["hint"]["reason"], b[4]["hint"]["reason"])
        for a, b in zip(old, new, strict=True)
        if isinstance(a[4], dict) and "hint" in a[4] and isinstance(b[4], dict) and "hint" in b[4]
    }
    reworded = sorted(pair for pair in reasons if pair[0] != pair[1])
    print(f"hint reasons reworded: {len(reworded)} distinct; e.g. {reworded[:2]}")


if __name__ == "__main__":
    main()
