"""The compiled-template cache (agreement_sql.templates._bytecode_cache): where it lives, how it
is turned off, and that a cached compile renders the same SQL."""
from __future__ import annotations

import jinja2

from agreement_sql import templates


def test_cache_dir_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("AGREEMENT_SQL_CACHE_DIR", str(tmp_path / "c"))
    cache = templates._bytecode_cache()
    assert isinstance(cache, jinja2.FileSystemBytecodeCache)
    assert cache.directory == str(tmp_path / "c")


def test_cache_off_and_unwritable_places_mean_no_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("AGREEMENT_SQL_CACHE_DIR", "off")
    assert templates._bytecode_cache() is None
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("AGREEMENT_SQL_CACHE_DIR", str(blocker / "sub"))
    assert templates._bytecode_cache() is None


def test_cached_compile_renders_the_same_sql(monkeypatch, tmp_path):
    monkeypatch.setenv("AGREEMENT_SQL_CACHE_DIR", str(tmp_path))
    cold = templates.environment.__wrapped__(str(templates.template_dir()))
    warm = templates.environment.__wrapped__(str(templates.template_dir()))
    source = cold.get_template("krippendorff_alpha.sql.j2")
    assert list(tmp_path.iterdir()), "compiling wrote no cache entry"
    cached = warm.get_template("krippendorff_alpha.sql.j2")
    # the second environment loaded the compiled code from the cache: the same bytecode
    assert cached.root_render_func.__code__.co_code == source.root_render_func.__code__.co_code
