"""Interpretation labels and gates: fixed tables from the literature and the seeds.

These are words for numbers, not statistics: every number they read comes from a template.
A value is compared with a boundary after rounding it to 12 significant digits of
max(|x|, 1) (:func:`settled`), so floating-point noise in the last bits (0.0 computed as
-1.1e-16, 75 computed as 74.99999999999999) cannot flip a label or a gate; any real difference
(74.96 is not 75) still decides (docs/decisions/0007).
"""
from __future__ import annotations

import math


def settled(x: float) -> float:
    """``x`` to 12 significant digits of max(|x|, 1), the precision labels and gates decide on:
    11 decimals for |x| < 10 (so a kappa of 0 computed as -1.1e-16 is 0, not "worse than
    chance"), 12 significant digits above (75 computed as 74.99999999999999 is 75). The sign of
    a settled zero is dropped."""
    if not math.isfinite(x):
        return x
    magnitude = abs(x)
    decimals = 11 - (math.floor(math.log10(magnitude)) if magnitude >= 1.0 else 0)
    return round(x, decimals) + 0.0


def settled_near(x: float, bound: float) -> float:
    """What to compare with ``bound`` in place of ``settled(x)``: ``x`` itself when it lies
    further from the bound than 1e-10 max(1, |x|) (twenty times as far as :func:`settled` can
    move it, so both fall on the same side), else ``settled(x)``. The same decision without
    rounding the value, for a label given to a million values."""
    return x if abs(x - bound) > 1e-10 * max(1.0, abs(x)) else settled(x)


def at_least(x: float | None, bound: float) -> bool:
    """A gate: ``x >= bound`` on the settled value; an undefined value never passes."""
    return x is not None and settled(x) >= bound


def workshop_label(percent: float | None) -> str | None:
    """Seed 001 labels for pairwise agreement %: >=90 Excellent ... <50 Poor."""
    if percent is None:
        return None
    percent = settled(percent)
    for bound, label in ((90, "Excellent"), (75, "Good"), (60, "Moderate"), (50, "Fair")):
        if percent >= bound:
            return f"{label} agreement"
    return "Poor agreement"


def human_agreement_label(a_hh: float | None) -> str | None:
    """Seed 000 labels for GDPval A^HH in [0, 1]."""
    return None if a_hh is None else workshop_label(a_hh * 100.0)


def human_agreement_colour(a_hh: float | None) -> str | None:
    """Seed 000 colours for A^HH: >=0.75 green, >=0.60 yellow, >=0.50 orange, else red."""
    if a_hh is None:
        return None
    a_hh = settled(a_hh)
    for bound, colour in ((0.75, "green"), (0.60, "yellow"), (0.50, "orange")):
        if a_hh >= bound:
            return colour
    return "red"


def pairwise_colour(percent: float | None) -> str | None:
    """Seed 001 colours for pairwise %: >=80 green, >=60 yellow, else red."""
    if percent is None:
        return None
    percent = settled(percent)
    return "green" if percent >= 80 else "yellow" if percent >= 60 else "red"


def disagreement_label(std_dev: float) -> str:
    """Seed results page labels for a trace's population sigma."""
    std_dev = settled(std_dev)
    for bound, label in ((0.5, "Perfect"), (1.0, "Good"), (1.5, "Moderate"), (2.0, "High")):
        if std_dev < bound:
            return label
    return "Very High"


def landis_koch(kappa: float | None) -> str | None:
    """Landis & Koch (1977) benchmarks, as worded in seed 003."""
    if kappa is None:
        return None
    kappa = settled(kappa)
    if kappa < 0:
        return "Poor (worse than chance)"
    for bound, label in ((0.20, "Slight"), (0.40, "Fair"), (0.60, "Moderate"), (0.80, "Substantial")):
        if kappa <= bound:
            return label
    return "Almost Perfect"


def krippendorff_label(alpha: float | None) -> str | None:
    """Krippendorff (2004): alpha >= 0.800 reliable, >= 0.667 tentative, else unreliable."""
    if alpha is None:
        return None
    return ("reliable" if settled_near(alpha, 0.800) >= 0.800
            else "tentative" if settled_near(alpha, 0.667) >= 0.667 else "unreliable")


# --- continuous scores (ICC, CCC) -------------------------------------------------------------

def koo_li(icc: float | None) -> str | None:
    """Koo & Li (2016), J. Chiropractic Medicine 15(2): ICC < 0.5 poor, 0.5-0.75 moderate,
    0.75-0.9 good, > 0.9 excellent (a boundary belongs to the band above it, except 0.9: good)."""
    if icc is None:
        return None
    icc = settled(icc)
    if icc < 0.5:
        return "poor"
    if icc < 0.75:
        return "moderate"
    return "good" if icc <= 0.9 else "excellent"


def mcbride(ccc: float | None) -> str | None:
    """McBride (2005), NIWA report HAM2005-062, for Lin's concordance correlation:
    < 0.90 poor, 0.90-0.95 moderate, 0.95-0.99 substantial, > 0.99 almost perfect."""
    if ccc is None:
        return None
    ccc = settled(ccc)
    if ccc < 0.90:
        return "poor"
    if ccc < 0.95:
        return "moderate"
    return "substantial" if ccc <= 0.99 else "almost perfect"
