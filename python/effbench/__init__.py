"""effbench results tooling: JSON Lines records, importers, result store, reports, compare."""

__version__ = "0.1.0"
