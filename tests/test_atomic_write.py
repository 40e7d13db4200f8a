"""connectn_env.atomic_write: the old file or the new one whole, never a part, no litter."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from connectn_env import atomic_write
from connectn_env.atomic_write import write_bytes_atomically, write_text_atomically


def test_writes_and_replaces_with_the_usual_permissions(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    assert write_text_atomically(path, "é\n") == path
    assert path.read_bytes() == "é\n".encode()
    write_bytes_atomically(path, memoryview(b"new"))
    assert path.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["f.json"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    path = tmp_path / "record.json"
    path.write_text("old")

    def full_disk(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic_write.os, failing, full_disk)  # a full disk, at that step
    with pytest.raises(OSError, match="No space left"):
        write_text_atomically(path, "new text")
    assert path.read_text() == "old"
    assert os.listdir(tmp_path) == ["record.json"]


def test_bad_arguments_are_refused_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="data must be bytes, got str"):
        write_bytes_atomically(tmp_path / "f", "text")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text must be a str, got bytes"):
        write_text_atomically(tmp_path / "f", b"bytes")  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        write_text_atomically(tmp_path / "missing" / "f", "x")
    assert os.listdir(tmp_path) == []


def test_durable_false_skips_the_flushes_to_the_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    monkeypatch.setattr(atomic_write.os, "fsync", synced.append)
    write_text_atomically(tmp_path / "a", "x", durable=False)
    assert synced == [] and (tmp_path / "a").read_text() == "x"
    write_text_atomically(tmp_path / "a", "y")
    assert len(synced) == 2  # the file, then its directory


def test_leftover_temporaries_are_those_of_that_path_only(tmp_path: Path) -> None:
    path = tmp_path / "game[1].json"  # glob characters in the name are taken literally
    killed = [tmp_path / f".game[1].json.{tag}.tmp" for tag in ("0123abcd", "ffffffff")]
    others = [tmp_path / ".game[1].json.xyz.tmp", tmp_path / ".game1.json.0123abcd.tmp"]
    for file in killed + others:
        file.write_text("")
    assert atomic_write.leftover_temporaries(path) == killed
    assert atomic_write.leftover_temporaries(tmp_path / "none.json") == []
