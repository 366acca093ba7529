"""effbench explain's records in the report (docs/methods.md): one figure per operation and
size, the values with their spread and the factors' shares exactly as the records hold them, and
the relation the run guarantees (shares plus unexplained equal the difference)."""
import math
from pathlib import Path

from effbench.importers.jsonl import parse_jsonl
from effbench.report import write_report
from effbench.report_explain import explain_figures

DATA = Path(__file__).parent / "data" / "effbench" / "explain_bcast.jsonl"


def test_figure_holds_the_records():
    run = parse_jsonl(DATA)
    rows = [r for r in run.results if r["component"] == "explain"]
    assert [r["method"] for r in rows][:2] == ["reprompi-window", "reprompi-barrier"]
    for r in rows:
        total = sum(f["share_us"] for f in r["factors"]) + r["unexplained_us"]
        assert math.isclose(total, r["difference_us"], rel_tol=1e-9, abs_tol=1e-6)
    (fig,) = explain_figures("run", run.results)
    assert fig.title == "explain Bcast, 1024 bytes, 4 procs"
    values, shares = fig.panels
    assert values.xticks[1] == [r["method"] for r in rows]
    by_name = {t.name: t for t in values.traces}
    assert by_name["value (median of rounds)"].y == [r["value_us"] for r in rows]
    assert by_name["min over rounds"].y == [r["t_min_us"] for r in rows]
    sh = {t.name: t for t in shares.traces}
    assert sh["unexplained"].y == [r["unexplained_us"] for r in rows]
    sync = [next((f["share_us"] for f in r["factors"] if f["factor"] == "sync"), None)
            for r in rows]
    assert sh["sync"].y == sync and sync[0] is None


def test_report_draws_it(tmp_path):
    index = write_report([("explain", parse_jsonl(DATA))], tmp_path, static=True)
    text = index.read_text()
    assert "explain Bcast, 1024 bytes, 4 procs" in text and "data-kind='explain'" in text
    assert list((tmp_path / "png").glob("*Bcast.png")) and (tmp_path / "report.pdf").exists()
