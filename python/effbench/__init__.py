"""effbench results tooling: JSON Lines records, importers, result store, reports, compare."""

from importlib.resources import files

# The one place the version is written: the VERSION file beside this one, which the C
# program's build reads too (CMakeLists.txt), so `effbench --version` and
# `effbench-results --version` cannot disagree.
__version__ = files(__name__).joinpath("VERSION").read_text(encoding="ascii").strip()
