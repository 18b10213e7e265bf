"""The app's data folder (the database's folder: ./var, $XDG_DATA_HOME/castillo, --data-dir) is
private: created 0700, and an existing one tightened to 0700 when the store opens. A folder that
is not only ours (shared with the sticky bit, another user's) or whose mode cannot be changed
keeps its mode with a warning, and the app still opens its database there."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from host import paths
from host.app.store import Store


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def open_store(db: Path) -> None:
    store = Store(db)
    try:
        store.create_game("elgrande", {"options": {}}, {})
    finally:
        store.close()


def test_an_existing_0755_data_folder_is_tightened_to_0700(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    folder.chmod(0o755)
    open_store(folder / "castillo.db")
    assert mode(folder) == 0o700
    assert mode(folder / "castillo.db") == 0o600


def test_a_new_data_folder_is_0700_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        open_store(tmp_path / "new" / "castillo.db")
    finally:
        os.umask(old)
    assert mode(tmp_path / "new") == 0o700


def test_a_folder_that_cannot_be_chmodded_keeps_working(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "readonly-fs"
    folder.mkdir()
    folder.chmod(0o755)

    def refuse(path: object, mode: int) -> None:
        raise PermissionError(1, "Operation not permitted", str(path))

    monkeypatch.setattr(paths.os, "chmod", refuse)
    with caplog.at_level(logging.WARNING, logger="host.paths"):
        open_store(folder / "castillo.db")
    assert mode(folder) == 0o755
    assert "could not be made private" in caplog.text and "Operation not permitted" in caplog.text


def test_a_shared_sticky_folder_is_left_as_it_is(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """--db /tmp/castillo.db must not make /tmp private to one user."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    with caplog.at_level(logging.WARNING, logger="host.paths"):
        open_store(shared / "castillo.db")
    assert mode(shared) == 0o1777
    assert "sticky bit" in caplog.text
    assert mode(shared / "castillo.db") == 0o600


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root")
def test_another_users_folder_is_left_as_it_is(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    theirs.chmod(0o755)
    os.chown(theirs, 4242, 4242)
    with caplog.at_level(logging.WARNING, logger="host.paths"):
        paths.private_dir(theirs)
    assert mode(theirs) == 0o755
    assert "another user owns it" in caplog.text


def test_the_home_folder_is_left_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """--db ~/castillo.db must not close the home folder to everyone else."""
    home = tmp_path / "home"
    home.mkdir()
    home.chmod(0o755)
    monkeypatch.setenv("HOME", str(home))
    with caplog.at_level(logging.WARNING, logger="host.paths"):
        open_store(home / "castillo.db")
    assert mode(home) == 0o755
    assert "home folder" in caplog.text
