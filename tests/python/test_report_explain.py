"""effbench explain's records in the report (docs/methods.md): one figure per operation and
size, the values with their spread and the factors' shares as stacked bars, exactly as the
records hold them, and the relation the run guarantees (shares plus unexplained equal the
difference)."""
import math
from pathlib import Path

from effbench.importers.jsonl import parse_jsonl
from effbench.report import write_report
from effbench.report_explain import FACTORS, explain_figures, stack_segments
from test_report_overlay import outside_the_figure

DATA = Path(__file__).parent / "data" / "effbench" / "explain_bcast.jsonl"
BEFF = Path(__file__).parent / "data" / "effbench" / "explain_pingpong_beff.jsonl"


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
    check_stacks(rows, shares)


def check_stacks(rows, panel):
    """The stacked bars are the records' shares, exactly: per method one segment per factor
    of its chain, in the chain's order, of the factor's share_us, each starting where the one
    before ends, the first at reference_us, then the unexplained remainder; the stack ends at
    the method's value (to the rounding of the additions)."""
    bars = [t for t in panel.traces if t.mode == "bar"]
    assert [t.name for t in bars] == [f for f in FACTORS if any(
        f == g["factor"] for r in rows for g in r["factors"])] + ["unexplained"]
    by_name = {t.name: t for t in bars}
    for i, r in enumerate(rows):
        names = [f["factor"] for f in r["factors"]] + ["unexplained"]
        heights = [f["share_us"] for f in r["factors"]] + [r["unexplained_us"]]
        # every bar trace holds this method's segment of its factor, or none
        for t in bars:
            if t.name not in names:
                assert t.y[i] is None and t.base[i] is None, (r["method"], t.name)
        got = [(by_name[n].y[i], by_name[n].base[i]) for n in names]
        assert [h for h, _ in got] == heights, r["method"]
        assert got[0][1] == r["reference_us"]
        for (h, b), (_, b2) in zip(got, got[1:]):
            assert b2 == b + h
        top = got[-1][0] + got[-1][1]
        assert math.isclose(top, r["value_us"], rel_tol=1e-9, abs_tol=1e-6), r["method"]
        labels = [by_name[n].text[i] for n in names[:-1]]
        assert labels == [f"{f['factor']} {f['from']}->{f['to']}" for f in r["factors"]]
    values = next(t for t in panel.traces if t.name == "method's value")
    assert values.y == [r["value_us"] for r in rows]


def test_stacks_stop_at_an_unmeasured_share():
    """A chain row without a valid round has no value: its share and everything after it are
    null in the record, and the stack ends before it rather than guessing."""
    row = {"reference_us": 5.0, "value_us": 9.0, "unexplained_us": None,
           "factors": [{"factor": "sync", "from": "window", "to": "barrier", "share_us": -1.5},
                       {"factor": "form", "from": "global", "to": "max", "share_us": None}]}
    assert stack_segments(row) == [("sync", 5.0, -1.5, "sync window->barrier")]
    assert stack_segments({**row, "reference_us": None}) == []


def test_plotly_and_png_draw_the_bars(tmp_path):
    from effbench.plotfig import mpl_figure, plotly_spec
    run = parse_jsonl(BEFF)
    (fig,) = explain_figures("run", run.results)
    spec = plotly_spec(fig)
    bars = [t for t in spec["data"] if t["type"] == "bar"]
    shares = fig.panels[1]
    assert [t["name"] for t in bars] == [t.name for t in shares.traces if t.mode == "bar"]
    for t, mine in zip(bars, [t for t in shares.traces if t.mode == "bar"]):
        assert t["y"] == mine.y and t["base"] == mine.base
    assert spec["layout"]["barmode"] == "overlay"
    mfig = mpl_figure(fig)
    assert outside_the_figure(mfig) == []
    ax = mfig.axes[1]
    drawn = sum(len(c.patches) for c in ax.containers)
    assert drawn == sum(1 for t in shares.traces if t.mode == "bar" for y in t.y
                        if y is not None)


def test_beff_pingpong_figure():
    """A PingPong run with b_eff's method: its stacked bar has its chain's factors."""
    run = parse_jsonl(BEFF)
    rows = [r for r in run.results if r["component"] == "explain"]
    assert rows[-1]["method"] == "b_eff"
    assert [f["factor"] for f in rows[-1]["factors"]] == [
        "sync", "form", "statistic", "region", "warm-up", "buffers", "unit"]
    (fig,) = explain_figures("run", run.results)
    check_stacks(rows, fig.panels[1])


def test_report_draws_it(tmp_path):
    index = write_report([("explain", parse_jsonl(DATA))], tmp_path, static=True)
    text = index.read_text()
    assert "explain Bcast, 1024 bytes, 4 procs" in text and "data-kind='explain'" in text
    assert list((tmp_path / "png").glob("*Bcast.png")) and (tmp_path / "report.pdf").exists()
