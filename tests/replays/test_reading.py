"""``replays.read`` on paths it cannot open, and the sniff that finds a folder's replays."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from minesweep.replays import ReplayError, read, write_rawvf
from minesweep.replays.reading import SNIFF_BYTES, looks_like_replay, replay_paths

DATA = Path(__file__).resolve().parent / "data"


def test_a_missing_file_is_a_replay_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "gone.avf"
    with pytest.raises(ReplayError, match=re.escape(f"{path}: cannot read it: ")) as caught:
        read(path)
    assert isinstance(caught.value, ValueError)
    assert not isinstance(caught.value, OSError)


def test_a_folder_is_a_replay_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match=re.escape(f"{tmp_path}: cannot read it: a folder")):
        read(tmp_path)


def test_a_file_it_may_not_read_is_a_replay_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Root reads any file, so the refusal is made to order here.
    path = tmp_path / "locked.evf"
    path.write_bytes((DATA / "test_subject.evf").read_bytes())

    def refused(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", refused)
    message = f"{path}: cannot read it: Permission denied"
    with pytest.raises(ReplayError, match=re.escape(message)):
        read(path)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_a_file_without_read_permission_is_a_replay_error(tmp_path: Path) -> None:
    path = tmp_path / "locked.evf"
    path.write_bytes((DATA / "test_subject.evf").read_bytes())
    path.chmod(0)
    with pytest.raises(ReplayError, match=re.escape(f"{path}: cannot read it: ")):
        read(path)


def test_the_name_given_is_the_one_the_error_says(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match=r"^my game: cannot read it: "):
        read(tmp_path / "gone.rmv", name="my game")


def test_the_sniff_sees_every_real_file_and_no_other_data(tmp_path: Path) -> None:
    for path in DATA.iterdir():
        assert looks_like_replay(path) == (path.suffix in {".avf", ".evf", ".rmv"}), path
    rawvf = tmp_path / "game.txt"
    rawvf.write_text(write_rawvf(read(DATA / "test_subject.avf")))
    assert looks_like_replay(rawvf)
    assert not looks_like_replay(tmp_path / "missing")
    assert not looks_like_replay(tmp_path)


def test_a_folder_of_other_data_has_no_replays(tmp_path: Path) -> None:
    path = tmp_path / "big.bin"
    path.write_bytes(b"\0" * (SNIFF_BYTES * 64))
    assert not looks_like_replay(path)
    assert replay_paths(tmp_path) == []
