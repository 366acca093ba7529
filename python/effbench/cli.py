"""`effbench-results`: import runs into the store, list and export them, write reports, compare
two runs, and launch effbench under mpirun/srun."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from . import __version__, simulate
from .importers import FORMATS, FormatError, parse_file
from .importers.osu_programs import FAN_PROGRAMS
from .records import ParsedRun, write_jsonl
from .store.db import Store, StoreError, database_error

EXIT_OK, EXIT_REGRESSION, EXIT_USAGE = 0, 1, 2


def _console(stderr: bool = False):
    from rich.console import Console
    return Console(stderr=stderr, highlight=False)


def error(message: str) -> int:
    print(f"effbench-results: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def load_ref(ref: str, db: str | None) -> tuple[ParsedRun, str]:
    """A run named on the command line: an existing file is read directly (nothing stored);
    anything else is a run id or hash prefix in the store."""
    if Path(ref).is_file():
        return parse_file(ref), ref
    with Store(db) as store:
        run_id = store.resolve(ref)
        return store.load(run_id), f"run {run_id}"


def cmd_import(args) -> int:
    if args.procs is not None and args.procs < 1:
        return error(f"--procs {args.procs}: a process count is at least 1")
    status = EXIT_OK
    with Store(args.db) as store:
        for path in args.files:
            try:
                parsed = parse_file(path, args.format, procs=args.procs, program=args.program,
                                    buffers=args.buffers)
                # the store checks that its columns hold every value, naming the line
                run_id, created = store.import_run(parsed, path=path)
            except FormatError as exc:
                print(f"effbench-results: error: {exc}", file=sys.stderr)
                status = EXIT_USAGE
                continue
            except SQLAlchemyError as exc:  # rolled back: nothing of the file is stored
                print(f"effbench-results: error: {path}: {database_error(exc)}; nothing "
                      "stored", file=sys.stderr)
                status = EXIT_USAGE
                continue
            what = "imported as" if created else "already stored as"
            notes = [f"{parsed.run['component']}", f"{len(parsed.results)} rows",
                     parsed.source_format]
            if parsed.skipped_lines:
                notes.append(f"{parsed.skipped_lines} foreign or cut lines skipped")
            if parsed.source_format == "osu":
                notes.append("OSU text does not say whether the run finished")
            elif parsed.end is None:
                notes.append("incomplete: the run did not finish")
            print(f"{path}: {what} run {run_id} ({', '.join(notes)})")
    return status


def cmd_list(args) -> int:
    from rich.table import Table
    with Store(args.db) as store:
        runs = store.list_runs()
    table = Table(title=f"runs in {args.db or 'the default store'}")
    # the device column where a stored run used one (docs/gpu-results.md)
    columns = ("id", "hash", "tool", "component", "procs", "rows", "start", "status",
               "machine", *(("device",) if any(r["device"] for r in runs) else ()), "source")
    for col in columns:
        table.add_column(col)
    for r in runs:
        table.add_row(*(str(r[c]) if r[c] is not None else "" for c in columns))
    _console().print(table)
    return EXIT_OK


def cmd_export(args) -> int:
    with Store(args.db) as store:
        parsed = store.load(store.resolve(args.run))
    if args.output in (None, "-"):
        from .records import dumps_record
        for rec in parsed.records():
            sys.stdout.write(dumps_record(rec) + "\n")
    else:
        write_jsonl(parsed.records(), args.output)
    return EXIT_OK


def cmd_compare(args) -> int:
    from .groups_cli import cmd_compare_groups, is_group
    if is_group(args.run_a) or is_group(args.run_b):
        return cmd_compare_groups(args)
    if args.confidence is not None or args.json:
        return error("--confidence and --json are for groups (compare group:A group:B)")
    from .compare import compare_runs, print_comparison
    from .comparable import describe, device_sides, differences, methodology_refusal
    run_a, label_a = load_ref(args.run_a, args.db)
    run_b, label_b = load_ref(args.run_b, args.db)
    refusal = methodology_refusal(run_a, run_b, label_a, label_b)
    if refusal:
        return error(refusal)
    for line in device_sides(run_a, run_b, label_a, label_b):
        print(line)
    diffs = differences(run_a, run_b)
    if diffs:  # before any ratio: what makes the runs differ
        print(f"{label_a} (A) and {label_b} (B) differ in:")
        for line in describe(diffs):
            print(f"  {line}")
    decisive = [d for d in diffs if d.changes_measurement]
    if decisive and not args.allow_different:
        return error(f"{label_a} and {label_b} do not measure the same thing "
                     f"({', '.join(d.what for d in decisive)}); --allow-different compares "
                     "them anyway")
    cmp = compare_runs(run_a, run_b, threshold=args.threshold / 100,
                       noise_floor=args.noise_floor / 100, min_bytes=args.min_bytes)
    if not cmp.rows and not cmp.headlines:
        memory = [d for d in diffs if d.what == "buffer memory"]
        return error(f"{label_a} and {label_b} have no measurement in common" + (
            f" (buffers {memory[0].a} against {memory[0].b}: figures of host and device "
            "buffers are different quantities, never matched)" if memory else ""))
    print_comparison(cmp, _console(), label_a, label_b, only_changes=args.only_changes)
    return EXIT_REGRESSION if cmp.regressions else EXIT_OK


def _series_run(args):
    from .store.db import Store
    store = Store(args.db)
    return store, store.resolve(args.run)


def cmd_history(args) -> int:
    from .history import history_table
    store, run_id = _series_run(args)
    with store:
        table = history_table(store, run_id, args.last)
    keys = [k for k in table[-1][1] if k[0] == "summary" or (
        args.benchmark and table[-1][1][k][0].split()[0] == args.benchmark
        and (args.bytes is None or k[5] == args.bytes))]
    if not keys:
        return error(f"run {run_id} has no headline value"
                     + (f" and no row of {args.benchmark}" if args.benchmark else "")
                     + " to follow (--benchmark NAME [--bytes N] picks rows)")
    print(f"history of run {run_id}'s series ({len(table)} runs: machine "
          f"{table[-1][0]['machine']}, {table[-1][0]['mpi_library']}, {table[-1][0]['component']},"
          f" {table[-1][0]['procs']} processes)")
    head = ["value"] + [f"#{m['id']} {(m['start'] or '')[:10]}" for m, _ in table]
    print("\t".join(head))
    for k in keys:
        label, procs, nbytes, metric, _ = table[-1][1][k]
        name = label + ("" if k[0] == "summary" else f" {nbytes} B")
        unit = "us" if metric == "time" else "MB/s"
        cells = [f"{vals[k][4]:.4g}" if k in vals else "-" for _, vals in table]
        print("\t".join([f"{name} [{unit}]"] + cells))
    return EXIT_OK


def cmd_check(args) -> int:
    from .history import MIN_BASELINE, ROBUST_Z, MIN_BAND, check, series_before
    kind, _, n = args.baseline.partition(":")
    if kind != "last" or not n.isdigit() or int(n) < 1:
        return error(f"--baseline {args.baseline}: expected last:N (N earlier runs)")
    from .groups_cli import cmd_check_group, is_group
    if is_group(args.run):
        return cmd_check_group(args, int(n))
    store, run_id = _series_run(args)
    with store:
        baseline = [p for _, p in series_before(store, run_id, int(n))]
        alerts = check(store.load(run_id), baseline)
    if len(baseline) < MIN_BASELINE:
        print(f"run {run_id}: {len(baseline)} earlier runs of its series, fewer than "
              f"{MIN_BASELINE}: nothing to hold it against")
        return EXIT_OK
    worse = [a for a in alerts if a.worse]
    for a in alerts:
        unit = "us" if a.metric == "time" else "MB/s"
        where = "" if a.nbytes in (None, 0) else f" at {a.nbytes} bytes"
        print(f"{'REGRESSION' if a.worse else 'better'}: {a.label}{where}: {a.value:.4g} {unit}, "
              f"baseline median {a.median:.4g} {unit} +- {a.band:.3g}")
    print(f"run {run_id} against the {len(baseline)} runs before it: {len(worse)} values worse "
          f"than their band (robust z {ROBUST_Z:g} x 1.4826 MAD, at least {MIN_BAND:.0%})")
    return EXIT_REGRESSION if worse else EXIT_OK


def cmd_report(args) -> int:
    from .report import write_report
    from .report_history import history_section
    if args.history < 1:
        return error(f"--history {args.history}: the band needs at least 1 run")
    runs, histories = [], []
    for ref in args.runs:
        if Path(ref).is_file():  # read directly: not stored, no series
            runs.append((ref, parse_file(ref)))
            continue
        from .history import MAX_PLOTTED, run_series, trends
        with Store(args.db) as store:
            run_id = store.resolve(ref)
            label = f"run {run_id}"
            series = run_series(store, run_id, MAX_PLOTTED + args.history)
        runs.append((label, series[-1][1]))
        if not args.no_history:
            histories.append(history_section(label, min(len(series), MAX_PLOTTED),
                                             trends(series, args.history), args.history))
    out = write_report(runs, Path(args.output), static=not args.no_static,
                       histories=histories)
    print(f"report written to {out}")
    return EXIT_OK


def _history_options(s) -> None:
    s.add_argument("--history", type=int, default=10, metavar="N",
                   help="stored runs: plot their series over time, each value with the band "
                   "of the N runs before it (check's rule; default 10)")
    s.add_argument("--no-history", action="store_true", help="no series plots")


def cmd_nodes(args) -> int:
    """`run` of the nodes component with one rank per node."""
    args.np, args.component = args.nodes, "nodes"
    return cmd_run(args)


def cmd_run(args) -> int:
    from .launcher import run_effbench
    return run_effbench(args)


def cmd_serve(args) -> int:
    import uvicorn
    from .web import create_app
    with Store(args.db) as store:
        app = create_app(store=store, max_upload_bytes=args.max_upload_mb * 1024 * 1024)
        print(f"serving {store.display_url} on http://{args.host}:{args.port}/", flush=True)
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return EXIT_OK


def cmd_token(args) -> int:
    from .web.tokens import create_token, list_tokens, revoke_token
    with Store(args.db) as store:
        if args.token_command == "create":
            secret = create_token(store, args.name, admin=args.admin)
            print(secret)
            print(f"token '{args.name}'{' (admin)' if args.admin else ''} created; it is shown "
                  "only now, the store keeps its hash", file=sys.stderr)
        elif args.token_command == "list":
            for t in list_tokens(store):
                state = f"revoked {t['revoked_at']:%Y-%m-%d %H:%M}" if t["revoked_at"] \
                    else "active"
                print(f"{t['id']}\t{t['name']}\t{'admin' if t['admin'] else 'upload'}\t"
                      f"created {t['created_at']:%Y-%m-%d %H:%M}\t{state}")
        else:
            revoke_token(store, args.name)
            print(f"token '{args.name}' revoked")
    return EXIT_OK


DB_HELP = ("database URL (sqlite:///FILE, postgresql://user@host/db) or SQLite file; "
           "default: $EFFBENCH_DB or results.sqlite in the user data directory")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="effbench-results", description=__doc__)
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    _store_commands(sub)
    _analysis_commands(sub)
    _run_command(sub)
    simulate.add_parser(sub, DB_HELP)
    _series_commands(sub)
    from .groups_cli import add_parsers
    add_parsers(sub, DB_HELP)
    _nodes_command(sub)
    _accept_command(sub)
    _web_commands(sub)
    return p


def _store_commands(sub) -> None:
    """import, list, export."""
    s = sub.add_parser("import", help="store runs from files (JSON Lines, IMB text, b_eff, "
                       "b_eff_io, SKaMPI, OSU 7.4 text)")
    s.add_argument("files", nargs="+", metavar="FILE")
    s.add_argument("--format", choices=sorted(FORMATS), help="skip format detection")
    s.add_argument("--procs", type=int, default=None, metavar="N",
                   help="OSU text: the process count, which OSU prints only for osu_mbw_mr, "
                   "osu_init and the two-process programs (collectives need it)")
    s.add_argument("--program", default=None, choices=FAN_PROGRAMS,
                   help="OSU text: which program printed osu_bw's title over 'Avg Latency(us)'")
    s.add_argument("--buffers", default=None, metavar="'X Y'",
                   help="OSU text: the buffer letters of a point-to-point run under -d (\"D D\","
                   " \"H D\", \"MH MD\"), which OSU 7.4 does not print (docs/gpu-results.md)")
    s.add_argument("--db", help=DB_HELP)
    s.set_defaults(func=cmd_import)

    s = sub.add_parser("list", help="list stored runs")
    s.add_argument("--db", help=DB_HELP)
    s.set_defaults(func=cmd_list)

    s = sub.add_parser("export", help="write a stored run as JSON Lines")
    s.add_argument("run", metavar="RUN")
    s.add_argument("-o", "--output", help="file (default: stdout)")
    s.add_argument("--db", help=DB_HELP)
    s.set_defaults(func=cmd_export)


def _analysis_commands(sub) -> None:
    """report, compare."""
    s = sub.add_parser("report", help="HTML report with interactive plots, PNG and PDF figures")
    s.add_argument("runs", nargs="+", metavar="RUN", help="run id, hash prefix or file")
    s.add_argument("-o", "--output", default="effbench-report", help="directory to write")
    s.add_argument("--no-static", action="store_true", help="HTML only, no PNG/PDF")
    _history_options(s)
    s.add_argument("--db", help=DB_HELP)
    s.set_defaults(func=cmd_report)

    s = sub.add_parser("compare", help="ratios B/A per benchmark and size; exit 1 on a "
                       "regression beyond the threshold")
    s.add_argument("run_a", metavar="RUN_A", help="the reference: run id, hash prefix or file, "
                   "or a group (group:N)")
    s.add_argument("run_b", metavar="RUN_B", help="the candidate (a group if RUN_A is one)")
    s.add_argument("--threshold", type=float, default=10.0,
                   help="percent worse that counts as a regression (default 10)")
    s.add_argument("--noise-floor", type=float, default=2.0,
                   help="least relative noise assumed per run, percent (default 2)")
    s.add_argument("--allow-different", action="store_true",
                   help="compare runs whose options change what is measured (default: refuse)")
    s.add_argument("--min-bytes", type=int, default=0, help="ignore rows with fewer bytes")
    s.add_argument("--only-changes", action="store_true", help="print flagged rows only")
    s.add_argument("--confidence", type=float, default=None, metavar="PCT",
                   help="groups: confidence level of the ratio's interval in percent "
                   "(default 95)")
    s.add_argument("--json", action="store_true", help="groups: JSON, one object a line")
    s.add_argument("--db", help=DB_HELP)
    s.set_defaults(func=cmd_compare)


def _run_command(sub) -> None:
    """run: effbench under mpirun/srun, then stored."""
    s = sub.add_parser("run", help="run effbench under mpirun/srun with a progress bar, then "
                       "store the result; run --repeat N [--shuffle [--seed S]] -- CMD... "
                       "[-- CMD...] launches whole commands N times each into groups "
                       "(run --repeat 1 --help, docs/statistics.md)")
    s.add_argument("--np", type=int, default=2, help="process count (default 2)")
    s.add_argument("--launcher", choices=["srun", "mpirun"], default=None,
                   help="srun or mpirun (default: srun inside a Slurm allocation, else mpirun)")
    s.add_argument("--nodes", type=int, default=None,
                   help="nodes to spread the processes over (srun -N; mpirun --map-by ppr)")
    s.add_argument("--mpiexec", default=None,
                   help="the launcher's command, e.g. 'mpiexec.openmpi' "
                   "(default: srun, or $EFFBENCH_MPIEXEC or mpiexec)")
    s.add_argument("--effbench", default=None,
                   help="effbench executable (default: $EFFBENCH, else effbench on PATH)")
    s.add_argument("--json", default=None, help="JSON Lines file to write (default: "
                   "effbench-<component>-<time>.jsonl)")
    s.add_argument("--overwrite", action="store_true",
                   help="replace the --json FILE and its .txt if they exist (default: refuse)")
    s.add_argument("--report", default=None, metavar="DIR", help="also write a report to DIR")
    s.add_argument("--db", help=DB_HELP)
    s.add_argument("component", metavar="COMPONENT")
    s.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS")
    s.set_defaults(func=cmd_run)


def _series_commands(sub) -> None:
    """history, check: a run against the runs of its series."""
    s = sub.add_parser("history", help="a run's series over time: its headline values and chosen "
                       "rows (docs/results.md)")
    s.add_argument("run", metavar="RUN")
    s.add_argument("--last", type=int, default=10, help="runs to show (default 10)")
    s.add_argument("--benchmark", default=None, help="also follow this benchmark's rows")
    s.add_argument("--bytes", type=int, default=None, help="only at this message length")
    s.add_argument("--db", help=DB_HELP)
    s.set_defaults(func=cmd_history)

    s = sub.add_parser("check", help="exit 1 when a value of RUN leaves the band of its baseline")
    s.add_argument("run", metavar="RUN", help="run id or hash prefix, or a group (group:N): "
                   "its median per value")
    s.add_argument("--baseline", default="last:10", help="last:N, the N runs of the series "
                   "before RUN (default last:10)")
    s.add_argument("--db", help=DB_HELP)
    s.set_defaults(func=cmd_check)


def _nodes_command(sub) -> None:
    """nodes: the node-pair matrix with one rank per node."""
    s = sub.add_parser("nodes", help="the node-pair matrix (effbench nodes) with one rank on each "
                       "of N nodes, stored (docs/cluster.md)")
    s.add_argument("--nodes", type=int, required=True, help="nodes to measure")
    s.add_argument("--launcher", choices=["srun", "mpirun"], default=None,
                   help="srun or mpirun (default: srun inside a Slurm allocation, else mpirun)")
    s.add_argument("--mpiexec", default=None, help="the launcher's command")
    s.add_argument("--effbench", default=None, help="effbench executable")
    s.add_argument("--json", default=None, help="JSON Lines file to write")
    s.add_argument("--overwrite", action="store_true", help="replace the --json FILE")
    s.add_argument("--report", default=None, metavar="DIR", help="also write a report to DIR")
    s.add_argument("--db", help=DB_HELP)
    s.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS",
                   help="effbench nodes options after --, e.g. -- --bytes 1048576")
    s.set_defaults(func=cmd_nodes)


def cmd_accept(args) -> int:
    from .accept.runner import accept
    return accept(args)


def _accept_command(sub) -> None:
    """accept: an acceptance profile's checks run and judged (docs/acceptance.md)."""
    s = sub.add_parser("accept", help="run an acceptance profile's checks and write the verdict "
                       "(exit 0 only when every check passes; docs/acceptance.md)")
    s.add_argument("profile", metavar="PROFILE", help="the profile, a TOML file")
    s.add_argument("--junit", default=None, metavar="FILE", help="also write the verdict as "
                   "JUnit XML")
    s.add_argument("--report", default=None, metavar="DIR", help="also write an HTML report "
                   "with the verdict")
    s.add_argument("--output", default=None, metavar="DIR", help="the runs' files, the state "
                   "and verdict.txt (default: accept-<profile name>)")
    s.add_argument("--resume", action="store_true", help="continue the stopped run of the "
                   "profile whose state is in --output DIR")
    s.add_argument("--launcher", choices=["srun", "mpirun"], default=None,
                   help="srun or mpirun (default: srun inside a Slurm allocation, else mpirun)")
    s.add_argument("--mpiexec", default=None, help="the launcher's command")
    s.add_argument("--effbench", default=None, help="effbench executable; the programs are "
                   "taken from its directory (default: $EFFBENCH, else PATH)")
    s.add_argument("--db", help=DB_HELP)
    s.set_defaults(func=cmd_accept)


def _web_commands(sub) -> None:
    """serve, token: the web application and its API tokens."""
    s = sub.add_parser("serve", help="web application: browse, compare, upload (docs/web.md)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default "
                   "127.0.0.1; put a TLS proxy in front for a public server)")
    s.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    s.add_argument("--max-upload-mb", type=int, default=64,
                   help="largest accepted upload in MiB (default 64)")
    s.add_argument("--log-level", default="info",
                   choices=("critical", "error", "warning", "info", "debug"))
    s.add_argument("--db", help=DB_HELP)
    s.set_defaults(func=cmd_serve)

    s = sub.add_parser("token", help="API tokens of the web application (admin command)")
    tsub = s.add_subparsers(dest="token_command", required=True)
    t = tsub.add_parser("create", help="create a token and print it (only this once)")
    t.add_argument("name", help="who the token is for; runs record it as their uploader")
    t.add_argument("--admin", action="store_true", help="may delete any run")
    t.add_argument("--db", help=DB_HELP)
    t = tsub.add_parser("list", help="list tokens (never their secrets)")
    t.add_argument("--db", help=DB_HELP)
    t = tsub.add_parser("revoke", help="revoke a token; its runs keep naming it")
    t.add_argument("name")
    t.add_argument("--db", help=DB_HELP)
    s.set_defaults(func=cmd_token)


def main(argv: list[str] | None = None) -> int:
    from .repeat import run_repeated, wants_repeat
    argv = sys.argv[1:] if argv is None else list(argv)
    repeated = wants_repeat(argv)
    args = None if repeated else build_parser().parse_args(argv)
    try:
        return run_repeated(argv, DB_HELP) if repeated else args.func(args)
    except (FormatError, StoreError) as exc:
        return error(str(exc))
    except SQLAlchemyError as exc:  # one line, never a traceback
        return error(database_error(exc))
    except OSError as exc:  # e.g. export -o into a directory that does not exist
        where = f"{exc.filename}: " if exc.filename else ""
        return error(f"{where}{exc.strerror or exc}")


if __name__ == "__main__":
    sys.exit(main())
