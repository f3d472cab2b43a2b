"""Nothing overwritten (docs/decisions/0016, agreement_sql/outputs.py).

* Every CLI command with an output option, found by walking the parsers (so a new command is
  covered by construction), refuses an output that is its input, a hard or symbolic link to
  it, a file its glob source matches (existing or not yet), or a file in its input folder:
  exit 1, one line naming the option and the input, the input unchanged, no file left.
* Outputs are written to a temporary file and moved into place: a failed write leaves the old
  file whole and no temporary file; "new" files are created exclusively; a call deletes only
  what it created (two concurrent points_to runs into one folder).
* The glob matching of an output path agrees with Python's glob.glob, which reads the sources
  (a property test on random trees and patterns).
"""
from __future__ import annotations

import argparse
import glob
import os
import shutil
import stat
import threading
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agreement_sql import OptionError, judge_agreement
from agreement_sql import outputs
from agreement_sql.cli import build_parser, main
from agreement_sql.cli._common import declared_files
from agreement_sql.outputs import NEW, Inputs, Output, new_files, write_text

ROOT = Path(__file__).resolve().parents[2]
WEVAL = ROOT / "data" / "weval_results.json"
CSV = "item,rater,value\n1,a,1\n1,b,1\n2,a,2\n2,b,1\n"


# --- the commands, from the parsers ------------------------------------------------------------

def _leaves(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()):
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield prefix, parser
        return
    for name, child in subs[0].choices.items():
        yield from _leaves(child, prefix + (name,))


def _role(action: argparse.Action) -> str | None:
    return getattr(action, "agreement_role", None)


COMMANDS = list(_leaves(build_parser()))
# (command words, the output action, the command's input actions) for every output option
OUTPUT_OPTIONS = [(words, action, [a for a in leaf._actions if _role(a) == "input"])
                  for words, leaf in COMMANDS for action in leaf._actions
                  if _role(action) in ("output", "output_dir")]
# output options of commands that read a file: those can be pointed at an input
GUARDED = [(w, a, i) for w, a, i in OUTPUT_OPTIONS if i]


def _ids(cases):
    return [" ".join(w) + " " + max(a.option_strings, key=len, default=a.dest) for w, a, _ in cases]


def test_every_path_argument_declares_its_role():
    """A file argument without a role would escape the checks: every argument that names a
    path (a SOURCE, PAIRS, PATH or DIR) says whether it is read, written or neither."""
    for words, leaf in COMMANDS:
        for action in leaf._actions:
            names_path = action.metavar in ("SOURCE", "PAIRS", "PATH", "DIR") or action.dest == "source"
            assert not names_path or _role(action), (words, action.dest)


def test_the_walk_finds_the_known_writers():
    found = {(" ".join(w), max(a.option_strings, key=len, default=a.dest)) for w, a, _ in OUTPUT_OPTIONS}
    assert {("irr", "--output"), ("report", "--output"), ("sample", "--output"),
            ("consistency", "--disagreements"), ("consistency", "--output"),
            ("judges", "--points-to"), ("judges", "--output"), ("fleiss-kappa", "--output"),
            ("plan precision", "--output"), ("sheet", "--output")} <= found
    # the writers without an input (nothing they could overwrite) are only `plan size`
    assert {" ".join(w) for w, _, i in OUTPUT_OPTIONS if not i} == {"plan size", "dbt-package"}   # write, read no file


# the arguments a command requires besides its input and output
REQUIRED = {("alt-test",): ["--judges", "a"]}


def _argv(words, inputs, input_value, option, output_value):
    """The command with its first input set to ``input_value`` and ``option`` to the output."""
    argv = list(words) + REQUIRED.get(tuple(words), [])
    first = inputs[0]
    if first.option_strings:
        argv += [first.option_strings[0], input_value]
    else:
        argv.append(input_value)
    return argv + [max(option.option_strings, key=len), output_value]


def _run(capsys, argv):
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.err


def _refused(capsys, tmp_path, argv, source: Path, before: bytes, *, names: str):
    listing = sorted(os.listdir(tmp_path))
    code, err = _run(capsys, argv)
    assert code == 1, (argv, err)
    assert err.startswith("agreement-sql: error: ") and err.count("\n") == 1, err
    option = argv[-2]
    assert option in err and names in err, err
    assert source.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == listing        # nothing created, nothing removed


@pytest.mark.parametrize("words, option, inputs", GUARDED, ids=_ids(GUARDED))
def test_an_output_onto_an_input_is_refused(tmp_path, capsys, words, option, inputs):
    data = tmp_path / "in"
    data.mkdir()
    source = data / "ratings.csv"
    source.write_text(CSV)
    before = source.read_bytes()
    hard = data / "hard.csv"
    os.link(source, hard)
    soft = tmp_path / "soft.csv"
    soft.symlink_to(source)
    pattern = str(data / "*")
    cases = [
        (str(source), str(source), "'" + str(source)),              # the same file
        (str(source), str(hard), "'" + str(source)),                # a hard link to it
        (str(source), str(soft), "'" + str(source)),                # a symbolic link to it
        (pattern, str(hard), pattern),                              # a file the glob matches
        (pattern, str(data / "new.csv"), pattern),                  # ... on the next run
    ]
    for input_value, output_value, names in cases:
        if option.agreement_role == "output_dir" and input_value == pattern:
            output_value = str(data)        # its files would be matched by the glob
        argv = _argv(words, inputs, input_value, option, output_value)
        _refused(capsys, tmp_path, argv, source, before, names=names)


@pytest.mark.parametrize("words, option, inputs", GUARDED, ids=_ids(GUARDED))
def test_an_output_in_an_input_folder_is_refused(tmp_path, capsys, words, option, inputs):
    folder = tmp_path / "folder"              # a folder source (Spark reads one whole)
    folder.mkdir()
    (folder / "part-0.csv").write_text(CSV)
    before = (folder / "part-0.csv").read_bytes()
    target = str(folder) if option.agreement_role == "output_dir" else str(folder / "out.csv")
    argv = _argv(words, inputs, str(folder), option, target)
    _refused(capsys, tmp_path, argv, folder / "part-0.csv", before, names=str(folder))


def test_two_outputs_of_one_command_on_one_file_are_refused(tmp_path, capsys):
    source = tmp_path / "r.jsonl"
    source.write_text("{}\n")
    one = str(tmp_path / "one.txt")
    (tmp_path / "p").mkdir()
    for argv in (["consistency", str(source), "--disagreements", one, "--output", one],
                 ["judges", str(source), "--points-to", str(tmp_path / "p"),
                  "--output", str(tmp_path / "p" / "points.parquet")]):
        code, err = _run(capsys, argv)
        assert code == 1 and "give each output its own file" in err, (argv, err)
    assert sorted(os.listdir(tmp_path)) == ["p", "r.jsonl"] and not os.listdir(tmp_path / "p")


def test_plain_output_onto_another_file_replaces_it_whole(tmp_path, capsys):
    source = tmp_path / "r.csv"
    source.write_text(CSV)
    out = tmp_path / "result.json"
    out.write_text("old result, and more text than the new one will have " * 100)
    os.chmod(out, 0o640)
    assert main(["percent-agreement", str(source), "-o", str(out)]) == 0
    assert out.read_text().startswith("{") and '"value": 0.5' in out.read_text()
    assert stat.S_IMODE(out.stat().st_mode) == 0o640            # its permission bits kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv", "result.json"]
    # a symbolic link at the output path is followed: the file it names is replaced
    real = tmp_path / "real.json"
    real.write_text("old")
    (tmp_path / "link.json").symlink_to(real)
    assert main(["percent-agreement", str(source), "-o", str(tmp_path / "link.json")]) == 0
    assert (tmp_path / "link.json").is_symlink() and '"value": 0.5' in real.read_text()


def test_sample_onto_its_sheet_is_refused_by_the_api_too(tmp_path):
    from agreement_sql import calibration_sample, consistency

    sheet = tmp_path / "sheet.csv"
    shutil.copy(ROOT / "data" / "evaluation_sheet.csv", sheet)
    before = sheet.read_bytes()
    with pytest.raises(OptionError, match="is the input"):
        calibration_sample(str(sheet), 4, seed=7, output=str(sheet))
    assert sheet.read_bytes() == before
    pairs = tmp_path / "pairs.jsonl"
    shutil.copy(ROOT / "data" / "consistency_pairs.jsonl", pairs)
    with pytest.raises(OptionError, match="is the input"):
        consistency(str(pairs), disagreements_tsv=str(pairs))
    with pytest.raises(OptionError, match="matches the input glob"):
        consistency(str(tmp_path / "*.jsonl"), disagreements_tsv=str(tmp_path / "d.jsonl"))
    assert pairs.read_bytes() == (ROOT / "data" / "consistency_pairs.jsonl").read_bytes()


# --- the module: atomic, exclusive, deleting only its own files -------------------------------

def test_a_failed_write_leaves_the_old_file_whole_and_no_temporary_file(tmp_path, monkeypatch):
    out = tmp_path / "out.txt"
    out.write_text("the old content")

    class Broken(Exception):
        pass

    real_open = open

    class HalfWritten:
        """A file whose write stops half way (a full disk)."""

        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, text):
            self.handle.write(text[: len(text) // 2])
            self.handle.flush()
            raise Broken("disk full")

    def failing_open(path, mode="r", *args, **kwargs):
        handle = real_open(path, mode, *args, **kwargs)
        if "w" in mode and os.path.basename(str(path)).startswith(".out.txt."):
            return HalfWritten(handle)
        return handle

    monkeypatch.setattr("builtins.open", failing_open)
    with pytest.raises(Broken):
        write_text(out, "the new content, longer than the old", "--output")
    monkeypatch.undo()
    assert out.read_text() == "the old content"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_a_file_that_appears_while_the_call_runs_is_not_replaced(tmp_path):
    for mode in (NEW, "replace"):
        target = tmp_path / f"{mode}.txt"
        out = Output(target, "--output", mode=mode)        # checked: not there
        temp = out.open_temp()
        Path(temp).write_text("mine")
        target.write_text("someone else's")                 # appears meanwhile
        with pytest.raises(OptionError, match="appeared while agreement-sql ran"):
            out.commit()
        out.discard()
        assert target.read_text() == "someone else's"
    # replace mode: the file that was there, swapped for another meanwhile, is not replaced
    target = tmp_path / "swapped.txt"
    target.write_text("first")
    out = Output(target, "--output")
    Path(out.open_temp()).write_text("mine")
    target.unlink()
    target.write_text("second")
    with pytest.raises(OptionError, match="was replaced or changed"):
        out.commit()
    out.discard()
    assert target.read_text() == "second"
    assert sorted(os.listdir(tmp_path)) == ["new.txt", "replace.txt", "swapped.txt"]


def test_a_set_is_placed_all_or_nothing_and_undo_spares_a_file_that_is_not_its_own(tmp_path):
    files = new_files(tmp_path / "d", ["a.parquet", "b.parquet"], "points_to")
    for out in files:
        Path(out.open_temp()).write_text(out.path)
    (tmp_path / "d" / "b.parquet").write_text("another run's")      # b taken meanwhile
    with pytest.raises(OptionError, match="b.parquet' appeared"):
        files.commit()
    # a.parquet, which this call had placed, is removed again; b is the other run's
    assert sorted(os.listdir(tmp_path / "d")) == ["b.parquet"]
    assert (tmp_path / "d" / "b.parquet").read_text() == "another run's"
    # undo removes only a file that is still the call's own
    out = Output(tmp_path / "c.txt", "--output", mode=NEW)
    Path(out.open_temp()).write_text("mine")
    out.commit()
    (tmp_path / "c.txt").unlink()
    (tmp_path / "c.txt").write_text("theirs")
    out.undo()
    assert (tmp_path / "c.txt").read_text() == "theirs"


def test_hard_links_fall_back_to_an_exclusive_placeholder(tmp_path, monkeypatch):
    import errno

    def no_links(*_):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    out = Output(tmp_path / "x.txt", "--output", mode=NEW)
    Path(out.open_temp()).write_text("done")
    out.commit()
    assert (tmp_path / "x.txt").read_text() == "done" and os.listdir(tmp_path) == ["x.txt"]


def _points_run(folder: Path, results: dict, name: str):
    try:
        results[name] = judge_agreement(str(WEVAL), diagnostics=False, points_to=folder)
    except OptionError as exc:
        results[name] = exc


def test_two_concurrent_points_to_runs_into_one_folder(tmp_path):
    """Both runs pass the up-front check (neither file exists yet); exactly one places its
    files, the other fails with an OptionError and removes only its own temporary files: the
    finished files are whole, and the winner's."""
    folder = tmp_path / "points"
    results: dict = {}
    threads = [threading.Thread(target=_points_run, args=(folder, results, n)) for n in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    won = [r for r in results.values() if isinstance(r, dict)]
    lost = [r for r in results.values() if isinstance(r, OptionError)]
    assert len(won) + len(lost) == 2 and len(won) >= 1
    for error in lost:
        assert "exists" in str(error) or "appeared while" in str(error)
    assert sorted(os.listdir(folder)) == ["point_alphas.parquet", "points.parquet"]
    assert pq.read_table(folder / "points.parquet").num_rows == won[0]["pointFiles"]["points"]["rows"] == 71
    assert pq.read_table(folder / "point_alphas.parquet").num_rows == 24


def test_a_run_that_loses_the_race_leaves_the_winners_files(tmp_path, monkeypatch):
    """Deterministic race: run B passes the up-front check, then run A completes before B
    places its files. B fails and A's finished files stay (B's cleanup removes only B's)."""
    folder = tmp_path / "points"
    original = outputs.OutputSet.commit
    other: dict = {}
    started: list[int] = []

    def commit_after_a(self):
        if not started:                                 # B, about to place its files:
            started.append(1)
            _points_run(folder, other, "a")            # A runs to the end first
        return original(self)

    monkeypatch.setattr(outputs.OutputSet, "commit", commit_after_a)
    with pytest.raises(OptionError, match="appeared while agreement-sql ran"):
        judge_agreement(str(WEVAL), diagnostics=False, points_to=folder)
    assert isinstance(other["a"], dict)
    assert sorted(os.listdir(folder)) == ["point_alphas.parquet", "points.parquet"]
    assert pq.read_table(folder / "points.parquet").num_rows == 71


def test_a_failing_points_run_leaves_nothing_of_its_own(tmp_path, monkeypatch):
    from agreement_sql.workflows import judges

    folder = tmp_path / "points"
    (folder).mkdir()
    (folder / "unrelated.parquet").write_text("keep")

    def broken(*args, **kwargs):
        raise RuntimeError("the statement failed")

    monkeypatch.setattr(judges, "diagnose", broken)
    with pytest.raises(RuntimeError):
        judge_agreement(str(WEVAL), points_to=folder)
    assert os.listdir(folder) == ["unrelated.parquet"]


# --- glob matching, as Python's glob reads the sources ----------------------------------------

NAMES = st.sampled_from(["a", "b", "ab", ".h", "a.csv", "b.csv", ".x.csv", "c.parquet"])
PARTS = st.sampled_from(["*", "?", "*.csv", "a*", "[ab]", "[!a]*", "**", ".*", "a", "b.csv",
                         "[a-b].csv", "?.csv"])


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tree=st.lists(st.lists(NAMES, min_size=1, max_size=3), min_size=1, max_size=8),
       pattern=st.lists(PARTS, min_size=1, max_size=3))
def test_output_glob_matching_agrees_with_glob(tmp_path_factory, tree, pattern):
    root = tmp_path_factory.mktemp("tree")
    files = set()
    for parts in tree:
        path = root.joinpath(*parts)
        if any(p.is_file() for p in [root.joinpath(*parts[:k]) for k in range(1, len(parts))]):
            continue
        if path.is_dir():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
        files.add(str(path))
    text = os.path.join(str(root), *pattern)
    regex = outputs._glob_regex(outputs._anchored(text))
    matched = {p for p in glob.glob(text, recursive=True) if os.path.isfile(p)}
    assert {f for f in files if regex.match(os.path.realpath(f))} == \
        {os.path.realpath(p) for p in matched} & {os.path.realpath(f) for f in files}, text


def test_inputs_read_no_file_from_tables_and_names():
    import pyarrow as pa

    assert not Inputs.of(pa.table({"x": [1]}), "a_table_name", None, [{"qid": 1}])


def test_an_output_folder_declares_the_files_the_command_writes(tmp_path):
    """The output check covers every file an output folder receives: dbt-package's declared
    files (read from agreement_sql.dbt, not listed by hand) are exactly the files it writes."""
    (words, option, _), = [case for case in OUTPUT_OPTIONS if case[0] == ("dbt-package",)]
    declared = declared_files(option.agreement_files)
    assert main([*words, str(tmp_path / "pkg")]) == 0
    written = {str(p.relative_to(tmp_path / "pkg")) for p in (tmp_path / "pkg").rglob("*") if p.is_file()}
    assert written and set(declared) == written
