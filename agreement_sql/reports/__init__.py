"""Seed-shaped reports built from several templates (the workshop IRR report, ...)."""
