"""Every CLI flag is a declared parameter, or one of the few that only the command line has
(issue #24 point 1): a flag cannot slip past agreement_sql/declared.py's checks by being
spelled differently on the command line, and a new flag must be placed in one of the two."""
from __future__ import annotations

import argparse

from agreement_sql import declared
from agreement_sql.cli import build_parser

# the command line's spelling of a declared parameter
SPELLED = {"rater_column": "rater_columns", "scale": "scales", "breakdown": "breakdowns",
           "gate": "gates", "sigma": "sigma_threshold", "stratum": "stratum_column",
           "disagreements": "disagreements_tsv", "no_diagnostics": "diagnostics",
           "pairs_option": "pairs", "template": "name", "distance_matrix": "distance"}
# what only the command line has: how it prints and where it runs
CLI_ONLY = {"help", "format", "memory_limit", "temp_directory", "quiet", "database", "option",
            "plan_command", "no_per_point", "command", "folder"}


def test_every_flag_is_a_declared_parameter_or_the_command_lines_own():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    unknown = {}
    for command, subparser in sub.choices.items():
        for action in subparser._actions:
            name = SPELLED.get(action.dest, action.dest)
            if name not in CLI_ONLY and name not in declared.PARAMETERS:
                unknown.setdefault(action.dest, []).append(command)
    assert not unknown, unknown
    assert set(SPELLED.values()) <= set(declared.PARAMETERS)
