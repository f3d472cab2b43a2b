"""Python entry points of the metrics: one module per template family, each a thin wrapper
that prepares the ratings, runs ``sql/<name>.sql.j2`` and shapes the typed result."""
