"""The seed workflows (issue 4): each reads the files its users already have and answers in the
shape they already consume; every number comes from a template in ``sql/``.

* :func:`judge_agreement` - LLM-judge agreement, Weval's ``JudgeAgreementMetrics`` (seed 004)
* :func:`consistency` - scholar vs auditor consistency with CI gates and arbitration (seed 002)
* :func:`evaluation_sheet` - the Cohen's kappa evaluation sheet (seed 003)
* :func:`calibration_sample` - the seeded calibration sample of seed 003
* :func:`rater_diagnostics` - who agrees with whom, bias, the items to discuss (every workflow)
"""
from __future__ import annotations

from .consistency import consistency
from .diagnostics import rater_diagnostics
from .judges import judge_agreement, judge_set_fingerprint
from .sample import calibration_sample
from .sheet import evaluation_sheet

__all__ = ["calibration_sample", "consistency", "evaluation_sheet", "judge_agreement",
           "judge_set_fingerprint", "rater_diagnostics"]
