"""Opening the store (SQLite file or PostgreSQL URL), importing parsed runs into it in one
transaction each, and reading runs back as JSON Lines records."""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, func, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, selectinload, sessionmaker

from ..component_names import normalise_record
from ..devices import DEVICE_FIELDS, devices_label, memory_kinds
from ..records import RESULT_CORE, SCHEMA, ParsedRun
from .limits import check_store_limits
from .models import Benchmark, Event, Machine, Measurement, MpiLibrary, Run, Summary

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


class StoreError(Exception):
    pass


def database_error(exc: SQLAlchemyError) -> str:
    """A database's refusal in one line: the driver's message, without SQLAlchemy's dump of
    the statement and its parameters."""
    orig = getattr(exc, "orig", None)
    lines = str(orig if orig is not None else exc).strip().splitlines()
    return f"database error: {lines[0] if lines else type(exc).__name__}"


def default_db_url() -> str:
    """EFFBENCH_DB, else a SQLite file in the user's data directory."""
    if os.environ.get("EFFBENCH_DB"):
        return normalize_url(os.environ["EFFBENCH_DB"])
    import platformdirs
    data = platformdirs.user_data_path("effbench")
    data.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data / 'results.sqlite'}"


def normalize_url(url: str) -> str:
    """A plain path means a SQLite file; postgresql:// means psycopg 3."""
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def _sqlite_foreign_keys(dbapi_conn, _record):
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def migrate(engine: Engine) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Store:
    def __init__(self, url: str | None = None):
        self.url = normalize_url(url) if url else default_db_url()
        try:
            self.engine = create_engine(self.url)
        except Exception as exc:  # bad URL or missing driver
            raise StoreError(f"cannot open database {self.url}: {exc}") from None
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_foreign_keys)
        try:
            migrate(self.engine)
        except Exception as exc:
            raise StoreError(f"cannot open database {self.display_url}: {exc}") from None
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def display_url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- import -----------------------------------------------------------------------------

    def import_run(self, parsed: ParsedRun, *, path: str | Path | None = None,
                   **upload: Any) -> tuple[int, bool]:
        """Store PARSED in one transaction. Returns (run id, True) or, when the same run is
        already stored, (its id, False) and changes nothing. A value its columns cannot hold
        raises FormatError before anything is stored, naming PATH (the file PARSED was read
        from; default: its source) and the line. UPLOAD may set the web upload's columns of
        the run: uploader_id, network, notes."""
        check_store_limits(parsed, path if path is not None else parsed.source)
        for rec in parsed.records():  # a run parsed elsewhere may spell a component the old way
            normalise_record(rec)
        digest = parsed.content_hash()
        for attempt in (1, 2):
            try:
                return self._import_once(parsed, digest, upload)
            except IntegrityError:
                # Another import committed a row this one was creating: the same run (its
                # content hash), or the same machine, MPI library or benchmark, which the
                # lookups of a second attempt find.
                with self.sessions() as session:
                    existing = _stored_run(session, digest)
                if existing is not None:
                    return existing, False
                if attempt == 2:
                    raise
        raise AssertionError("unreachable: the second attempt returns or raises")

    def _import_once(self, parsed: ParsedRun, digest: str,
                     upload: dict[str, Any]) -> tuple[int, bool]:
        # One transaction: a failure anywhere leaves the database as it was.
        with self.sessions.begin() as session:
            existing = _stored_run(session, digest)
            if existing is not None:
                return existing, False
            run, rows = self._build_run(session, parsed, digest)
            for key, value in upload.items():
                setattr(run, key, value)
            session.add(run)
            session.flush()
            run_id = run.id
            # One executemany without RETURNING: the ORM would insert row by row, one round
            # trip each (a 35,000-row file took a minute on PostgreSQL).
            if rows:
                for row in rows:
                    row["run_id"] = run_id
                session.execute(insert(Measurement), rows)
        return run_id, True

    def _get_or_create(self, session: Session, model, **keys):
        obj = session.scalar(select(model).filter_by(**keys))
        if obj is None:
            obj = model(**keys)
            session.add(obj)
            session.flush()
        return obj

    def _build_run(self, session: Session, parsed: ParsedRun, digest: str
                   ) -> tuple[Run, list[dict[str, Any]]]:
        """The run with its summaries, and its measurements as rows (without run_id) for one
        bulk insert."""
        rec = parsed.run
        uname = rec.get("uname") or {}
        machine = None
        if any(uname.get(k) for k in ("nodename", "sysname", "release", "version", "machine")):
            machine = self._get_or_create(
                session, Machine, nodename=uname.get("nodename") or "",
                sysname=uname.get("sysname") or "", release=uname.get("release") or "",
                version=uname.get("version") or "", arch=uname.get("machine") or "")
        library = None
        if rec.get("mpi_library") or rec.get("mpi_version"):
            library = self._get_or_create(session, MpiLibrary,
                                          name=rec.get("mpi_library") or "",
                                          mpi_version=rec.get("mpi_version") or "")
        run = Run(content_hash=digest, tool=rec.get("tool") or "", tool_version=rec.get("version"),
                  component=rec["component"], start=rec.get("start"), procs=rec["procs"],
                  check=bool(rec.get("check")),
                  status=parsed.end.get("status") if parsed.end else None,
                  source=parsed.source, source_format=parsed.source_format,
                  imported_at=datetime.now(timezone.utc).replace(tzinfo=None),
                  machine=machine, mpi_library=library, run_record=rec,
                  end_record=parsed.end, device=(devices_label(rec.get("devices")) or "")[:255]
                  or None, accelerator=run_accelerator(parsed))
        benchmarks: dict[tuple[str, str], int] = {}
        rows = []
        for seq, res in enumerate(parsed.results):
            key = (res["component"], res["benchmark"])
            if key not in benchmarks:
                benchmarks[key] = self._get_or_create(session, Benchmark, component=key[0],
                                                      name=key[1]).id
            extra = {k: v for k, v in res.items()
                     if k not in RESULT_CORE and k not in ("type", "schema")}
            rows.append(dict(
                benchmark_id=benchmarks[key], seq=seq, group_index=res.get("group"),
                mode=res.get("mode"), procs=res["procs"], bytes=res["bytes"],
                repetitions=res.get("repetitions"), t_min_us=res.get("t_min_us"),
                t_max_us=res.get("t_max_us"), t_avg_us=res.get("t_avg_us"),
                mbytes_per_s=res.get("mbytes_per_s"), defects=res.get("defects"), extra=extra,
                **row_memory(res)))
        for seq, summ in enumerate(parsed.summaries):
            run.summaries.append(Summary(seq=seq, record=summ, position=(
                parsed.summary_at[seq] if parsed.summary_at is not None else None)))
        for seq, note in enumerate(parsed.events):
            run.events.append(Event(seq=seq, record=note, position=(
                parsed.event_at[seq] if parsed.event_at is not None else None)))
        return run, rows

    # --- reading ----------------------------------------------------------------------------

    def list_runs(self) -> list[dict[str, Any]]:
        with self.sessions() as session:
            counts = dict(session.execute(
                select(Measurement.run_id, func.count()).group_by(Measurement.run_id)).all())
            runs = session.scalars(select(Run).options(
                selectinload(Run.machine), selectinload(Run.mpi_library)).order_by(Run.id)).all()
            return [{
                "id": r.id, "hash": r.content_hash[:12], "tool": r.tool,
                "component": r.component, "start": r.start, "procs": r.procs,
                "status": r.status, "rows": counts.get(r.id, 0),
                "machine": ("simulated" if (r.run_record or {}).get("simulated")
                            else r.machine.nodename if r.machine else None),
                "mpi_library": r.mpi_library.name if r.mpi_library else None,
                "source": r.source, "device": r.device,
            } for r in runs]

    def resolve(self, ref: str) -> int:
        """A run id, or a unique prefix (6+ hex digits) of its content hash."""
        with self.sessions() as session:
            # a hash prefix can be all digits: only a number the id column holds is an id
            if ref.isdigit() and int(ref) < 2**31:
                if session.get(Run, int(ref)) is not None:
                    return int(ref)
            if len(ref) >= 6:
                ids = session.scalars(select(Run.id).where(
                    Run.content_hash.like(ref.lower() + "%"))).all()
                if len(ids) == 1:
                    return ids[0]
                if len(ids) > 1:
                    raise StoreError(f"run '{ref}' is ambiguous ({len(ids)} runs match)")
        raise StoreError(f"no run '{ref}' in {self.display_url}")

    def load(self, run_id: int) -> ParsedRun:
        with self.sessions() as session:
            run = session.scalar(select(Run).where(Run.id == run_id).options(
                selectinload(Run.measurements).selectinload(Measurement.benchmark),
                selectinload(Run.summaries), selectinload(Run.events)))
            if run is None:
                raise StoreError(f"no run {run_id}")
            results = []
            for m in run.measurements:
                rec = {"type": "result", "schema": SCHEMA, "component": m.benchmark.component,
                       "benchmark": m.benchmark.name, "group": m.group_index, "mode": m.mode,
                       "procs": m.procs, "bytes": m.bytes, "repetitions": m.repetitions,
                       "t_min_us": m.t_min_us, "t_max_us": m.t_max_us, "t_avg_us": m.t_avg_us,
                       "mbytes_per_s": m.mbytes_per_s, "defects": m.defects}
                rec.update(m.extra)
                results.append(rec)
            return ParsedRun(run=dict(run.run_record), results=results,
                             summaries=[dict(s.record) for s in run.summaries],
                             end=dict(run.end_record) if run.end_record else None,
                             source=run.source, source_format=run.source_format,
                             events=[dict(e.record) for e in run.events],
                             summary_at=_positions(run.summaries),
                             event_at=_positions(run.events))

    def counts(self) -> dict[str, int]:
        with self.sessions() as session:
            return {model.__tablename__: session.scalar(select(func.count()).select_from(model))
                    for model in (Machine, MpiLibrary, Run, Benchmark, Measurement, Summary,
                                  Event)}


def run_accelerator(parsed: ParsedRun) -> str | None:
    """The run's accelerator column: its devices' ("cuda"), else its options' accelerator,
    else the first accelerator its rows name (imported OSU text); null for a host run."""
    devices = parsed.run.get("devices") or []
    accels = sorted({str(d["accel"]) for d in devices if isinstance(d, dict) and d.get("accel")})
    if not accels:
        option = (parsed.run.get("options") or {}).get("accelerator")
        row = next((r["accelerator"] for r in parsed.results if r.get("accelerator")), None)
        accels = [str(option or row)] if option or row else []
    return ",".join(accels)[:16] or None


def row_memory(rec: dict[str, Any]) -> dict[str, str | None]:
    """A measurement's device columns (send_memory, recv_memory, staging): null for a row
    without device fields, which was in host memory."""
    staging = rec.get("staging")
    if not any(k in rec for k in DEVICE_FIELDS):
        return {"send_memory": None, "recv_memory": None,
                "staging": staging if isinstance(staging, str) else None}
    send, recv = memory_kinds(rec)
    return {"send_memory": send[:16], "recv_memory": recv[:16],
            "staging": staging[:16] if isinstance(staging, str) else None}


def _stored_run(session: Session, digest: str) -> int | None:
    """The id of the run stored with this content hash, if any."""
    return session.scalar(select(Run.id).where(Run.content_hash == digest))


def _positions(rows) -> list[int] | None:
    """The stored positions, or None when any is unknown (stored before migration 0003)."""
    positions = [r.position for r in rows]
    return None if None in positions else positions
