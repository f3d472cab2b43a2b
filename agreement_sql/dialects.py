"""SQL dialects: the one named switch behind which every engine difference lives.

Templates keep to the SQL that DuckDB and Spark SQL share; what differs is written through
this object only: identifier quoting, type names, how a bound parameter is written, the CTE
materialisation hint DuckDB accepts and Spark does not (empty there), the expression that
numbers rows in input order (a window without ORDER BY in DuckDB, which Spark refuses:
monotonically_increasing_id() there), the temporary-table DDL an engine runs, and the sum of
floating-point terms used where a parallel sum's order would change the last bits of a result
(on DuckDB a session macro that sums each term's part on a fine binary grid exactly, as an
integer, so the order in which threads deliver the terms cannot change a bit; decision 0008),
and the forms a warehouse writes differently: a text's number (TRY_CAST on DuckDB, Spark and
Snowflake, SAFE_CAST on BigQuery, a ``pg_temp`` function on PostgreSQL), trimming spaces, and
the aggregate OR and bit count of the rater bits (sql/_rater_codes.sql.j2).

A *form* is SQL with ``{}`` where the template's expression goes (``TRY_CAST({} AS DOUBLE)``);
the template writes it as ``{{ sql.to_number(expr) }}``, and only SQL the template wrote (a
macro's output, a quoted identifier, a bound parameter, a package keyword) can fill it.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace
from typing import Mapping, Sequence

from .errors import OptionError

# Each dialect's own rule for a quoted identifier (docs/decisions/0016), from its documentation:
#   DuckDB      "...", an embedded " doubled; any character but NUL ("Keywords and Identifiers")
#   Spark SQL   `...`, an embedded ` doubled; any character ("Identifiers": delimited identifier)
#   PostgreSQL  "...", an embedded " doubled; no NUL; at most NAMEDATALEN - 1 = 63 bytes, a longer
#               name is silently truncated (so two names could meet): refused ("Lexical Structure")
#   BigQuery    `...`, with the escape sequences of GoogleSQL string literals: an embedded ` is \`,
#               a backslash \\; a quoted identifier cannot hold a line break, and a column name
#               no control character: control characters refused ("Lexical structure and syntax")
#   Snowflake   "...", an embedded " doubled; at most 255 characters ("Identifier requirements")
DOUBLED, BACKSLASH = "doubled", "backslash"


@dataclass(frozen=True)
class Dialect:
    name: str
    quote: str          # identifier quote character (its escape: `escape`)
    text: str           # the string type's name
    double: str         # the double type's name
    param_prefix: str   # how a named bound parameter is written
    inline: str         # CTE hint: compute where used (a cheap projection read by several CTEs)
    materialize: str    # CTE hint: compute once (an aggregate read by several CTEs)
    input_order: str    # a number increasing in input order (on_duplicate="first"/"last")
    temp_table: str     # the words before a temporary table's name
    fsum: str           # a sum of DOUBLEs whose result does not depend on the order of the terms
    isnan: str          # a function: is this DOUBLE NaN (a missing rating)
    to_number: str      # form: a text's DOUBLE (decimal or scientific, nan, inf), else NULL
    trim: str           # form: a text with its leading and trailing spaces (' ' only) removed
    bit_or: str         # the aggregate: bitwise OR of BIGINTs
    bit_count: str      # form: the number of bits set in a BIGINT (bits 0..61 used, never negative)
    # statements a session runs first (fixed text, no caller input): each creates one macro or
    # function, and a rendering's header carries those its statement calls
    setup: tuple[str, ...] = ()
    # a data row's 1-based number in input order (a sheet's "data row 7"); Spark refuses a
    # ranking window without ORDER BY
    row_number: str = "ROW_NUMBER() OVER ()"
    # how an embedded quote character is written: doubled (the SQL standard), or with a
    # backslash, which then escapes itself (GoogleSQL)
    escape: str = DOUBLED
    # the longest identifier the dialect keeps as it is: (limit, "bytes" of UTF-8 or
    # "characters"); None for no limit
    max_length: tuple[int, str] | None = None
    # control characters (U+0000-U+001F, U+007F) the dialect cannot hold in an identifier
    refuses_controls: bool = False
    # form: a boolean expression that stops the statement with the message {} (a text
    # expression the template wrote), for the input checks a rendering carries (option checks)
    error: str = "error({})"
    # form: the remainder of {0} divided by {1} (whole numbers); BigQuery has no % operator
    mod: str = "{0} % {1}"
    # the same as pieces around a chain of remainders: OPEN a SEP b CLOSE is a mod b, written
    # ((x * c) % m * d) % m on DuckDB and MOD((MOD((x * c), m) * d), m) on BigQuery
    mod_open: str = "("
    mod_sep: str = ") % "
    mod_close: str = ""
    # form: the text {} holds no underscore (a number written with digit separators is a label)
    no_underscore: str = "POSITION('_' IN {}) = 0"
    # form: the number of bytes of the text {} (a boolean's spelling is four or five bytes:
    # only the texts of that length are lower-cased; counting bytes, unlike characters, reads
    # the text's stored length; DuckDB has no OCTET_LENGTH for text)
    byte_length: str = "OCTET_LENGTH({})"
    # how a rendering printed for a person (agreement-sql render) writes parameter {}, and the
    # statement its header runs first to set it ({name}, {value}: a literal): set by hand, no
    # PREPARE/EXECUTE. "" keeps param_prefix (the warehouse's own parameters). Spark SQL: the
    # parser's variable substitution (SET agreement_sql.name=literal; ${agreement_sql.name}),
    # which, unlike a session variable, may stand where Spark wants a literal (a window's frame
    # bound, sql/_pairwise_sums.sql.j2).
    script_param: str = ""
    script_set: str = ""
    # set on the variant a printed rendering uses (script_dialect): script_param, in place of
    # param_prefix
    param_form: str = ""

    def param(self, name: str) -> str:
        """A bound parameter's marker (``$name`` on DuckDB, ``:name`` on Spark; in a printed
        rendering ``getvariable('name')``, ``${agreement_sql.name}``)."""
        return self.param_form.replace("{}", name) if self.param_form else self.param_prefix + name

    @property
    def scripted(self) -> bool:
        """This is the variant for a printed rendering whose header sets the parameters."""
        return bool(self.param_form)

    def script_header(self, params: Sequence[str], values: Mapping[str, object]) -> list[str]:
        """The lines a printed rendering starts with that set its parameters to ``values``
        (script_set), so it runs as printed: DuckDB ``SET VARIABLE``, Spark ``DECLARE OR
        agreement_sql.name=``, psql ``\\set`` (a text unquoted by psql, read as ``:'name'``)."""
        out = []
        for p in params:
            if p not in values:
                raise OptionError(f"no value for parameter {p!r} of the rendering")
            value = values[p]
            if self.name == "postgres":
                shown = self.psql_value(value)
            else:
                shown = self.literal(value)
            out.append(self.script_set.format(name=p, value=shown))
        return out

    @staticmethod
    def psql_value(value: object) -> str:
        """``value`` as psql's ``\\set`` reads it: a number as written, a text in single quotes
        (psql takes a doubled quote and a doubled backslash as one), so ``:'name'`` gives back
        the exact text as a literal."""
        if isinstance(value, bool) or value is None:
            raise OptionError(f"psql variables hold text or numbers, not {value!r}")
        if isinstance(value, (int, float)):
            return repr(value) if isinstance(value, float) else str(value)
        text = str(value)
        if any(ord(ch) < 0x20 for ch in text):
            raise OptionError(f"a psql variable cannot hold a control character: {text[:60]!r}")
        return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"

    def literal(self, value: object) -> str:
        """``value`` (a parameter's value the package chose or the caller passed) as a SQL
        literal of this dialect, for a rendering's header: text quoted (a quote doubled, a
        backslash doubled where the dialect escapes with it), numbers as numbers."""
        if value is None:
            return "NULL"
        if isinstance(value, bool):
            return "TRUE" if value else "FALSE"
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):
            text = repr(value)
            # Spark reads 1.5 as a DECIMAL: 1.5D is the DOUBLE literal (a literal, so it may
            # stand where Spark wants one, a window's frame bound)
            return text + "D" if self.name == "spark" else text
        text = str(value)
        if "\x00" in text:
            raise OptionError("a parameter value cannot contain a NUL character")
        if self.escape == BACKSLASH or self.name == "spark":
            # GoogleSQL and Spark SQL: a quote or backslash is escaped with a backslash ('' is
            # two adjacent literals in GoogleSQL and in Spark before 4.0); a GoogleSQL quoted
            # literal holds no line break, and both read \n as one
            text = text.replace("\\", "\\\\").replace("'", "\\'")
            return "'" + text.replace("\n", "\\n").replace("\r", "\\r") + "'"
        if self.name == "snowflake":
            # Snowflake reads a backslash in a quoted literal as an escape
            text = text.replace("\\", "\\\\")
        return "'" + text.replace("'", "''") + "'"
    # form: a text compared by its bytes whatever collation its column or the session declares
    # (DuckDB keeps a column's COLLATE NOCASE through CAST; Spark's CAST to STRING drops it)
    exact_text: str = "{}"
    # form: a binary floating-point id as Python and DuckDB write it (docs/decisions/0014):
    # a whole number below 1e16 with ".0" (7.0), else the engine's shortest text (Java's
    # scientific form from 1e7 on Spark, where CAST writes 1.0E7)
    float_text: str = ("CASE WHEN {} = FLOOR({}) AND ABS({}) < 1e16 AND {} <> 0 "
                       "THEN CONCAT(CAST(CAST({} AS BIGINT) AS STRING), '.0') "
                       "ELSE CAST({} AS STRING) END")
    # set-valued labels (docs/decisions/0028): a label holding a set is a text of elements
    # joined by a separator ({1}, a bound parameter). set_canonical: the text {0} as its set's
    # one spelling (elements trimmed of ' ', empty ones dropped, de-duplicated, sorted by their
    # bytes, joined by the separator; '' for a set with no element); set_size: the elements of
    # a canonical set text {0}; set_common: the elements two canonical set texts {0} and {1}
    # share (separator {2}). "" where a dialect has no list functions (the warehouses).
    # Spark splits on a regular expression: the separator is quoted, \Q...\E.
    set_canonical: str = ("array_join(array_sort(array_distinct(filter(transform("
                          "split({0}, CONCAT('\\\\Q', {1}, '\\\\E')), e -> TRIM(BOTH ' ' FROM e)), "
                          "e -> e <> ''))), {1})")
    set_size: str = "size(split({0}, CONCAT('\\\\Q', {1}, '\\\\E')))"
    set_common: str = ("size(array_intersect(split({0}, CONCAT('\\\\Q', {2}, '\\\\E')), "
                       "split({1}, CONCAT('\\\\Q', {2}, '\\\\E'))))")

    # form: the kind of {}'s type as text (integer, float, decimal, boolean, text, other: the
    # kinds agreement_sql/engine reads a column's type as), for a statement rendered before its
    # source's types are known (a DuckDB table macro, agreement_sql/macros.py): the value kind
    # "typed" of sql/_ratings.sql.j2. The engine must fold it to a constant when it plans, so
    # that only one kind's reading runs. "" where the dialect has none.
    kind_of: str = ""

    def quote_identifier(self, name: str) -> str:
        """``name`` as one quoted identifier by this dialect's rule; an OptionError for a name
        the dialect cannot quote exactly (NUL anywhere, control characters in BigQuery, a name
        PostgreSQL would truncate or Snowflake refuse)."""
        if "\x00" in name:
            raise OptionError(f"an identifier cannot contain a NUL character: {name!r}")
        if not name.isascii():
            try:
                name.encode("utf-8")
            except UnicodeEncodeError:
                raise OptionError(f"an identifier must be valid Unicode text, got {name!r}") from None
        if self.refuses_controls:
            bad = next((ch for ch in name if ord(ch) < 0x20 or ord(ch) == 0x7F), None)
            if bad is not None:
                raise OptionError(f"{self.name} cannot quote an identifier holding the control "
                                  f"character U+{ord(bad):04X}: {name[:60]!r}")
        if self.max_length is not None:
            limit, unit = self.max_length
            size = len(name.encode("utf-8")) if unit == "bytes" else len(name)
            if size > limit:
                raise OptionError(f"{self.name} keeps identifiers of at most {limit} {unit}; "
                                  f"{name[:60]!r} has {size} (it would be "
                                  f"{'truncated' if unit == 'bytes' else 'refused'})")
        if self.escape == BACKSLASH:
            body = name.replace("\\", "\\\\").replace(self.quote, "\\" + self.quote)
        else:
            body = name.replace(self.quote, self.quote * 2)
        return self.quote + body + self.quote

    # DDL for the engine's temporary objects; names are generated by the engine, never a caller's
    def create_temp_table(self, name: str) -> str:
        return self.temp_table + " " + self.quote_identifier(name) + " AS\n"

    def drop_temp_table(self, name: str) -> str:
        return "DROP TABLE IF EXISTS " + self.quote_identifier(name)


# agreement_fsum(t): the sum of DOUBLE terms, the same whatever order the threads deliver them.
# Each term is split into hi, its value on the grid of multiples of 2^-30 (an integer count of
# 2^-30, summed exactly as HUGEINT), and lo = t - hi (exact, |lo| <= 2^-31, summed with FSUM).
# Integer and dyadic terms have lo = 0 and a bit-exact sum; otherwise the lo sum's rounding
# error lies some twenty orders below the total's last bit. DuckDB's FSUM alone is Kahan's sum
# in delivery order and changes the last bit between runs. Terms of 1e18 or more go to lo whole.
EXACT_SUM_MACRO = (
    "CREATE OR REPLACE TEMP MACRO agreement_fsum(t) AS "
    "CAST(SUM(CASE WHEN ABS(t) < 1e18 THEN CAST(ROUND(t * 1073741824.0) AS HUGEINT) "
    "WHEN t IS NOT NULL THEN 0 END) AS DOUBLE) / 1073741824.0 "
    "+ FSUM(CASE WHEN ABS(t) < 1e18 THEN t - ROUND(t * 1073741824.0) / 1073741824.0 ELSE t END)")

# agreement_isnan(x): DuckDB 2.0 folds ISNAN(x) to false from a Parquet column's min/max
# statistics, which leave NaN out, so a NaN in a Parquet file was read as a number while the same
# NaN from Arrow was missing. ISFINITE is not folded: NaN is neither finite nor infinite.
ISNAN_MACRO = "CREATE OR REPLACE TEMP MACRO agreement_isnan(x) AS (NOT ISFINITE(x) AND NOT ISINF(x))"

# pg_temp.agreement_to_number(t): PostgreSQL has no TRY_CAST, and its CAST of text to DOUBLE
# PRECISION raises on a label. The function reads a text as DuckDB's TRY_CAST(t AS DOUBLE) does
# (checked against it by tests/engines/test_warehouse_sql.py): surrounding whitespace, one
# leading '+' (also before '-'), an underscore between two digits, decimal and scientific
# forms, nan[(...)] and inf[inity] in any case; anything else (hex, '1,5', '', a label) is NULL;
# beyond the double range +-Infinity, below its smallest subnormal +-0, where PostgreSQL's own
# cast would raise. Plain decimals take the first line. PL/pgSQL without an EXCEPTION block (no
# subtransaction a row); the regular expressions assume standard_conforming_strings (the default).
_WS = r"[ \t\n\r\v\f]"
_SIGNED = "CAST(CASE WHEN u ~ '^-' THEN '-{0}' ELSE '{0}' END AS DOUBLE PRECISION)"
PG_TO_NUMBER_FUNCTION = (
    "CREATE OR REPLACE FUNCTION pg_temp.agreement_to_number(t TEXT) RETURNS DOUBLE PRECISION\n"
    "LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $agreement$\n"
    "DECLARE\n"
    "  u TEXT;\n"
    "  e NUMERIC;\n"
    "  n NUMERIC;\n"
    "BEGIN\n"
    "  IF t ~ '^-?[0-9]+([.][0-9]*)?$' AND LENGTH(t) <= 300 THEN RETURN CAST(t AS DOUBLE PRECISION); END IF;\n"
    f"  u := regexp_replace(regexp_replace(t, '([0-9])_(?=[0-9])', '\\1', 'g'), '^{_WS}*[+]?', '');\n"
    f"  IF u ~* '^-?nan([(][0-9a-z_]*[)])?{_WS}*$' THEN RETURN CAST('NaN' AS DOUBLE PRECISION); END IF;\n"
    f"  IF u ~* '^-?inf(inity)?{_WS}*$' THEN RETURN CAST(u AS DOUBLE PRECISION); END IF;\n"
    f"  IF u !~ '^-?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?{_WS}*$' THEN RETURN NULL; END IF;\n"
    "  IF u !~ '[eE]' AND LENGTH(u) <= 300 THEN RETURN CAST(u AS DOUBLE PRECISION); END IF;\n"
    "  -- an exponent or a long text: its decimal order first, so that no cast leaves the range\n"
    f"  IF substring(u FROM '[0-9.]+') !~ '[1-9]' THEN RETURN {_SIGNED.format('0')}; END IF;\n"
    "  e := FLOOR(LOG(CAST(substring(u FROM '[0-9.]+') AS NUMERIC)))\n"
    "       + COALESCE(CAST(substring(u FROM '[eE]([+-]?[0-9]+)') AS NUMERIC), 0);\n"
    f"  IF e < -324 THEN RETURN {_SIGNED.format('0')}; END IF;\n"
    f"  IF e > 308 THEN RETURN {_SIGNED.format('Infinity')}; END IF;\n"
    "  n := ABS(CAST(u AS NUMERIC));\n"
    "  IF n >= POWER(CAST(2 AS NUMERIC), 1024) - POWER(CAST(2 AS NUMERIC), 970) THEN\n"
    f"    RETURN {_SIGNED.format('Infinity')};\n"
    "  END IF;\n"
    "  IF n <= 2.4703282292062327208828439643411068618252990130716e-324 THEN\n"
    f"    RETURN {_SIGNED.format('0')};\n"
    "  END IF;\n"
    "  RETURN CAST(u AS DOUBLE PRECISION);\n"
    "END\n"
    "$agreement$")

# pg_temp.agreement_error(message): PostgreSQL has no error expression; the checks a rendering
# carries (option checks) stop the statement through this function (VOLATILE: never folded at
# plan time; a CASE calls it only for an offending row). It returns BOOLEAN, like every
# dialect's error form, which templates use as a condition.
PG_ERROR_FUNCTION = (
    "CREATE OR REPLACE FUNCTION pg_temp.agreement_error(message TEXT) RETURNS BOOLEAN\n"
    "LANGUAGE plpgsql VOLATILE AS $agreement$\n"
    "BEGIN\n"
    "  RAISE EXCEPTION USING MESSAGE = message;\n"
    "END\n"
    "$agreement$")

# agreement_error(message) on Snowflake, which has no error expression either: a temporary
# JavaScript function that throws the message (Snowflake's "JavaScript UDFs": an exception
# thrown by the handler stops the query with its text)
SNOWFLAKE_ERROR_FUNCTION = (
    "CREATE OR REPLACE TEMPORARY FUNCTION agreement_error(MESSAGE VARCHAR) RETURNS BOOLEAN "
    "LANGUAGE JAVASCRIPT AS 'throw MESSAGE;'")

# the bits set in x (0 <= x < 2^62) where there is no BIT_COUNT (Snowflake): the bit pairs,
# nibbles and bytes summed in place (masks 0x55.., 0x33.., 0x0F..), and the byte sum, at most
# 64, read as the number mod 255 (256 = 1 mod 255)
_PAIRS = "({} - BITAND(BITSHIFTRIGHT({}, 1), 6148914691236517205))"
_NIBBLES = (f"(BITAND({_PAIRS}, 3689348814741910323) "
            f"+ BITAND(BITSHIFTRIGHT({_PAIRS}, 2), 3689348814741910323))")
SWAR_BIT_COUNT = f"MOD(BITAND({_NIBBLES} + BITSHIFTRIGHT({_NIBBLES}, 4), 1085102592571150095), 255)"

# the kind of a DuckDB value's type (Dialect.kind_of): typeof() is a constant the planner folds,
# so the CASE over kinds keeps one branch (agreement_sql/engine/duckdb.py column_kind and
# numeric_kind give the same kinds to a registered column)
_DUCKDB_INTEGERS = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
                    "UINTEGER", "UBIGINT", "UHUGEINT")
DUCKDB_KIND_OF = ("CASE WHEN typeof({0}) IN (" + ", ".join(f"'{t}'" for t in _DUCKDB_INTEGERS)
                  + ") OR typeof({0}) LIKE 'DECIMAL(%,0)' THEN 'integer' "
                  "WHEN typeof({0}) IN ('FLOAT', 'DOUBLE') THEN 'float' "
                  "WHEN typeof({0}) LIKE 'DECIMAL(%' THEN 'decimal' "
                  "WHEN typeof({0}) = 'BOOLEAN' THEN 'boolean' "
                  "WHEN typeof({0}) = 'VARCHAR' THEN 'text' ELSE 'other' END")

DUCKDB = Dialect(name="duckdb", quote='"', text="VARCHAR", double="DOUBLE", param_prefix="$",
                 inline="NOT MATERIALIZED", materialize="MATERIALIZED",
                 input_order="ROW_NUMBER() OVER ()", temp_table="CREATE TEMP TABLE",
                 fsum="agreement_fsum", isnan="agreement_isnan",
                 to_number="TRY_CAST({} AS DOUBLE)", trim="TRIM(BOTH ' ' FROM {})",
                 bit_or="BIT_OR", bit_count="BIT_COUNT({})",
                 setup=(EXACT_SUM_MACRO, ISNAN_MACRO), byte_length="STRLEN({})",
                 script_param="getvariable('{}')", script_set="SET VARIABLE {name} = {value};",
                 exact_text='({} COLLATE "binary")', float_text="CAST({} AS VARCHAR)",
                 set_canonical=("array_to_string(list_sort(list_distinct(list_filter(list_transform("
                                "string_split({0}, {1}), lambda e: TRIM(BOTH ' ' FROM e)), "
                                "lambda e: e <> ''))), {1})"),
                 set_size="len(string_split({0}, {1}))",
                 set_common="len(list_intersect(string_split({0}, {2}), string_split({1}, {2})))",
                 kind_of=DUCKDB_KIND_OF)

SPARK = Dialect(name="spark", quote="`", text="STRING", double="DOUBLE", param_prefix=":",
                inline="/* inline */", materialize="", input_order="monotonically_increasing_id()",
                temp_table="CACHE TABLE", fsum="SUM", isnan="isnan",
                to_number="TRY_CAST({} AS DOUBLE)", trim="TRIM(BOTH ' ' FROM {})",
                bit_or="BIT_OR", bit_count="BIT_COUNT({})",
                row_number="ROW_NUMBER() OVER (ORDER BY monotonically_increasing_id())",
                error="CAST(raise_error({}) AS BOOLEAN)", script_param="${agreement_sql.{}}",
                script_set="SET agreement_sql.{name}={value};")

# Warehouse renderings (`agreement-sql render --dialect ...`; no engine runs them from Python).
# Parameters: PostgreSQL through psql variables (\set name value, read as :name), BigQuery's
# named query parameters (@name), Snowflake's session variables (SET name = value; $name).
# PostgreSQL and Snowflake have no ISNAN: NaN equals NaN there, so the test is written
# `'NaN' = (x)` (the template writes `{{ sql.isnan }}(x)`). PostgreSQL has no TRY_CAST (the
# function above, defined in the rendering's header) and counts the bits of a bit string, not
# of a BIGINT (BIT_COUNT(bit), PostgreSQL 14 and later); BigQuery writes SAFE_CAST and
# TRIM(x, ' '); Snowflake TRIM(x, ' '), BITOR_AGG and no BIT_COUNT. Decision 0011 lists what differs.
POSTGRES = Dialect(name="postgres", quote='"', text="TEXT", double="DOUBLE PRECISION",
                   param_prefix=":", inline="NOT MATERIALIZED", materialize="MATERIALIZED",
                   input_order="ROW_NUMBER() OVER ()", temp_table="CREATE TEMP TABLE",
                   fsum="SUM", isnan="CAST('NaN' AS DOUBLE PRECISION) =",
                   to_number="pg_temp.agreement_to_number({})", trim="TRIM(BOTH ' ' FROM {})",
                   bit_or="BIT_OR", bit_count="BIT_COUNT(CAST({} AS BIT(64)))",
                   setup=(PG_TO_NUMBER_FUNCTION, PG_ERROR_FUNCTION), max_length=(63, "bytes"),
                   error="pg_temp.agreement_error({})",
                   script_param=":{}", script_set="\\set {name} {value}",
                   set_canonical="", set_size="", set_common="",
                   float_text=("CASE WHEN {} = FLOOR({}) AND ABS({}) < 1e16 AND {} <> 0 "
                               "THEN CONCAT(CAST(CAST({} AS BIGINT) AS TEXT), '.0') "
                               "ELSE CAST({} AS TEXT) END"))

BIGQUERY = Dialect(name="bigquery", quote="`", text="STRING", double="FLOAT64", param_prefix="@",
                   inline="", materialize="", input_order="ROW_NUMBER() OVER ()",
                   temp_table="CREATE TEMP TABLE", fsum="SUM", isnan="IS_NAN",
                   to_number="SAFE_CAST({} AS FLOAT64)", trim="TRIM({}, ' ')",
                   bit_or="BIT_OR", bit_count="BIT_COUNT({})", escape=BACKSLASH,
                   refuses_controls=True, error="ERROR({})", mod="MOD({0}, {1})",
                   set_canonical="", set_size="", set_common="",
                   mod_open="MOD((", mod_sep="), ", mod_close=")",
                   no_underscore="STRPOS({}, '_') = 0",
                   float_text=("CASE WHEN {} = FLOOR({}) AND ABS({}) < 1e16 AND {} <> 0 "
                               "THEN CONCAT(CAST(CAST({} AS INT64) AS STRING), '.0') "
                               "ELSE CAST({} AS STRING) END"))

SNOWFLAKE = Dialect(name="snowflake", quote='"', text="VARCHAR", double="DOUBLE", param_prefix="$",
                    inline="", materialize="", input_order="SEQ8()",
                    temp_table="CREATE TEMPORARY TABLE", fsum="SUM",
                    isnan="CAST('NaN' AS DOUBLE) =", to_number="TRY_CAST({} AS DOUBLE)",
                    trim="TRIM({}, ' ')", bit_or="BITOR_AGG", bit_count=SWAR_BIT_COUNT,
                    row_number="ROW_NUMBER() OVER (ORDER BY SEQ8())", max_length=(255, "characters"),
                    error="agreement_error({})", setup=(SNOWFLAKE_ERROR_FUNCTION,),
                    set_canonical="", set_size="", set_common="",
                    float_text=("CASE WHEN {} = FLOOR({}) AND ABS({}) < 1e16 AND {} <> 0 "
                                "THEN CONCAT(CAST(CAST({} AS BIGINT) AS VARCHAR), '.0') "
                                "ELSE CAST({} AS VARCHAR) END"))

DIALECTS = {d.name: d for d in (DUCKDB, SPARK, POSTGRES, BIGQUERY, SNOWFLAKE)}


def script_dialect(dialect: Dialect) -> Dialect:
    """The variant of ``dialect`` a printed rendering uses (``agreement-sql render``): its
    parameters are written in the form its own client sets by hand (DuckDB's
    ``getvariable('name')`` after ``SET VARIABLE``, spark-sql's variable substitution, psql's
    ``:name``/``:'name'``); BigQuery and Snowflake keep their query parameters (@name, $name)."""
    return replace(dialect, param_form=dialect.script_param) if dialect.script_param else dialect


def functions_in(dialect: Dialect, schema: str) -> Dialect:
    """``dialect`` with its helper functions in ``schema`` instead of a session's temporary
    space: PostgreSQL's ``agreement_to_number`` and ``agreement_error`` out of ``pg_temp``,
    Snowflake's ``agreement_error`` no longer TEMPORARY. For statements run on other connections
    than the one that created the functions (the dbt package, whose ``install()`` hook runs once
    on one connection and whose models on others; docs/decisions/0025). ``schema`` is SQL text
    the package writes: a quoted identifier, or the dbt macro's expression printing one. The
    functions' text is the dialect's own, the same statements; only where they live differs.
    A dialect without helper functions (DuckDB's are macros of the session the statement runs
    in; Spark SQL and BigQuery call only built-in functions) is returned as it is."""
    if dialect.name == "postgres":
        def moved(text: str) -> str:
            return text.replace("pg_temp.agreement_", schema + ".agreement_")

        return replace(dialect, to_number=moved(dialect.to_number), error=moved(dialect.error),
                       setup=tuple(moved(s) for s in dialect.setup))
    if dialect.name == "snowflake":
        def made(text: str) -> str:
            return text.replace("TEMPORARY FUNCTION agreement_error",
                                "FUNCTION " + schema + ".agreement_error")

        return replace(dialect, error=schema + "." + dialect.error,
                       setup=tuple(made(s) for s in dialect.setup))
    if dialect.name in ("spark", "bigquery"):
        return dialect
    raise OptionError(f"functions_in: the {dialect.name} dialect's helpers are session macros")
