"""Paired A/B of two policy tunings on the same seeds: games won only by one, only by the other.

Run from the project root, for instance (Hill's dead-square rule, issue 36):

    python benchmarks/paired_policy.py --base dead_last=false --variant dead_last=true \\
        --seeds 0:100000 --workers 2 --screen dead

Each side is a :class:`minesweep.solver.guess.PolicyConfig` given as changes
to the default (``FIELD=VALUE``, repeatable; numbers, ``true``/``false``).
Without ``--screen`` every seed is played by both sides. ``--screen dead``
plays every seed with the base and replays with the variant only the games
in which the base weighed a dead candidate (a square that can show only
one number, as :meth:`minesweep.solver.whatif.Lookahead.outcomes` says):
for a variant that differs from the base only in ``dead_last``, the other
games cannot play otherwise, so the result is the same as playing them all
at a twentieth of the cost. ``--check N`` replays N of the unscreened games
with the variant as well and fails if any plays otherwise, which tests that
claim on the seeds at hand.

The output: each side's wins, the games won by one side only, the change
and its standard error (the square root of the discordant games: a sign
test), and the median time of a game on the games both played.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

from minesweep import autoplay
from minesweep.solver import whatif
from minesweep.solver.guess import DEFAULT_POLICY, PolicyConfig

#: Set by the wrapped ``Lookahead.outcomes`` when a square it was asked of can show one number.
_met_dead = False
_plain_outcomes = whatif.Lookahead.outcomes


def _outcomes_watched(self: whatif.Lookahead, row: int, col: int) -> Any:
    global _met_dead
    found = _plain_outcomes(self, row, col)
    if found is not None and len(found) == 1:
        _met_dead = True
    return found


def changed_policy(policy: PolicyConfig, changes: Sequence[str]) -> PolicyConfig:
    """``policy`` with ``FIELD=VALUE`` changes (numbers, ``true``/``false``)."""
    fields = {field.name: field for field in dataclasses.fields(PolicyConfig)}
    values: dict[str, Any] = {}
    for change in changes:
        name, _, text = change.partition("=")
        if name not in fields:
            raise SystemExit(f"no PolicyConfig field {name!r}")
        old = getattr(policy, name)
        if isinstance(old, bool):
            values[name] = text.lower() in ("1", "true", "yes")
        else:
            values[name] = type(old)(text)
    return dataclasses.replace(policy, **values)


Row = tuple[int, bool, int, int, float, "tuple[bool, int, int, float] | None"]


def _play_chunk(
    base: autoplay.PlayConfig,
    variant: autoplay.PlayConfig,
    seeds: Sequence[int],
    screen: bool,
    check: set[int],
) -> list[Row]:
    """Per seed: base's (won, guesses, opened, seconds), and the variant's when it played."""
    global _met_dead
    if screen:
        whatif.Lookahead.outcomes = _outcomes_watched  # type: ignore[method-assign]
    rows: list[Row] = []
    for seed in seeds:
        _met_dead = False
        first = autoplay.play_game(base, seed)
        other = None
        if not screen or _met_dead or seed in check:
            second = autoplay.play_game(variant, seed)
            other = (second.won, second.guesses, second.opened, second.seconds)
        rows.append((seed, first.won, first.guesses, first.opened, first.seconds, other))
        if (
            screen
            and not _met_dead
            and other is not None
            and other[:3]
            != (
                first.won,
                first.guesses,
                first.opened,
            )
        ):
            raise SystemExit(
                f"seed {seed}: no dead candidate met, yet the variant played otherwise"
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--first-click", default="corner")
    parser.add_argument("--seeds", default="0:1000", help="FIRST:END (end excluded)")
    parser.add_argument("--base", action="append", default=[], metavar="FIELD=VALUE")
    parser.add_argument("--variant", action="append", default=[], metavar="FIELD=VALUE")
    parser.add_argument(
        "--screen", choices=["dead"], help="replay only games that met a dead square"
    )
    parser.add_argument("--check", type=int, default=0, help="unscreened games replayed to test it")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=250)
    arguments = parser.parse_args()
    first, end = (int(part) for part in arguments.seeds.split(":"))
    play = autoplay.PlayConfig.preset(
        arguments.preset, rule=arguments.rule, first_click=arguments.first_click
    )
    base = dataclasses.replace(play, policy=changed_policy(DEFAULT_POLICY, arguments.base))
    variant = dataclasses.replace(play, policy=changed_policy(DEFAULT_POLICY, arguments.variant))
    screen = arguments.screen == "dead"
    seeds = list(range(first, end))
    check = (
        set(seeds[:: max(1, len(seeds) // arguments.check)][: arguments.check])
        if arguments.check
        else set()
    )
    chunks = [seeds[i : i + arguments.chunk] for i in range(0, len(seeds), arguments.chunk)]
    started = time.perf_counter()
    rows: list[Row] = []
    with ProcessPoolExecutor(arguments.workers, mp_context=get_context("fork")) as pool:
        futures = [
            pool.submit(_play_chunk, base, variant, chunk, screen, check & set(chunk))
            for chunk in chunks
        ]
        for done, future in enumerate(futures, 1):
            rows.extend(future.result())
            if done % 20 == 0:
                print(
                    f"  {done}/{len(chunks)} chunks, {time.perf_counter() - started:.0f} s",
                    file=sys.stderr,
                )
    wall = time.perf_counter() - started
    base_wins = sum(row[1] for row in rows)
    replayed = [row for row in rows if row[5] is not None]
    variant_wins = (
        base_wins - sum(row[1] for row in replayed) + sum(row[5][0] for row in replayed if row[5])
    )
    only_variant = sum(1 for row in replayed if row[5] and row[5][0] and not row[1])
    only_base = sum(1 for row in replayed if row[5] and row[1] and not row[5][0])
    spread = math.sqrt(only_variant + only_base) or 1.0
    games = len(rows)
    print(
        f"{play.rows}x{play.cols}/{play.mines}, {play.rule}, first click {play.first_click}, "
        f"seeds {first}:{end}, {wall:.0f} s on {arguments.workers} workers"
    )
    for name, wins, changes in (
        ("base", base_wins, arguments.base),
        ("variant", variant_wins, arguments.variant),
    ):
        low, high = autoplay.wilson_interval(wins, games)
        print(
            f"  {name:7} {' '.join(changes) or 'default':28} {wins:7} wins {wins / games:.3%} "
            f"(95% CI {low:.2%} to {high:.2%})"
        )
    print(f"  replayed with the variant: {len(replayed)} games" + (" (screened)" if screen else ""))
    print(
        f"  won only by the variant {only_variant}, only by the base {only_base}: "
        f"{only_variant - only_base:+d} games, {(only_variant - only_base) / games:+.3%} "
        f"({(only_variant - only_base) / spread:+.1f} standard errors)"
    )
    if replayed:
        base_ms = statistics.median(row[4] for row in replayed) * 1e3
        variant_ms = statistics.median(row[5][3] for row in replayed if row[5]) * 1e3
        base_s = sum(row[4] for row in replayed)
        variant_s = sum(row[5][3] for row in replayed if row[5])
        print(
            f"  median game on the games both played: base {base_ms:.1f} ms, "
            f"variant {variant_ms:.1f} ms (ratio {variant_ms / base_ms:.2f}); in all "
            f"{len(replayed) / base_s:.1f} and {len(replayed) / variant_s:.1f} games/s "
            f"(ratio {base_s / variant_s:.2f})"
        )


if __name__ == "__main__":
    main()
