"""The performance database on the web: `effbench-results serve` (FastAPI)."""

from .app import create_app

__all__ = ["create_app"]
