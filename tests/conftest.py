"""Shared by every test folder: after every test, every JSON Lines file the test
wrote under its tmp_path must pass the one record validator (effbench.validate).  A test that
writes broken records on purpose says so with @pytest.mark.invalid_records."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
from effbench.validate import validate_file  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "invalid_records: the test writes JSON Lines records that are wrong on "
        "purpose; the record validator leaves its files alone")
    config.addinivalue_line(
        "markers", "matrix: a case of a long parametrized matrix beyond the first of its kind "
        "(every OSU sample, every -w/-s, every checked benchmark under corruption; of a "
        "parametrized MPI test of three cases or more, three in four: MPI_EVERY), or a long "
        "scenario whose parts the test command checks (the acceptance profile on the cluster): "
        "CI's scripts/test-matrix runs these, the test command (scripts/test) the rest")
    config.addinivalue_line(
        "markers", "asan: in the selection scripts/test runs again on the ASan + UBSan build "
        "(the checked runs of every component, b_eff, b_eff_io, SKaMPI suites, resume, -repeat, "
        "-sync window)")


# Of a parametrized MPI test of three cases or more, the test command runs every fourth case
# (the first, the fifth, ...) of those not marked already, CI's matrix stage the others:
# each case still runs in CI, and the test command keeps a spread of every such family within
# its time on a loaded 2-core machine (docs/testing.md, "Long matrices").
MPI_EVERY = 4


@pytest.hookimpl(tryfirst=True)  # before -m deselects by the marks
def pytest_collection_modifyitems(config, items):
    families: dict[tuple[str, str], list] = {}
    for item in items:
        if (Path(str(item.fspath)).parent.name != "mpi" or not hasattr(item, "callspec")
                or item.get_closest_marker("matrix")):
            continue
        families.setdefault((str(item.fspath), item.originalname), []).append(item)
    for cases in families.values():
        if len(cases) >= 3:
            for k, item in enumerate(cases):
                if k % MPI_EVERY:
                    item.add_marker(pytest.mark.matrix)


@pytest.fixture(autouse=True)
def _validate_written_records(request, tmp_path):
    yield
    if request.node.get_closest_marker("invalid_records"):
        return
    problems = []
    for path in sorted(tmp_path.rglob("*.jsonl")):
        problems.extend(validate_file(path))
    if problems:
        pytest.fail("records that break docs/json-lines.md:\n" + "\n".join(problems[:20]),
                    pytrace=False)
