"""The compiled pieces under the vector environment: numpy's PCG64, the engine's field."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**128 - 1))
def test_the_compiled_pcg64_is_numpys(seed: int) -> None:
    from minesweep.rules.draw import next_word, seed_pcg64

    generator = np.empty(4, np.uint64)
    seed_pcg64(np.uint64(seed & (2**64 - 1)), np.uint64(seed >> 64), generator)
    reference = np.random.PCG64(seed)  # through SeedSequence, as the engine seeds it
    words = reference.state["state"]
    assert [int(word) for word in generator] == [
        words["state"] >> 64,
        words["state"] & (2**64 - 1),
        words["inc"] >> 64,
        words["inc"] & (2**64 - 1),
    ]
    assert [int(next_word(generator)) for _ in range(4)] == reference.random_raw(4).tolist()


@settings(max_examples=300, deadline=None)
@given(
    # Up to 30x30, so that some draws run past the engine's first batch of words.
    rows=st.integers(1, 30),
    cols=st.integers(1, 30),
    density=st.floats(0, 1),
    rule=st.sampled_from(["none", "safe", "opening"]),
    seed=st.integers(0, 2**128 - 1),
    data=st.data(),
)
def test_the_compiled_field_is_the_engines(
    rows: int, cols: int, density: float, rule: str, seed: int, data: st.DataObject
) -> None:
    from minesweep.generate import generate_field
    from minesweep.rules.codes import RULE_NONE, RULE_OPENING, RULE_SAFE
    from minesweep.rules.lay import lay_field

    first = data.draw(st.integers(0, rows * cols - 1))
    row, col = divmod(first, cols)
    box = (min(row + 1, rows - 1) - max(row - 1, 0) + 1) * (
        min(col + 1, cols - 1) - max(col - 1, 0) + 1
    )
    kept = {"none": 0, "safe": 1, "opening": box}[rule]
    room = rows * cols - kept
    # Every count from none to every allowed square (a board full of mines too).
    count = min(int(density * (room + 1)), room)
    field = generate_field(rows, cols, count, first_click=divmod(first, cols), rule=rule, seed=seed)
    mines = np.ones((rows, cols), np.bool_)
    numbers = np.full((rows, cols), 99, np.uint8)
    code = {"none": RULE_NONE, "safe": RULE_SAFE, "opening": RULE_OPENING}[rule]
    lay_field(
        mines, numbers, first, code, count, np.uint64(seed & (2**64 - 1)), np.uint64(seed >> 64),
        np.empty(4, np.uint64), np.empty(rows * cols, np.bool_), np.empty(rows * cols, np.int64),
        np.arange(rows * cols) // cols,
    )  # fmt: skip
    assert np.array_equal(mines, field.mines)
    assert np.array_equal(numbers[~mines], field.numbers[~mines])


@settings(max_examples=500, deadline=None)
@given(
    word=st.one_of(st.integers(0, 2**64 - 1), st.integers(2**64 - 2**20, 2**64 - 1)),
    n=st.one_of(st.integers(1, 200), st.integers(1, 2**40), st.sampled_from([2**32, 2**32 + 1])),
)
def test_the_division_free_remainder_is_the_remainder(word: int, n: int) -> None:
    from minesweep.rules.draw import remainder_of

    reciprocal = np.uint64((2**64 - 1) // n)
    assert int(remainder_of(np.uint64(word), np.uint64(n), reciprocal)) == word % n
