"""Train a small convolutional Minesweeper agent by imitating the exact solver (JAX + optax).

The network sees the board as the player does and predicts every hidden
square's mine probability; the agent reveals the square it thinks safest.
Its teacher is the solver's exact probability (``minesweep.solver.analyze``),
and its data are the positions it reaches itself (DAgger): the first round
plays the teacher's moves, each later round plays the network's own moves
(a share ``--teacher-share`` of them still the teacher's), and every position
is labelled by the solver. Games are stepped by the compiled vector
environment; collecting and labelling ran at about 3,000 positions
a second in the recorded run (BENCHMARKS.md).

    python examples/train_agent.py --out runs/agent

It needs the ``train`` extra (``pip install '.[train]'``: JAX, optax, and
matplotlib for the plot); without matplotlib it stops before training and
says so, unless ``--no-plot`` is given.

Everything is drawn from ``--seed``: the network's weights, the batches and
the agent's moves; the games are fixed engine seeds. The same seed gives the
same network bit for bit on the same machine with the same number of cores,
round by round; XLA's CPU kernels split their sums by the cores they find,
so a run on another core count differs in the last bits and drifts from
there (measured: docs/rl.md). Training games use engine seeds from 10**7 up, the learning curve
seeds from 10**6, the final evaluation seeds 0 to ``--eval-games - 1``: the
same games as ``minesweep bench play`` with the agent's first click. The
output folder gets ``results.json`` (the win rates with 95% intervals,
beside the solver's on the same games), ``curve.json``, ``learning-curve.png``
and the weights (``weights.npz``).

Why JAX: it is the framework of Jumanji, the JAX environment the benchmarks
compare with; its CPU wheels (jax, jaxlib, optax) installed here in about 10
seconds; ``jax.jit`` compiles the whole update, so a small network trains at
the speed of XLA's convolutions on two cores.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt
import optax

from minesweep.rl.vector import MinesweeperVectorEnv
from minesweep.solver import analyze
from minesweep.squares import GLYPH_HIDDEN
from minesweep.stats import wilson_interval

Params = list[tuple[jax.Array, jax.Array]]

#: Input planes: revealed 0 to 8, hidden, and the density of mines among
#: hidden squares (the net cannot count the mines otherwise).
PLANES = 11
_PLANE_OF = np.full(256, 10, np.int64)  # anything else (never fed) -> a zero plane
_PLANE_OF[:9] = np.arange(9)
_PLANE_OF[GLYPH_HIDDEN] = 9

TRAINING_SEEDS = 10**7
CURVE_SEEDS = 10**6


# --- the network ----------------------------------------------------------------------------


def init_params(key: jax.Array, channels: int, layers: int) -> Params:
    """He-initialised 3x3 convolutions, then a 1x1 convolution to one logit a square."""
    params: Params = []
    width = PLANES
    for _ in range(layers):
        key, sub = jax.random.split(key)
        scale = np.sqrt(2.0 / (9 * width))
        params.append(
            (jax.random.normal(sub, (3, 3, width, channels)) * scale, jnp.zeros(channels))
        )
        width = channels
    key, sub = jax.random.split(key)
    params.append((jax.random.normal(sub, (1, 1, width, 1)) * 0.01, jnp.zeros(1)))
    return params


def encode(views: jax.Array, mines: int) -> jax.Array:
    """``(boards, rows, cols)`` glyph bytes to ``(boards, rows, cols, PLANES)`` floats."""
    planes = jnp.asarray(_PLANE_OF)[views.astype(jnp.int32)]
    one_hot = jax.nn.one_hot(planes, PLANES - 1, dtype=jnp.float32)
    hidden = one_hot[..., 9]
    density = mines / jnp.maximum(hidden.sum(axis=(1, 2), keepdims=True), 1.0)
    return jnp.concatenate([one_hot, (hidden * density)[..., None]], axis=-1)


def logits(params: Params, views: jax.Array, mines: int) -> jax.Array:
    """Each square's mine logit; zero padding marks the outside of the board."""
    hidden = encode(views, mines)
    for index, (weight, bias) in enumerate(params):
        out = jax.lax.conv_general_dilated(
            hidden, weight, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
        )
        out = out + bias
        if index < len(params) - 1:
            out = jax.nn.relu(out)
            if out.shape == hidden.shape:
                out = out + hidden  # residual: deep stacks train faster
        hidden = out
    return hidden[..., 0]


def choose(params: Params, views: npt.NDArray[np.uint8], mines: int) -> npt.NDArray[np.int64]:
    """The hidden square with the lowest predicted mine probability, on every board."""
    return np.asarray(_choose(params, jnp.asarray(views), mines))


@functools.partial(jax.jit, static_argnames="mines")
def _choose(params: Params, views: jax.Array, mines: int) -> jax.Array:
    scores = logits(params, views, mines)
    scores = jnp.where(views == GLYPH_HIDDEN, scores, jnp.inf)
    return jnp.argmin(scores.reshape(views.shape[0], -1), axis=1)


def _loss(params: Params, views: jax.Array, targets: jax.Array, mines: int) -> jax.Array:
    """Cross-entropy against the solver's probabilities, over hidden squares."""
    hidden = views == GLYPH_HIDDEN
    per_square = optax.sigmoid_binary_cross_entropy(logits(params, views, mines), targets)
    return jnp.sum(jnp.where(hidden, per_square, 0.0)) / jnp.maximum(hidden.sum(), 1)


def make_update(optimizer: optax.GradientTransformation, mines: int) -> Any:
    @jax.jit
    def update(params: Params, state: Any, views: jax.Array, targets: jax.Array) -> Any:
        loss, grads = jax.value_and_grad(_loss)(params, views, targets, mines)
        changes, state = optimizer.update(grads, state, params)
        return optax.apply_updates(params, changes), state, loss

    return update


# --- positions and their labels -------------------------------------------------------------


def label(view: npt.NDArray[np.uint8], mines: int) -> npt.NDArray[np.float32]:
    """The solver's mine probability of every square (0 where open)."""
    if not (view != GLYPH_HIDDEN).any():
        return np.full(view.shape, mines / view.size, np.float32)
    probability = analyze(view, mines).probability
    return np.nan_to_num(probability, nan=0.0).astype(np.float32)


def safest(views: npt.NDArray[np.uint8], scores: npt.NDArray[np.float32]) -> npt.NDArray[np.int64]:
    """On every board, the first hidden square with the lowest score (a mine probability)."""
    masked = np.where(views == GLYPH_HIDDEN, scores, np.inf).reshape(len(views), -1)
    return masked.argmin(axis=1)


def collect(
    params: Params | None,
    positions: int,
    *,
    preset: str,
    rule: str,
    boards: int,
    seed: int,
    teacher_share: float,
    rng: np.random.Generator,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    """``positions`` positions reached by the agent (or the teacher), with the solver's labels."""
    env = MinesweeperVectorEnv(boards, preset, rule=rule)
    mines = env.mines
    views, info = env.reset(seed=seed)
    kept_views: list[npt.NDArray[np.uint8]] = []
    kept_targets: list[npt.NDArray[np.float32]] = []
    while len(kept_views) < positions:
        playing = info["action_mask"].any(axis=1)
        targets = np.zeros(views.shape, np.float32)
        for board in np.flatnonzero(playing).tolist():
            targets[board] = label(views[board], mines)
            kept_views.append(views[board])
            kept_targets.append(targets[board])
        actions = safest(views, targets)  # the teacher's move
        if params is not None:
            own = choose(params, views, mines)
            actions = np.where(rng.random(boards) < teacher_share, actions, own)
        views, _, _, _, info = env.step(actions)
    return np.stack(kept_views[:positions]), np.stack(kept_targets[:positions])


def symmetric(
    views: npt.NDArray[np.uint8], targets: npt.NDArray[np.float32], rng: np.random.Generator
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    """One of the square's eight symmetries, drawn per batch (square boards only)."""
    turns = int(rng.integers(4)) if views.shape[1] == views.shape[2] else 2 * int(rng.integers(2))
    views, targets = np.rot90(views, turns, (1, 2)), np.rot90(targets, turns, (1, 2))
    if rng.random() < 0.5:
        views, targets = views[:, :, ::-1], targets[:, :, ::-1]
    return np.ascontiguousarray(views), np.ascontiguousarray(targets)


# --- evaluation -----------------------------------------------------------------------------


def play_once(
    seeds: Sequence[int], policy: Any, *, preset: str, rule: str
) -> tuple[int, npt.NDArray[np.int64]]:
    """Each board plays engine game ``seeds[i]`` once; the wins, and the first actions.

    ``policy(views, mines)`` gives the actions of the boards still playing
    (``info["status"]`` says how each game ended).
    """
    env = MinesweeperVectorEnv(len(seeds), preset, rule=rule)
    views, _ = env.reset(seed=list(seeds))
    done = np.zeros(len(seeds), np.bool_)
    actions = np.zeros(len(seeds), np.int64)
    first: npt.NDArray[np.int64] | None = None
    wins = 0
    while not done.all():
        playing = np.flatnonzero(~done)
        actions[playing] = policy(views[playing], env.mines)
        if first is None:
            first = actions.copy()
        views, _, terminated, _, info = env.step(actions)
        wins += int((terminated & ~done & (info["status"] == "won")).sum())
        done |= terminated
    assert first is not None
    return wins, first


def evaluate(
    params: Params, seeds: Sequence[int], *, preset: str, rule: str, chunk: int = 2048
) -> tuple[int, tuple[int, int]]:
    """Wins of the agent on the engine games ``seeds``, and its first click.

    The network runs only on the boards still playing, padded to a power of
    two so that a handful of shapes are compiled.
    """

    def network(views: npt.NDArray[np.uint8], mines: int) -> npt.NDArray[np.int64]:
        size = max(64, 1 << int(len(views) - 1).bit_length())
        batch = np.full((size, *views.shape[1:]), GLYPH_HIDDEN, np.uint8)
        batch[: len(views)] = views
        return choose(params, batch, mines)[: len(views)]

    wins = 0
    first = np.zeros(1, np.int64)
    for start in range(0, len(seeds), chunk):
        part = seeds[start : start + chunk]
        won, first = play_once(part, network, preset=preset, rule=rule)
        wins += won
    cols = MinesweeperVectorEnv(1, preset).cols
    return wins, divmod(int(first[0]), cols)


def solver_wins(preset: str, rule: str, first: tuple[int, int], games: int) -> int:
    """The solver's wins on the same engine games (``minesweep bench play``'s policy).

    In a fresh interpreter: the autoplayer's worker processes fork, and a fork
    of a process running JAX's threads may deadlock.
    """
    code = (
        "import sys; from minesweep.autoplay import PlayConfig, play_games; "
        "config = PlayConfig.preset(sys.argv[1], rule=sys.argv[2], first_click=sys.argv[3]); "
        "print(sum(r.won for r in play_games(config, range(int(sys.argv[4])), workers=2)))"
    )
    where = f"{first[0]},{first[1]}"
    result = subprocess.run(
        [sys.executable, "-c", code, preset, rule, where, str(games)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return int(result.stdout.strip())


def teacher_wins(seeds: Sequence[int], *, preset: str, rule: str) -> int:
    """Wins of the solver's plain policy: the first of its safest squares."""

    def teacher(views: npt.NDArray[np.uint8], mines: int) -> npt.NDArray[np.int64]:
        return safest(views, np.stack([label(view, mines) for view in views]))

    return play_once(seeds, teacher, preset=preset, rule=rule)[0]


# --- the run --------------------------------------------------------------------------------


def train(arguments: argparse.Namespace) -> dict[str, Any]:
    out = Path(arguments.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(arguments.seed)
    params = init_params(jax.random.PRNGKey(arguments.seed), arguments.channels, arguments.layers)
    schedule = optax.cosine_decay_schedule(
        arguments.learning_rate, arguments.rounds * arguments.updates
    )
    optimizer = optax.adam(schedule)
    state = optimizer.init(params)
    preset, rule = arguments.preset, arguments.rule
    shape_of = MinesweeperVectorEnv(1, preset)
    mines = shape_of.mines
    update = make_update(optimizer, mines)
    curve_seeds = range(CURVE_SEEDS, CURVE_SEEDS + arguments.curve_games)
    curve: list[dict[str, float]] = []
    teacher = teacher_wins(curve_seeds, preset=preset, rule=rule) / arguments.curve_games
    print(f"teacher (exact min-probability) on the curve games: {teacher:.2%}", flush=True)
    views = np.zeros((0, shape_of.rows, shape_of.cols), np.uint8)
    targets = np.zeros((0, shape_of.rows, shape_of.cols), np.float32)
    began = time.perf_counter()
    labelling = 0.0
    for round_ in range(arguments.rounds):
        tick = time.perf_counter()
        new_views, new_targets = collect(
            None if round_ == 0 else params,
            arguments.positions,
            preset=preset,
            rule=rule,
            boards=256,
            seed=TRAINING_SEEDS + round_ * 1000,
            teacher_share=arguments.teacher_share,
            rng=rng,
        )
        labelling += time.perf_counter() - tick
        views = np.concatenate([views, new_views])
        targets = np.concatenate([targets, new_targets])
        losses = []
        for _ in range(arguments.updates):
            picks = rng.integers(0, len(views), arguments.batch)
            batch_views, batch_targets = symmetric(views[picks], targets[picks], rng)
            params, state, loss = update(params, state, batch_views, batch_targets)
            losses.append(loss)
        wins, first = evaluate(params, curve_seeds, preset=preset, rule=rule)
        point = {
            "round": round_ + 1,
            "updates": (round_ + 1) * arguments.updates,
            "positions": len(views),
            "minutes": (time.perf_counter() - began) / 60,
            "loss": float(np.mean([float(value) for value in losses])),
            "win_rate": wins / arguments.curve_games,
        }
        curve.append(point)
        (out / "curve.json").write_text(json.dumps(curve, indent=1))
        print(
            f"round {point['round']}: {point['positions']:,} positions, "
            f"loss {point['loss']:.4f}, wins {point['win_rate']:.2%} "
            f"({point['minutes']:.1f} min)",
            flush=True,
        )
    minutes = (time.perf_counter() - began) / 60
    np.savez(
        out / "weights.npz",
        **{f"{kind}{index}": np.asarray(value) for index, pair in enumerate(params)
           for kind, value in zip("wb", pair, strict=True)},
    )  # fmt: skip
    results: dict[str, Any] = {
        "preset": preset,
        "seed": arguments.seed,
        "network": {"channels": arguments.channels, "layers": arguments.layers},
        "training_minutes": minutes,
        "labelling_minutes": labelling / 60,
        "positions": len(views),
        "updates": arguments.rounds * arguments.updates,
        "teacher_on_curve_games": teacher,
        "evaluation": {},
    }
    for eval_preset in arguments.eval_presets:
        # Intermediate games are long: fewer of them (--other-eval-games).
        games = arguments.eval_games if eval_preset == preset else arguments.other_eval_games
        for eval_rule in ("opening", "safe"):
            wins, first = evaluate(params, range(games), preset=eval_preset, rule=eval_rule)
            solver = solver_wins(eval_preset, eval_rule, first, games) if arguments.solver else None
            entry = {
                "games": games,
                "first_click": list(first),
                "agent_wins": wins,
                "agent_interval": wilson_interval(wins, games),
                "solver_wins": solver,
                "solver_interval": None if solver is None else wilson_interval(solver, games),
            }
            results["evaluation"][f"{eval_preset}/{eval_rule}"] = entry
            low, high = entry["agent_interval"]
            print(
                f"{eval_preset} {eval_rule}: agent {wins}/{games} = {wins / games:.2%} "
                f"(95% CI {low:.2%} to {high:.2%})"
                + ("" if solver is None else f"; solver {solver}/{games} = {solver / games:.2%}")
                + f"; first click {first}",
                flush=True,
            )
    (out / "curve.json").write_text(json.dumps(curve, indent=1))
    (out / "results.json").write_text(json.dumps(results, indent=1))
    if arguments.plot:
        plot(curve, teacher, out / "learning-curve.png", arguments)
    return results


def plot(
    curve: list[dict[str, float]], teacher: float, path: Path, arguments: argparse.Namespace
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(6.4, 4.0), dpi=120)
    axes.plot(
        [point["minutes"] for point in curve],
        [100 * point["win_rate"] for point in curve],
        marker="o",
        label="convolutional agent",
    )
    axes.axhline(
        100 * teacher,
        color="grey",
        linestyle="--",
        label="its teacher: the solver's safest square (first click in the corner)",
    )
    axes.set_xlabel("minutes into the run on 2 CPU cores (training, labelling, these games)")
    axes.set_ylabel(f"win rate on {arguments.curve_games:,} games (%)")
    axes.set_title(f"{arguments.preset.capitalize()}, {arguments.rule} rule: learning curve")
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path)


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Every option's default in ``--help``, and the module's text as written."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        # A switch's default (True for --no-plot's destination) reads backwards: none shown.
        if action.nargs == 0:
            return action.help
        return super()._get_help_string(action)


def parser_of() -> argparse.ArgumentParser:
    """The command line: every option with its help and default (``--help``)."""
    parser = argparse.ArgumentParser(
        prog="train_agent.py", description=__doc__, formatter_class=_HelpFormatter
    )
    add = parser.add_argument
    add("--out", default="runs/agent", help="folder for weights and results")
    add("--seed", type=int, default=0, help="draws the weights, the batches and the agent's moves")
    add("--preset", default="beginner", help="board of the training games")
    add("--rule", default="opening", help="first-click rule of training games")
    add("--channels", type=int, default=64, help="channels of each 3x3 convolution")
    add("--layers", type=int, default=6, help="3x3 convolutions (residual where shapes match)")
    add("--rounds", type=int, default=14, help="DAgger rounds")
    add("--positions", type=int, default=30_000, help="new positions a round")
    add("--updates", type=int, default=700, help="updates a round")
    add("--batch", type=int, default=256, help="positions an update")
    add("--learning-rate", type=float, default=2e-3, help="Adam's, decayed by a cosine")
    add("--teacher-share", type=float, default=0.2,
        help="share of moves still the teacher's after round 1")  # fmt: skip
    add("--curve-games", type=int, default=1000, help="games of the learning curve, each round")
    add("--eval-games", type=int, default=10_000, help="final games on the training preset")
    add("--other-eval-games", type=int, default=2000,
        help="final games on the presets the agent did not train on")  # fmt: skip
    add("--eval-presets", nargs="+", default=["beginner", "intermediate"],
        help="presets of the final evaluation")  # fmt: skip
    add("--no-solver", dest="solver", action="store_false",
        help="skip the solver's games beside the agent's")  # fmt: skip
    add("--no-plot", dest="plot", action="store_false",
        help="do not draw learning-curve.png (no matplotlib needed)")  # fmt: skip
    add("--replot", action="store_true", help="only draw learning-curve.png again from --out")
    return parser


#: What ``--help``, and the error for a missing plotter, name to install.
EXTRA = "pip install 'minesweep[train]' (from a clone: pip install '.[train]')"


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = parser_of()
    arguments = parser.parse_args(argv)
    # The plot is drawn last, after the whole run: a missing matplotlib is
    # told now, before training, not as a traceback at the end.
    if (arguments.plot or arguments.replot) and importlib.util.find_spec("matplotlib") is None:
        parser.error(f"matplotlib draws learning-curve.png: {EXTRA}, or pass --no-plot")
    if arguments.replot:
        out = Path(arguments.out)
        curve = json.loads((out / "curve.json").read_text())
        results = json.loads((out / "results.json").read_text())
        plot(curve, results["teacher_on_curve_games"], out / "learning-curve.png", arguments)
        return dict(results)
    return train(arguments)


if __name__ == "__main__":
    main()
