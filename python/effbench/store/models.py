"""SQLAlchemy models of the result store. The schema is created and changed only by the Alembic
migrations in effbench/migrations; a change here needs a new migration."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (JSON, BigInteger, Boolean, DateTime, Double, ForeignKey, Index, Integer,
                        String, Text, UniqueConstraint)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class Machine(Base):
    """A system as rank 0's uname describes it."""

    __tablename__ = "machine"
    __table_args__ = (UniqueConstraint("nodename", "sysname", "release", "version", "arch",
                                       name="uq_machine"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    nodename: Mapped[str] = mapped_column(String(255), default="")
    sysname: Mapped[str] = mapped_column(String(255), default="")
    release: Mapped[str] = mapped_column(String(255), default="")
    version: Mapped[str] = mapped_column(String(255), default="")
    arch: Mapped[str] = mapped_column(String(255), default="")


class MpiLibrary(Base):
    __tablename__ = "mpi_library"
    __table_args__ = (UniqueConstraint("name", "mpi_version", name="uq_mpi_library"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text, default="")
    mpi_version: Mapped[str] = mapped_column(String(32), default="")


class Run(Base):
    __tablename__ = "run"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    content_hash: Mapped[str] = mapped_column(String(64), unique=True)
    tool: Mapped[str] = mapped_column(String(64))
    tool_version: Mapped[str | None] = mapped_column(String(64), nullable=True)
    component: Mapped[str] = mapped_column(String(16), index=True)
    start: Mapped[str | None] = mapped_column(String(64), nullable=True)
    procs: Mapped[int] = mapped_column(Integer)
    check: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str | None] = mapped_column(String(16), nullable=True)
    source: Mapped[str | None] = mapped_column(Text, nullable=True)
    source_format: Mapped[str] = mapped_column(String(16))
    imported_at: Mapped[datetime] = mapped_column(DateTime)
    machine_id: Mapped[int | None] = mapped_column(ForeignKey("machine.id"), nullable=True)
    mpi_library_id: Mapped[int | None] = mapped_column(ForeignKey("mpi_library.id"),
                                                       nullable=True)
    # The `run` and `end` records as written, so that export gives back exactly what came in.
    run_record: Mapped[dict] = mapped_column(JSON)
    end_record: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    # Set by the web upload (migration 0002): who uploaded it, and what the uploader said.
    uploader_id: Mapped[int | None] = mapped_column(ForeignKey("api_token.id"), nullable=True,
                                                    index=True)
    network: Mapped[str | None] = mapped_column(String(255), nullable=True)
    notes: Mapped[str | None] = mapped_column(Text, nullable=True)
    # The devices the run used (migration 0006, docs/gpu-results.md): devices.devices_label of
    # the run record's "devices" ("2 x NVIDIA H100 80GB HBM3"; the tests' CUDA driver double
    # says so), and the accelerator ("cuda"); null for a run that opened no device.
    device: Mapped[str | None] = mapped_column(String(255), nullable=True, index=True)
    accelerator: Mapped[str | None] = mapped_column(String(16), nullable=True)

    machine: Mapped[Machine | None] = relationship()
    uploader: Mapped["ApiToken | None"] = relationship()
    mpi_library: Mapped[MpiLibrary | None] = relationship()
    measurements: Mapped[list["Measurement"]] = relationship(
        back_populates="run", cascade="all, delete-orphan", order_by="Measurement.seq")
    summaries: Mapped[list["Summary"]] = relationship(
        back_populates="run", cascade="all, delete-orphan", order_by="Summary.seq")
    events: Mapped[list["Event"]] = relationship(
        back_populates="run", cascade="all, delete-orphan", order_by="Event.seq")


class Benchmark(Base):
    __tablename__ = "benchmark"
    __table_args__ = (UniqueConstraint("component", "name", name="uq_benchmark"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    component: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(255))


class Measurement(Base):
    """One `result` record: the contract's core fields as columns, the rest in `extra`."""

    __tablename__ = "measurement"
    # The comparison plot reads the rows of a few runs and benchmarks out of millions
    # (migration 0002).
    __table_args__ = (Index("ix_measurement_run_benchmark", "run_id", "benchmark_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"), index=True)
    benchmark_id: Mapped[int] = mapped_column(ForeignKey("benchmark.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    group_index: Mapped[int | None] = mapped_column(Integer, nullable=True)
    mode: Mapped[str | None] = mapped_column(String(32), nullable=True)
    procs: Mapped[int] = mapped_column(Integer)
    bytes: Mapped[int] = mapped_column(BigInteger)
    repetitions: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    t_min_us: Mapped[float | None] = mapped_column(Double, nullable=True)
    t_max_us: Mapped[float | None] = mapped_column(Double, nullable=True)
    t_avg_us: Mapped[float | None] = mapped_column(Double, nullable=True)
    mbytes_per_s: Mapped[float | None] = mapped_column(Double, nullable=True)
    defects: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    extra: Mapped[dict] = mapped_column(JSON)
    # Where the row's buffers were (migration 0006): devices.memory_kinds of a row that has
    # device fields (memory, buffers, accelerator), "through-host" for a staged row; null for
    # a row without them (host memory). Copies of what `extra` holds, for queries.
    send_memory: Mapped[str | None] = mapped_column(String(16), nullable=True)
    recv_memory: Mapped[str | None] = mapped_column(String(16), nullable=True)
    staging: Mapped[str | None] = mapped_column(String(16), nullable=True)

    run: Mapped[Run] = relationship(back_populates="measurements")
    benchmark: Mapped[Benchmark] = relationship()


class Summary(Base):
    __tablename__ = "summary"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    # Index among the file's records (migration 0003); null: after the results.
    position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    record: Mapped[dict] = mapped_column(JSON)

    run: Mapped[Run] = relationship(back_populates="summaries")


class Event(Base):
    """A `skip` or `resume` record, with its index among the file's records (migration 0003)."""

    __tablename__ = "event"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    record: Mapped[dict] = mapped_column(JSON)

    run: Mapped[Run] = relationship(back_populates="events")


class ApiToken(Base):
    """An upload token of the web application: only the SHA-256 of the secret is kept."""

    __tablename__ = "api_token"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(255), unique=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    admin: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class RunGroup(Base):
    """Runs launched as independent repetitions of one command (`run --repeat`), or stored
    runs tied together by `group` (migration 0005, docs/statistics.md)."""

    __tablename__ = "run_group"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    label: Mapped[str] = mapped_column(Text)  # the command as typed, or group --label
    command: Mapped[list | None] = mapped_column(JSON, nullable=True)  # its words
    # The groups of one `run --repeat` share a batch: their launches were shuffled together.
    batch: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    position: Mapped[int | None] = mapped_column(Integer, nullable=True)  # command in batch
    repeat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    shuffled: Mapped[bool] = mapped_column(Boolean, default=False)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    directory: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)

    members: Mapped[list["GroupMember"]] = relationship(
        back_populates="group", cascade="all, delete-orphan", order_by="GroupMember.repetition")


class GroupMember(Base):
    """One launch of a group: planned, ok (its run) or failed (why; the run it left, if any)."""

    __tablename__ = "group_member"
    __table_args__ = (UniqueConstraint("group_id", "repetition", name="uq_group_member"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("run_group.id", ondelete="CASCADE"),
                                          index=True)
    repetition: Mapped[int] = mapped_column(Integer)  # 1..repeat
    launch_order: Mapped[int | None] = mapped_column(Integer, nullable=True)  # in the batch
    status: Mapped[str] = mapped_column(String(16))  # planned, ok, failed
    exit_code: Mapped[int | None] = mapped_column(Integer, nullable=True)
    message: Mapped[str | None] = mapped_column(Text, nullable=True)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("run.id", ondelete="SET NULL"),
                                               nullable=True, index=True)
    json_path: Mapped[str | None] = mapped_column(Text, nullable=True)
    seconds: Mapped[float | None] = mapped_column(Double, nullable=True)

    group: Mapped[RunGroup] = relationship(back_populates="members")
