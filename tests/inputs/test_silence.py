"""The Python API writes nothing to stdout or stderr (README "What agreement-sql promises"):
every public function, called on small data, prints nothing and logs nothing, under pytest's
capture of the file descriptors and in a plain interpreter with Python's default warning
filters (where an AgreementWarning would otherwise be shown). A warning the package issues is
an AgreementWarning, silent unless asked for, and listed in the result's ``warnings``."""
from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import agreement_sql as ag

from ._public_calls import JUDGES, calls, public_functions, run_all

ROOT = Path(__file__).resolve().parents[2]


def test_every_public_function_is_called(tmp_path):
    assert set(calls(tmp_path)) == public_functions()


@pytest.mark.slow
def test_the_api_prints_nothing(tmp_path, capfd):
    results = run_all(tmp_path)
    assert capfd.readouterr() == ("", "")
    assert results["judge_agreement"]["warnings"]         # it did warn: in the result


@pytest.mark.slow              # a fresh interpreter making every call: 4 s (the capfd test above runs by default)
def test_the_api_prints_nothing_in_a_plain_interpreter(tmp_path):
    out = subprocess.run([sys.executable, "-m", "tests.inputs._public_calls", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert (out.returncode, out.stdout, out.stderr) == (0, "", "")


def test_a_caller_who_asks_sees_the_warnings(tmp_path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default", ag.AgreementWarning)
        result = calls(tmp_path)["judge_agreement"]()
    assert [str(w.message) for w in caught if w.category is ag.AgreementWarning] == result["warnings"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ag.AgreementWarning)
        with pytest.raises(ag.AgreementWarning, match="Low judge agreement"):
            ag.judge_agreement(JUDGES, item="point", rater="judge", value="score")
