"""The compiled-template cache (agreement_sql.templates.bytecode_cache): where it lives, how it
is turned off, and that a cached compile renders the same SQL."""
from __future__ import annotations

import jinja2
import pytest

from agreement_sql import templates


def test_cache_dir_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("AGREEMENT_SQL_CACHE_DIR", str(tmp_path / "c"))
    cache = templates.bytecode_cache()
    assert isinstance(cache, jinja2.FileSystemBytecodeCache)
    assert cache.directory == str(tmp_path / "c")


def test_cache_off_and_unwritable_places_mean_no_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("AGREEMENT_SQL_CACHE_DIR", "off")
    assert templates.bytecode_cache() is None
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("AGREEMENT_SQL_CACHE_DIR", str(blocker / "sub"))
    assert templates.bytecode_cache() is None


@pytest.mark.slow
def test_cached_compile_renders_the_same_sql(monkeypatch, tmp_path):
    from agreement_sql.rendering import statement

    monkeypatch.setenv("AGREEMENT_SQL_CACHE_DIR", str(tmp_path))
    loaded: list[bool] = []                    # per bucket: was compiled code found in the cache
    original = jinja2.FileSystemBytecodeCache.load_bytecode

    def load_bytecode(self, bucket):
        original(self, bucket)
        loaded.append(bucket.code is not None)

    monkeypatch.setattr(jinja2.FileSystemBytecodeCache, "load_bytecode", load_bytecode)
    make = templates.environment.__wrapped__          # the factory behind the lru_cache
    cold = make(str(templates.template_dir()))
    warm = make(str(templates.template_dir()))
    assert cold.bytecode_cache is not None and cold.bytecode_cache.directory == str(tmp_path)

    def rendered_with(env):
        # templates.render() compiles through templates.environment(): this one, for one call
        monkeypatch.setattr(templates, "environment", lambda directory=None: env)
        monkeypatch.setattr(templates, "_RENDERED", {})   # no rendered statement kept either
        return statement("krippendorff_alpha", level="ordinal", categories="1,2,3,4,5")[0].sql

    first = rendered_with(cold)
    assert loaded and not any(loaded), "the empty cache already held compiled code"
    assert list(tmp_path.iterdir()), "compiling wrote no cache entry"
    loaded.clear()
    second = rendered_with(warm)
    assert loaded and all(loaded), "the second environment compiled instead of loading the cache"
    assert second == first
    # the cached compile is the same code, and its text is the uncached environment's
    name = "coefficients.sql.j2"
    assert warm.get_template(name).root_render_func.__code__.co_code == \
        cold.get_template(name).root_render_func.__code__.co_code
    monkeypatch.setenv("AGREEMENT_SQL_CACHE_DIR", "off")
    uncached = make(str(templates.template_dir()))
    assert uncached.bytecode_cache is None
    assert rendered_with(uncached) == first
