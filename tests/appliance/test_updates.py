"""Updates that cannot break the table (issue 26), in the booted container: castillo-appliance
update from a git tag (a local bare repository) and from a USB-stick bundle. A good version
switches; one that cannot start is never switched to; one that migrates the database and then
fails is rolled back with the database backup put back; a damaged bundle is refused. The saved
game made before is there, active, with all its log, after each.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.appliance import container as ct
from tests.appliance.conftest import FIGURES, version

pytestmark = pytest.mark.skipif(bool(ct.why_not()), reason=ct.why_not() or "-")

REPO = "file:///srv/castillo.git"
GAME = {
    "players": ["purple", "green", "blue", "orange"],
    "mode": "dealer",
    "seed": 5,
    "short_game": True,
}
RUN_PY = "host/commands/run.py"
STORE_PY = "host/app/store.py"
START_ANCHOR = (
    '    db = args.db or (args.data_dir / "castillo.db" if args.data_dir else default_db())\n'
)
AFTER_STORE_ANCHOR = '    session = Session(store, checks_enabled=choice != "none")\n'
MIGRATION_ANCHOR = "SCHEMA_VERSION = len(MIGRATIONS)\n"


def edit(path: Path, anchor: str, text: str, before: bool = False) -> None:
    source = path.read_text()
    assert source.count(anchor) == 1, f"{path}: the fixture's anchor moved: {anchor!r}"
    path.write_text(source.replace(anchor, text + anchor if before else anchor + text))


def set_version(tree: Path, number: str) -> None:
    pyproject = tree / "pyproject.toml"
    pyproject.write_text(
        re.sub(r'(?m)^version = ".*"$', f'version = "{number}"', pyproject.read_text(), count=1)
    )


def git(tree: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(tree), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True,
        capture_output=True,
    )


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bare repository with the kit at three tags: v0.1.1 (good), v0.1.2-broken (cannot
    start), v0.1.3-migrates (adds a migration, then fails when it serves the network: a fault
    a loopback trial run cannot see)."""
    from tools.build_wheel import stage

    tree = tmp_path_factory.mktemp("kit") / "src"
    stage(tree)
    git(tree, "init", "-q", "-b", "main")
    versions = {
        "v0.1.1": ("0.1.1", None),
        "v0.1.2-broken": ("0.1.2", "broken"),
        "v0.1.3-migrates": ("0.1.3", "migrates"),
    }
    git(tree, "add", "-A")
    git(tree, "commit", "-q", "-m", "base")
    for tag, (number, fault) in versions.items():
        git(tree, "checkout", "-q", "--detach", "main")
        set_version(tree, number)
        if fault == "broken":
            edit(
                tree / RUN_PY,
                START_ANCHOR,
                '    print("castillo run: this version cannot start", file=sys.stderr)\n'
                "    return 3\n",
                before=True,
            )
        if fault == "migrates":
            edit(
                tree / STORE_PY,
                MIGRATION_ANCHOR,
                'MIGRATIONS = (*MIGRATIONS, "CREATE TABLE fixture_migrated (x INTEGER)")\n',
                before=True,
            )
            edit(
                tree / RUN_PY,
                AFTER_STORE_ANCHOR,
                "    if not args.local:\n"
                '        raise SystemExit("castillo run: this version fails on the network")\n',
            )
        git(tree, "commit", "-q", "-am", tag)
        git(tree, "tag", tag)
    bare = tree.parent / "castillo.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(tree), str(bare)], check=True)
    return bare


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A USB-stick bundle: the kit 0.1.4 as a wheel, and SHA256SUMS."""
    from tools.build_wheel import stage

    work = tmp_path_factory.mktemp("bundle")
    stage(work / "src")
    set_version(work / "src", "0.1.4")
    out = work / "castillo-update"
    env = {k: v for k, v in os.environ.items() if k != "CASTILLO_WHEEL_ENGINE_BUILD"}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "-w",
            str(out),
            str(work / "src"),
        ],
        check=True,
        env=env,
        capture_output=True,
    )
    lines = [f"{hashlib.sha256(w.read_bytes()).hexdigest()}  {w.name}" for w in out.glob("*.whl")]
    (out / "SHA256SUMS").write_text("\n".join(lines) + "\n")
    return out


@pytest.fixture(scope="module")
def table(installed: ct.Container, repository: Path, bundle: Path) -> Iterator[ct.Container]:
    """The installed container with the repository and the bundle in it, and a game in play."""
    installed.put(repository, "/srv/castillo.git")
    installed.put(bundle, "/media/usb/castillo-update")
    status, game = installed.http("/api/games", GAME)
    assert status == 200, game
    installed.game_id = game["id"]  # type: ignore[attr-defined]
    installed.log_rows = log_rows(installed, game["id"])  # type: ignore[attr-defined]
    yield installed


def log_rows(box: ct.Container, game_id: int) -> int:
    script = (
        "import sqlite3,sys; c=sqlite3.connect('file:/var/lib/castillo/castillo.db?mode=ro',"
        "uri=True); print(c.execute('select count(*) from log where game_id=?',"
        "(int(sys.argv[1]),)).fetchone()[0])"
    )
    return int(box.run("python3", "-c", script, str(game_id)).stdout)


def schema(box: ct.Container) -> int:
    script = (
        "import sqlite3; print(sqlite3.connect('file:/var/lib/castillo/castillo.db?mode=ro',"
        "uri=True).execute('pragma user_version').fetchone()[0])"
    )
    return int(box.run("python3", "-c", script).stdout)


def current(box: ct.Container) -> str:
    return box.run("readlink", "/opt/castillo/current").stdout.strip()


def update(box: ct.Container, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = box.run("castillo-appliance", "update", *args, check=False, timeout=600)
    return done, time.monotonic() - started


def game_continues(box: ct.Container) -> None:
    """The table serves, the game made before is the active one with its whole log, and it
    answers its state."""
    box.wait_serving(30)
    status, games = box.http("/api/games")
    assert status == 200 and games["active"] == box.game_id, games  # type: ignore[attr-defined]
    assert log_rows(box, box.game_id) == box.log_rows  # type: ignore[attr-defined]
    status, state = box.http("/api/state")
    assert status == 200, state


def test_broken_version_never_switched(table: ct.Container) -> None:
    """A version that cannot start fails its trial run on a spare port: nothing switches, the
    table never stops."""
    pid = ct.main_pid(table)
    done, took = update(table, "--git", REPO, "--tag", "v0.1.2-broken")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "failed its trial run" in done.stdout and "cannot start" in done.stdout, done.stdout
    assert current(table) == f"versions/{version()}"
    assert ct.main_pid(table) == pid  # never restarted
    assert (
        table.run("test", "-e", "/opt/castillo/versions/v0.1.2-broken", check=False).returncode == 1
    )
    FIGURES["update refused by its trial run"] = f"{took:.1f} s"
    game_continues(table)


def test_good_version_switches(table: ct.Container) -> None:
    """A good tag: backed up, tried, switched, serving; the game continues."""
    done, took = update(table, "--git", REPO, "--tag", "v0.1.1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert current(table) == "versions/v0.1.1"
    assert table.run("readlink", "/opt/castillo/previous").stdout.strip() == f"versions/{version()}"
    pid = ct.main_pid(table)
    environ = table.run("cat", f"/proc/{pid}/cmdline").stdout
    assert "/opt/castillo/current/" in environ
    shown = table.run(
        "/opt/castillo/current/venv/bin/python",
        "-c",
        "import importlib.metadata as m; print(m.version('castillo-kit'))",
    ).stdout
    assert shown.strip() == "0.1.1"
    backups = table.run("ls", "/var/lib/castillo-appliance/backups").stdout.split()
    assert any(f"before-v0.1.1-from-{version()}" in name for name in backups), backups
    FIGURES["update (git tag, good)"] = f"{took:.1f} s"
    game_continues(table)


def test_migrating_version_rolled_back_with_backup(table: ct.Container) -> None:
    """A version that migrates the database, then fails once it serves the network: rolled
    back, and the database backup put back (the older version refuses a newer schema)."""
    before = schema(table)
    done, took = update(table, "--git", REPO, "--tag", "v0.1.3-migrates")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "failed after the switch" in done.stdout, done.stdout
    assert "database restored" in done.stdout, done.stdout
    assert current(table) == "versions/v0.1.1"
    assert schema(table) == before
    FIGURES["update that migrated then failed, with rollback"] = f"{took:.1f} s"
    match = re.search(r"rolled back to version v0\.1\.1 \(([\d.]+) s\)", done.stdout)
    if match:
        FIGURES["rollback itself"] = f"{match.group(1)} s"
    game_continues(table)


def test_bundle_damaged_refused_then_installed(table: ct.Container) -> None:
    """A bundle whose wheel does not match SHA256SUMS is refused (exit 2, nothing changed);
    the intact bundle installs."""
    box = table
    before = current(box)
    box.run("cp", "-r", "/media/usb/castillo-update", "/media/usb/damaged")
    box.run("sh", "-c", 'for f in /media/usb/damaged/*.whl; do printf x >>"$f"; done')
    done, _ = update(box, "--bundle", "/media/usb/damaged")
    assert done.returncode == 2 and "does not match SHA256SUMS" in done.stderr, done.stderr
    assert current(box) == before
    done, _ = update(box, "--bundle", "/media/usb/nothing-here")
    assert done.returncode == 2 and "not a folder" in done.stderr, done.stderr
    done, took = update(box, "--bundle", "/media/usb/castillo-update")
    assert done.returncode == 0, done.stdout + done.stderr
    assert current(box) == "versions/0.1.4"
    FIGURES["update (USB bundle)"] = f"{took:.1f} s"
    game_continues(box)


def test_manual_rollback(table: ct.Container) -> None:
    """castillo-appliance rollback goes back to the previous version (and `previous` then
    names the one left)."""
    was, previous = current(table), table.run("readlink", "/opt/castillo/previous").stdout.strip()
    started = time.monotonic()
    done = table.run("castillo-appliance", "rollback", check=False, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert current(table) == previous != was
    assert table.run("readlink", "/opt/castillo/previous").stdout.strip() == was
    FIGURES["manual rollback"] = f"{time.monotonic() - started:.1f} s"
    game_continues(table)


def test_bad_update_requests_refused(table: ct.Container) -> None:
    """A tag the repository does not have, a tag that is not a version name, --git without
    --tag: each a clear exit 2, nothing changed."""
    before = current(table)
    for args, words in (
        (("--git", REPO, "--tag", "v9.9.9"), "cannot fetch tag v9.9.9"),
        (("--git", REPO, "--tag", "../../etc"), "letters, digits"),
        (("--git", REPO), "--git needs --tag"),
    ):
        done, _ = update(table, *args)
        assert done.returncode == 2 and words in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr
    assert current(table) == before
