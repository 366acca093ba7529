"""device columns (issue 42): the devices a run used and its accelerator; where each row's
buffers were (send and receive memory) and whether it was staged through the host

Revision ID: 0006
Revises: 0005
"""

import re

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

# Written out, not imported: a migration keeps meaning what it meant when it was written
# (effbench.devices.devices_label and memory_kinds as of this revision).
DOUBLE_LIBRARY, DOUBLE_NOTE = "libeb_cuda_double", "CUDA driver double, not a GPU"
LETTERS = {"H": "host", "D": "device", "M": "managed", "MH": "managed", "MD": "managed"}

run = sa.table("run", sa.column("id", sa.Integer), sa.column("run_record", sa.JSON),
               sa.column("device", sa.String), sa.column("accelerator", sa.String))
measurement = sa.table("measurement", sa.column("id", sa.Integer),
                       sa.column("extra", sa.JSON), sa.column("send_memory", sa.String),
                       sa.column("recv_memory", sa.String), sa.column("staging", sa.String))


def _device_name(dev):
    name = str(dev.get("name") or "unnamed device")
    if DOUBLE_LIBRARY in str(dev.get("library") or ""):
        return f"{name} [{DOUBLE_NOTE}]" if "double" in name.lower() \
            else f"{name} [{DOUBLE_NOTE}: {dev.get('library')}]"
    return name


def _label(devices):
    counts = {}
    for dev in devices:
        if isinstance(dev, dict):
            if DOUBLE_LIBRARY in str(dev.get("library") or "") and dev.get("name"):
                dev = {**dev, "name": re.sub(r" \d+$", "", str(dev["name"]))}
            counts[_device_name(dev)] = counts.get(_device_name(dev), 0) + 1
    text = " + ".join(f"{n} x {name}" if n > 1 else name for name, n in counts.items())
    return text[:255] or None


def _kinds(extra):
    memory = extra.get("memory")
    if isinstance(memory, dict):
        return memory.get("send") or "host", memory.get("recv") or "host"
    buffers = extra.get("buffers")
    if isinstance(buffers, str) and len(buffers.split()) == 2:
        return tuple(LETTERS.get(b, "unknown") for b in buffers.split())
    kind = "managed" if "managed" in str(extra.get("accelerator")) else "device"
    return kind, kind


def upgrade() -> None:
    # Plain ADD COLUMN, never a batch copy of `run` (migration 0002 says why).
    op.add_column("run", sa.Column("device", sa.String(255), nullable=True))
    op.add_column("run", sa.Column("accelerator", sa.String(16), nullable=True))
    op.create_index("ix_run_device", "run", ["device"])
    for name in ("send_memory", "recv_memory", "staging"):
        op.add_column("measurement", sa.Column(name, sa.String(16), nullable=True))
    bind = op.get_bind()
    for rid, rec in bind.execute(sa.select(run.c.id, run.c.run_record)).all():
        devices = (rec or {}).get("devices")
        if isinstance(devices, list) and devices:
            accels = sorted({str(d.get("accel")) for d in devices
                             if isinstance(d, dict) and d.get("accel")})
            bind.execute(run.update().where(run.c.id == rid).values(
                device=_label(devices), accelerator=",".join(accels)[:16] or None))
    # Only rows whose extra fields name a device field can hold one: the text of the JSON is
    # searched on both backends, the few rows found are decoded here.
    text = sa.cast(measurement.c.extra, sa.Text)
    found = bind.execute(sa.select(measurement.c.id, measurement.c.extra).where(sa.or_(
        text.like('%"memory"%'), text.like('%"buffers"%'), text.like('%"accelerator"%'),
        text.like('%"staging"%')))).all()
    for mid, extra in found:
        extra = extra or {}
        if not any(k in extra for k in ("memory", "buffers", "accelerator", "staging")):
            continue
        send, recv = _kinds(extra) if any(
            k in extra for k in ("memory", "buffers", "accelerator")) else (None, None)
        bind.execute(measurement.update().where(measurement.c.id == mid).values(
            send_memory=send, recv_memory=recv, staging=extra.get("staging")))


def downgrade() -> None:
    # effbench only upgrades; on SQLite this batch copy of `run` must run with
    # PRAGMA foreign_keys=OFF, or dropping the old table deletes the measurements.
    with op.batch_alter_table("measurement") as batch:
        for name in ("staging", "recv_memory", "send_memory"):
            batch.drop_column(name)
    op.drop_index("ix_run_device", "run")
    with op.batch_alter_table("run") as batch:
        batch.drop_column("accelerator")
        batch.drop_column("device")
