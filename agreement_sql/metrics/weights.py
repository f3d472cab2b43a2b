"""A caller's agreement-weight matrix, registered as a relation (never pasted into SQL).

``weights={("low", "mid"): 0.5, ...}``, ``{"low": {"mid": 0.5}}`` or a list of rows in the
order of ``categories=[...]``. Labels are matched like ratings (numbers by value, labels by
their trimmed text).

A matrix is complete (decision 0016): it gives a weight for every (row, column) pair of its
categories, the diagonal included, and names every category the ratings hold (with
``categories=``: every declared category). A partial matrix is refused with an OptionError
naming a missing pair or an unnamed category, so no cell is ever filled in silently (the
templates' fallback, 1 on the diagonal and 0 elsewhere, then never applies to a caller's
matrix: sql/_kappa_inputs.sql.j2, sql/_pair_tables.sql.j2).
"""
from __future__ import annotations

import math
from typing import Any, Mapping

from ..domain import Domain
from ..engine import Session
from ..errors import OptionError
from ..runner import lookup_rows, query


def _label(value: Any) -> str:
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if value is None or (isinstance(value, float) and math.isnan(value)):
        raise OptionError("a category label cannot be None or NaN (a missing rating is not a category)")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _as_float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def register_weight_matrix(session: Session, weights: Any, declared: Domain | None, *,
                           asymmetric: str = "keep", who: str = "", profile: Any = None) -> str:
    """Check the matrix and register it as (label_k, label_l, w).

    ``profile``: the call's ratings profile (agreement_sql.profile.Profile); a matrix given as a
    dict must name the categories of its ratings when none are declared (:func:`_refuse_partial`).

    ``asymmetric``: what an asymmetric matrix (w_kl != w_lk for some cell, omitted cells being
    1 on the diagonal and 0 elsewhere) does: "keep" it (Cohen's kappa: rows are rater A's
    categories, columns rater B's), raise an OptionError naming the cell ("error": ``who``, the
    coefficients whose raters are interchangeable, would use its symmetric part), or
    "symmetrize" it, (W + W^T) / 2."""

    clean = _cells(weights, declared)
    seen = [(k, l) for k, l, _ in clean]
    if isinstance(weights, Mapping):
        _refuse_partial(seen, declared, profile)
    if asymmetric != "keep":
        clean = _symmetric(clean, asymmetric, who)
    keys = [_category(k, declared) for k, _, _ in clean]
    cols = [_category(l, declared) for _, l, _ in clean]
    rows = [(k[0], k[1], c[0], c[1], cell[2]) for k, c, cell in zip(keys, cols, clean)]
    return lookup_rows(session, [("x_k", "double"), ("label_k", "text"), ("x_l", "double"),
                                ("label_l", "text"), ("w", "double")], rows, "weights")


def _cells(weights: Any, declared: Domain | None) -> list[tuple[str, str, float]]:
    """A matrix's cells (row label, column label, number), each a finite number given once and
    naming only declared categories (when ``categories=`` is given)."""
    cells: list[tuple[str, str, Any]] = []
    if isinstance(weights, Mapping):
        for key, value in weights.items():
            if isinstance(value, Mapping):
                cells += [(_label(key), _label(col), value[col]) for col in value]
            elif isinstance(key, tuple) and len(key) == 2:
                cells.append((_label(key[0]), _label(key[1]), value))
            else:
                raise OptionError("a weight matrix given as a dict maps (row, column) pairs, or rows to "
                                  f"{{column: weight}} dicts, to weights; got key {key!r}")
    else:
        rows = weights.tolist() if hasattr(weights, "tolist") else weights
        if declared is None:
            raise OptionError("a weight matrix given as a list of rows needs categories=[...] naming "
                              "its rows and columns in order")
        labels = [_label(v) for v in declared.values]
        if len(rows) != len(labels) or any(len(r) != len(labels) for r in rows):
            raise OptionError(f"the weight matrix must be {len(labels)} x {len(labels)} to match "
                              f"categories={list(declared.values)!r}")
        cells = [(labels[i], labels[j], rows[i][j]) for i in range(len(labels)) for j in range(len(labels))]
    clean = []
    for k, l, w in cells:
        try:
            number = float(w)
        except (TypeError, ValueError):
            raise OptionError(f"weight for ({k!r}, {l!r}) is not a number: {w!r}") from None
        if not math.isfinite(number):
            raise OptionError(f"weight for ({k!r}, {l!r}) must be finite, got {w!r}")
        clean.append((k, l, number))
    if declared is not None:
        known = {_label(v) for v in declared.values}
        numbers = {float(v) for v in declared.values} if declared.numeric else set()
        for k, l, _ in clean:
            for label in (k, l):
                if label not in known and not (declared.numeric and _as_float(label) in numbers):
                    raise OptionError(f"the weight matrix names {label!r}, which is not among "
                                      f"categories={list(declared.values)!r}")
    seen = [(k, l) for k, l, _ in clean]
    if len(set(seen)) != len(seen):
        raise OptionError("the weight matrix gives some (row, column) cell more than once")
    return clean


def _refuse_partial(cells: list[tuple[str, str]], declared: Domain | None, profile: Any) -> None:
    """A dict matrix must be complete: a weight for every (row, column) pair of its categories
    (the declared ones when given), and, without ``categories=``, a row and a column for every
    category of the ratings (sql/ratings_categories.sql.j2, listing at most one more than the
    matrix names). OptionError naming the first missing pair or category."""
    named = list(dict.fromkeys([k for k, _ in cells] + [l for _, l in cells]))
    if declared is not None:
        named = [_label(v) for v in declared.values]
    elif profile is not None:
        spec = profile.spec
        known = {_category(label, None) for label in named}
        rows = query(spec.session, "ratings_categories", spec.options(domain=None),
                     {**spec.params(), "max_categories": len(known)})
        unnamed = [(r["x"], r["label"]) for r in rows
                   if (None if r["x"] is None else float(r["x"]), r["label"]) not in known]
        # no row while there are ratings: the sketch counted far more categories than named
        if unnamed or (not rows and profile.totals["n_ratings"]):
            shown = (repr(unnamed[0][1]) if unnamed and unnamed[0][1] is not None
                     else _number(unnamed[0][0]) if unnamed else None)
            what = (f"the category {shown}" if shown is not None else
                    f"more categories than the {len(known)} the weight matrix names")
            raise OptionError(f"the ratings hold {what}, which the weight matrix does not name; "
                              "give its row and column (a weight for every pair of categories), "
                              "or a list of rows with categories=[...]")
    given = set(cells)
    for k in named:
        for l in named:
            if (k, l) not in given:
                raise OptionError(
                    f"the weight matrix gives no weight for row {k!r}, column {l!r}: a matrix "
                    f"weighs every pair of its categories ({', '.join(map(repr, named))}), the "
                    "diagonal included (agreement weights are 1.0 there); give the missing "
                    "cells, or a list of rows with categories=[...]")


def _number(x: Any) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _symmetric(cells: list[tuple[str, str, float]], asymmetric: str,
               who: str) -> list[tuple[str, str, float]]:
    """The cells of a symmetric matrix: an asymmetric one refused, naming its first asymmetric
    cell, or made symmetric, w_kl = (w_kl + w_lk) / 2 (omitted cells: 1 on the diagonal, else 0)."""
    given = {(k, l): w for k, l, w in cells}

    def weight(k: str, l: str) -> float:
        return given.get((k, l), 1.0 if k == l else 0.0)

    pairs = [(k, l) for k, l, _ in cells] + [(l, k) for k, l, _ in cells if (l, k) not in given]
    odd = [(k, l) for k, l in pairs if weight(k, l) != weight(l, k)]
    if not odd:
        return cells
    if asymmetric == "error":
        k, l = odd[0]
        raise OptionError(
            f"the weight matrix is not symmetric: w[{k!r}][{l!r}] = {weight(k, l)!r} but "
            f"w[{l!r}][{k!r}] = {weight(l, k)!r}; {who or 'these coefficients'} treat the raters "
            "as interchangeable and would use only its symmetric part. Pass "
            "asymmetric_weights='symmetrize' to use (W + W^T) / 2, stated in the result, or use "
            "cohen_kappa, where rows are rater A's categories and columns rater B's")
    return [(k, l, (weight(k, l) + weight(l, k)) / 2.0) for k, l in dict.fromkeys(pairs)]


def _category(label: str, declared: Domain | None) -> tuple[float | None, str | None]:
    """A matrix label as the category a rating would be: (x, None) for a number or a declared
    value (its value, or a declared label's rank), (None, label) for any other label."""
    from ..domain import _as_number

    if declared is not None:
        for rank, v in enumerate(declared.values, start=1):
            if _label(v) == label or (declared.numeric and _as_float(label) == float(v)):
                return (float(v) if declared.numeric else float(rank)), None
    number = _as_number(label)
    if isinstance(number, (int, float)):
        return float(number), None
    return None, label


# a weight matrix's words, as a distance matrix's error messages say them
_DISTANCE_WORDS = (("{column: weight}", "{column: distance}"), ("to weights;", "to distances;"),
                   ("(agreement weights are 1.0 there)", "(distances are 0 there)"),
                   ("a matrix weighs every pair", "a matrix gives a distance for every pair"),
                   ("a weight for every pair", "a distance for every pair"),
                   ("gives no weight for", "gives no distance for"),
                   ("weight for (", "distance for ("), ("weight matrix", "distance matrix"))


def register_distance_matrix(session: Session, distance: Any, declared: Domain | None, *,
                             profile: Any = None) -> str:
    """Check a caller's distance matrix for Krippendorff's alpha and register it as (label_k,
    label_l, w), w the distance d(k, l) (docs/decisions/0028), with the weight matrix's
    machinery: the same forms, label matching and completeness (every pair of the categories
    the ratings hold, the diagonal included: an OptionError naming the first missing pair).
    A distance is also finite and non-negative, zero on the diagonal, and symmetric (alpha's
    coincidences are: o_ck = o_kc); anything else is refused naming the cell, never repaired."""
    try:
        cells = _cells(distance, declared)
    except OptionError as exc:
        raise OptionError(_distance_words(str(exc))) from None
    given = {(k, l): d for k, l, d in cells}
    for (k, l), d in given.items():
        if d < 0.0:
            raise OptionError(f"the distance matrix gives d({k!r}, {l!r}) = {d!r}: a distance is "
                              "never negative")
        if k == l and d != 0.0:
            raise OptionError(f"the distance matrix gives d({k!r}, {k!r}) = {d!r}: a label's "
                              "distance to itself is 0")
        if (l, k) in given and given[(l, k)] != d:
            raise OptionError(f"the distance matrix is not symmetric: d({k!r}, {l!r}) = {d!r} but "
                              f"d({l!r}, {k!r}) = {given[(l, k)]!r}; alpha pairs values without "
                              "order (its coincidences are symmetric), so give one distance per "
                              "pair, e.g. their mean")
    try:
        return register_weight_matrix(session, distance, declared, asymmetric="keep",
                                      profile=profile)
    except OptionError as exc:
        raise OptionError(_distance_words(str(exc))) from None


def _distance_words(message: str) -> str:
    for weight, distance in _DISTANCE_WORDS:
        message = message.replace(weight, distance)
    return message
