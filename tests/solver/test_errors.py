"""The solver's errors: a contradiction explained lazily, and pickled whole."""

from __future__ import annotations

import pytest

from minesweep.formats import parse_view
from minesweep.solver import ContradictionError, analyze


def test_a_contradiction_is_explained_when_read_and_survives_pickling() -> None:
    import pickle

    with pytest.raises(ContradictionError) as caught:
        analyze(parse_view("1###\n22##\n##22\n"), 4)
    caught.value.add_note("while testing")
    again = pickle.loads(pickle.dumps(caught.value))
    assert type(again) is ContradictionError
    assert str(again) == str(caught.value)
    assert "the 2 at row 2, column 1 contradicts" in str(again)
    assert again.__notes__ == ["while testing"]
    assert repr(again) == repr(caught.value) == f"ContradictionError({str(again)!r})"
