"""Category-wise agreement: per category, Fleiss' kappa of that category against the rest, its
test, and the specific agreement on it, from one statement (sql/category_agreement.sql.j2).

Every number comes from the statement (docs/decisions/0026); Python groups its rows (one per
metric, slice and category) into one result per metric and slice, and names each category
(its label, its number, or its declared value).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .. import routes
from ..domain import Domain, register_domain
from ..errors import OptionError
from ..markers import marker_conventions
from ..profile import Profile, read_profile
from ..public import public
from ..results import CategoryAgreement, CategoryAgreementResult
from ..session import ratings_session
from ..sources import check_layout
from ._common import counted, every_key
from .coefficient import LAYOUT_ROWS, _category_kinds

CONVENTIONS = {
    "kappa": "kappa of category k against the rest (Fleiss 1971's kappa_j; R irr kappam.fleiss("
             "detail=TRUE)): Fleiss' kappa of the ratings recoded 'k' / 'not k', 1 - D_k / (pi_k "
             "(1 - pi_k)) with D_k the mean over units rated twice or more of r_ik (r_i - r_ik) / "
             "(r_i (r_i - 1)) and pi_k the mean over rated units of r_ik / r_i; with units rated "
             "by different numbers of raters the generalisation fleiss_kappa uses (Gwet 2014, "
             "ch. 5), Fleiss' kappa_j when every unit has the same number; None when no unit is "
             "rated twice or k is never or always given",
    "test": "H0: kappa_k = 0, se0 = sqrt(2 / (N m (m - 1))) (Fleiss, Nee & Landis 1979; irr's "
            "SEkappaK), defined only when every unit has the same m >= 2 ratings (else se0, z "
            "and the p-values are None); z = kappa / se0, normal p-values (p_one_sided = 1 - "
            "Phi(z), p_value = 2 (1 - Phi(|z|)))",
    "specific_agreement": "sum_i r_ik (r_ik - 1) / sum_i r_ik (r_i - 1): of the rater pairs on "
                          "a unit with a rating k, the share in which both said k (Uebersax "
                          "1982; for two raters and binary labels the positive agreement 2a / "
                          "(2a + b + c) and the negative agreement 2d / (2d + b + c), Cicchetti "
                          "& Feinstein 1990); None when no unit with a rating k is rated twice",
    "share": "share = the category's ratings / the ratings that enter (of the metric and "
             "slice); units rated once count in share and pi_k, not in the agreement",
}

INCOMPLETE = ("drop (R irr's kappam.fleiss, na.omit): only the units every rater of the metric "
              "(and slice) rated enter; the other units' ratings are counted in "
              "n_excluded['incomplete_unit']")

# the statement's per-category columns a category record copies, by their result names
CATEGORY_COLUMNS = (("n_ratings", "category_ratings"), ("n_units", "category_units"),
                    ("share", "share"), ("kappa", "value"),
                    ("observed_agreement", "observed_agreement"),
                    ("chance_agreement", "chance_agreement"), ("se0", "se0"), ("z", "z"),
                    ("p_one_sided", "p_one_sided"), ("p_value", "p_value"),
                    ("specific_agreement", "specific_agreement"),
                    ("agreeing_pairs", "agreeing_pairs"), ("possible_pairs", "possible_pairs"))
INTEGERS = ("n_ratings", "n_units", "agreeing_pairs", "possible_pairs")


def _rows(source: Any, *, item: Any, rater: Any, value: Any, metric: Any, group_by: Any,
          on_duplicate: Any, missing: Any, categories: Any, con: Any, layout: Any,
          listwise: bool) -> tuple[list[dict[str, Any]], Profile, Domain | None, Any]:
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate, missing=missing,
                         layout=layout) as spec:
        declared = register_domain(spec.session, categories)
        profile = read_profile(spec, domain=declared)
        profile.check(what="category agreement")
        route = routes.decide(profile, "category_agreement")
        options = {**spec.options(domain=declared), **route.options("category_agreement"),
                   "weights": None, "weight_basis": "value", "weight_matrix": None,
                   "category_kinds": _category_kinds(profile, declared), "listwise": listwise}
        rows = route.query(spec, "category_agreement", options,
                           {**spec.params(), **route.params()})
        return rows, profile, declared, spec


def _category(row: Mapping[str, Any], domain: Domain | None) -> Any:
    """The category a row is about: its declared value, else its label or number."""
    if domain is not None:
        return domain.values[int(row["position"])]
    return row["label"] if row["label"] is not None else row["x"]


def _record(row: Mapping[str, Any], domain: Domain | None) -> CategoryAgreement:
    record: dict[str, Any] = {"category": _category(row, domain)}
    for name, column in CATEGORY_COLUMNS:
        record[name] = int(row[column] or 0) if name in INTEGERS else row[column]
    return record  # type: ignore[return-value]


@public()
def category_agreement(source: Any, *, item: str = "item", rater: str = "rater",
                       value: str = "value", metric: str | None = None, group_by: Any = None,
                       on_duplicate: str | None = None, missing: Any = None,
                       categories: Any = None, domain: Any = None,
                       incomplete_units: str = "keep", con: Any = None,
                       layout: str | None = None, rater_columns: Sequence[str] | None = None,
                       orientation: str | None = None) -> Any:
    """Agreement on each category: Fleiss' kappa of the category against the rest (Fleiss
    1971; R irr ``kappam.fleiss(detail=TRUE)``), its z test under H0 of no agreement (Fleiss,
    Nee & Landis 1979), and its specific agreement (positive and negative agreement for binary
    labels; Uebersax 1982, Cicchetti & Feinstein 1990), with the category's ratings, units and
    share; one statement over the counts per (unit, category).

    ``categories`` (or ``domain``) declares the categories and their order: a declared category
    nobody used is listed, its kappa None. Units rated by different numbers of raters take
    the generalisation Fleiss' kappa uses (docs/decisions/0026); the test needs every unit
    rated by the same number of raters (else its fields are None). One result without
    ``metric``/``group_by``, a list otherwise; ``result["categories"]`` lists the categories
    in order (numbers increasing, then labels; or the declared order).

    ``incomplete_units="drop"``: R irr's convention (``kappam.fleiss`` omits every subject with
    a missing rating): only the units every rater of the metric (and slice) rated enter, the
    other units' ratings counted in ``n_excluded["incomplete_unit"]``.
    """
    if domain is not None and categories is not None:
        raise OptionError("give the declared values once: domain= or categories=, not both")
    rows, profile, declared, spec = _rows(
        source, item=item, rater=rater, value=value, metric=metric, group_by=group_by,
        on_duplicate=on_duplicate, missing=missing,
        categories=domain if domain is not None else categories, con=con,
        layout=check_layout(layout, rater_columns, orientation),
        listwise=incomplete_units == "drop")
    grouped: dict[tuple[Any, ...], tuple[dict[str, Any], list[CategoryAgreement]]] = {}
    for row in rows:
        key = profile.key_of(row)
        _, records = grouped.setdefault(key, (row, []))
        if row["position"] is not None:
            records.append(_record(row, declared))

    def shaped(row: Mapping[str, Any], records: list[CategoryAgreement]) -> CategoryAgreementResult:
        result: dict[str, Any] = {"metric": row["metric"]}
        if spec.group_by:
            result["group"] = spec.describe_slice(dict(row))
        result.update(n_units=int(row.get("n_rated") or 0), n_items=int(row.get("n_items") or 0),
                      n_raters=int(row.get("key_raters") or 0), n_categories=len(records),
                      categories=records)
        if declared is not None:
            result["domain"] = declared.describe()
        accounting = counted(profile, row, used=int(row.get("n_kept_ratings") or 0),
                             single_rated=False)
        if incomplete_units == "drop":
            accounting["n_excluded"]["incomplete_unit"] = \
                int(row.get("n_ratings") or 0) - accounting["n_ratings"]
        result.update(accounting)
        stated = dict(CONVENTIONS)
        if incomplete_units == "drop":
            stated["incomplete_units"] = INCOMPLETE
        if spec.layout != "long":
            stated["layout"] = LAYOUT_ROWS[spec.layout]
        stated.update(marker_conventions(profile, row))
        result["conventions"] = stated
        return result  # type: ignore[return-value]

    found = {key: shaped(row, records) for key, (row, records) in grouped.items()}
    out = list(every_key(profile, found, lambda key: shaped(key, [])).values())
    return out if spec.several else out[0]
