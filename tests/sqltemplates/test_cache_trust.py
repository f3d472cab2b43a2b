"""The on-disk caches (compiled templates, the options file) are used only from a folder no
one else can write (agreement_sql.templates.trusted_folder, decision 0016): compiled code is
loaded with marshal and run, so a folder another user can write, or one owned by another
user, means no cache at all. Each refusal is shown against a planted cache entry that runs
(or an options file that is read) from a folder that passes the test."""
from __future__ import annotations

import os
import sys

import jinja2
import pytest

from agreement_sql import templates


def _plant(env: jinja2.Environment, folder, marker) -> None:
    """A compiled-template cache entry for t.sql.j2 whose code writes ``marker`` when loaded."""
    cache = jinja2.FileSystemBytecodeCache(str(folder))
    source, filename, _ = env.loader.get_source(env, "t.sql.j2")
    bucket = cache.get_bucket(env, "t.sql.j2", filename, source)
    bucket.code = compile(f"open({str(marker)!r}, 'w').write('ran')\n", filename, "exec")
    cache.set_bucket(bucket)


def _loads_planted_code(monkeypatch, tmp_path, folder) -> bool:
    (tmp_path / "sql").mkdir(exist_ok=True)
    (tmp_path / "sql" / "t.sql.j2").write_text("SELECT 1\n")
    marker = tmp_path / "ran.txt"
    if marker.exists():
        marker.unlink()
    monkeypatch.setenv("AGREEMENT_SQL_CACHE_DIR", str(folder))
    env = templates.environment.__wrapped__(str(tmp_path / "sql"))   # a fresh environment
    _plant(env, folder, marker)
    try:
        env.get_template("t.sql.j2")
    except Exception:       # noqa: BLE001 - the planted code defines no template; it ran or not
        pass
    return marker.exists()


def test_a_private_folder_is_used_and_the_planted_entry_shows_what_a_cache_can_run(monkeypatch, tmp_path):
    folder = tmp_path / "private"
    folder.mkdir(mode=0o700)
    assert templates.trusted_folder(str(folder))
    assert _loads_planted_code(monkeypatch, tmp_path, folder)      # the danger is real


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o722, 0o1777])
def test_a_folder_others_can_write_is_not_used(monkeypatch, tmp_path, mode):
    folder = tmp_path / "shared"
    folder.mkdir()
    os.chmod(folder, mode)
    assert not templates.trusted_folder(str(folder))
    monkeypatch.setenv("AGREEMENT_SQL_CACHE_DIR", str(folder))
    assert templates.bytecode_cache() is None
    assert not _loads_planted_code(monkeypatch, tmp_path, folder)


def test_a_folder_under_a_folder_others_can_write_is_not_used_unless_sticky(monkeypatch, tmp_path):
    above = tmp_path / "open"
    above.mkdir()
    folder = above / "cache"
    folder.mkdir(mode=0o700)
    os.chmod(above, 0o777)          # anyone could rename "cache" and put their own in its place
    assert not templates.trusted_folder(str(folder))
    assert not _loads_planted_code(monkeypatch, tmp_path, folder)
    os.chmod(above, 0o1777)         # sticky, as /tmp: no one renames another user's entry
    assert templates.trusted_folder(str(folder))
    # through a symbolic link, the folders above the link and above its target both count
    link = tmp_path / "link"
    link.symlink_to(folder)
    assert templates.trusted_folder(str(link))
    os.chmod(above, 0o777)
    assert not templates.trusted_folder(str(link))


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="changing a folder's owner needs root")
def test_a_folder_owned_by_another_user_is_not_used(monkeypatch, tmp_path):
    folder = tmp_path / "theirs"
    folder.mkdir(mode=0o700)
    os.chown(folder, 65534, 65534)
    assert not templates.trusted_folder(str(folder))
    monkeypatch.setenv("AGREEMENT_SQL_CACHE_DIR", str(folder))
    assert templates.bytecode_cache() is None
    os.chown(folder, os.getuid(), os.getgid())
    assert templates.trusted_folder(str(folder))


@pytest.mark.slow
def test_the_options_file_is_read_only_from_a_trusted_folder(monkeypatch, tmp_path):
    import hashlib
    import json

    digest = hashlib.sha256()
    for path in sorted(templates.template_dir().glob("*.sql.j2")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    planted = {"ratings_profile": []}        # would let a template render with no option
    for mode, read in ((0o777, False), (0o700, True)):
        folder = tmp_path / f"c{mode:o}"
        folder.mkdir()
        os.chmod(folder, mode)
        (folder / f"options-{digest.hexdigest()[:16]}.json").write_text(json.dumps(planted))
        monkeypatch.setenv("AGREEMENT_SQL_CACHE_DIR", str(folder))
        templates._declared_options.cache_clear()
        try:
            options = templates.template_options("ratings_profile")
        finally:
            templates._declared_options.cache_clear()
        assert (options == frozenset()) == read, mode


def test_no_ownership_to_check_means_no_cache(monkeypatch, tmp_path):
    monkeypatch.delattr(os, "getuid")
    folder = tmp_path / "c"
    folder.mkdir(mode=0o700)
    assert not templates.trusted_folder(str(folder))
