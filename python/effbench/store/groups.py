"""Groups of runs in the store (migration 0005, docs/statistics.md): the launches of
`run --repeat` recorded one by one as they end, and groups made of stored runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from .db import Store, StoreError
from .models import GroupMember, Run, RunGroup

PLANNED, OK, FAILED = "planned", "ok", "failed"


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


@dataclass
class Member:
    repetition: int
    launch_order: int | None
    status: str
    exit_code: int | None
    message: str | None
    run_id: int | None
    json_path: str | None
    seconds: float | None


@dataclass
class Group:
    id: int
    label: str
    command: list[str] | None
    batch: str | None
    position: int | None
    repeat: int | None
    shuffled: bool
    seed: int | None
    directory: str | None
    created_at: datetime
    members: list[Member] = field(default_factory=list)

    @property
    def ok_runs(self) -> list[int]:
        """The runs of the launches that ended well, in repetition order."""
        return [m.run_id for m in self.members if m.status == OK and m.run_id is not None]

    def count(self, status: str) -> int:
        return sum(1 for m in self.members if m.status == status)


def plan_batch(store: Store, commands: list[list[str]], labels: list[str], repeat: int,
               order: list[tuple[int, int]], shuffled: bool, seed: int | None,
               directory: str, batch: str) -> list[int]:
    """One group per command, each with REPEAT planned launches numbered by their place in
    ORDER ((command index, repetition) pairs, as they will run); committed before the first
    launch, so that an interrupted batch still shows what ran and what did not."""
    place = {pair: i + 1 for i, pair in enumerate(order)}
    with store.sessions.begin() as session:
        groups = []
        for index, (words, label) in enumerate(zip(commands, labels)):
            group = RunGroup(label=label, command=list(words), batch=batch, position=index + 1,
                             repeat=repeat, shuffled=shuffled, seed=seed, directory=directory,
                             created_at=_now())
            for rep in range(1, repeat + 1):
                group.members.append(GroupMember(repetition=rep,
                                                 launch_order=place[(index, rep)],
                                                 status=PLANNED))
            session.add(group)
            groups.append(group)
        session.flush()
        return [g.id for g in groups]


def record_launch(store: Store, group_id: int, repetition: int, *, status: str,
                  run_id: int | None = None, exit_code: int | None = None,
                  message: str | None = None, json_path: str | None = None,
                  seconds: float | None = None) -> None:
    """What one launch gave, committed at once (the launches before it stay recorded
    whatever happens to the ones after)."""
    with store.sessions.begin() as session:
        member = session.scalar(select(GroupMember).where(
            GroupMember.group_id == group_id, GroupMember.repetition == repetition))
        if member is None:
            raise StoreError(f"group {group_id} has no repetition {repetition}")
        member.status, member.run_id, member.exit_code = status, run_id, exit_code
        member.message, member.json_path, member.seconds = message, json_path, seconds


def make_group(store: Store, run_ids: list[int], label: str) -> int:
    """A group of stored runs (each once), as if they were launched as its repetitions."""
    if len(set(run_ids)) != len(run_ids):
        raise StoreError("a run is named twice: each run is one independent launch")
    with store.sessions.begin() as session:
        group = RunGroup(label=label, shuffled=False, created_at=_now())
        for rep, run_id in enumerate(run_ids, start=1):
            group.members.append(GroupMember(repetition=rep, status=OK, run_id=run_id))
        session.add(group)
        session.flush()
        return group.id


def delete_group(store: Store, group_id: int) -> None:
    """Drop a group (not its runs): `group` undoes a group its runs do not fit."""
    with store.sessions.begin() as session:
        group = session.get(RunGroup, group_id)
        if group is not None:
            session.delete(group)


def _as_group(g: RunGroup) -> Group:
    return Group(g.id, g.label, g.command, g.batch, g.position, g.repeat, g.shuffled, g.seed,
                 g.directory, g.created_at,
                 [Member(m.repetition, m.launch_order, m.status, m.exit_code, m.message,
                         m.run_id, m.json_path, m.seconds) for m in g.members])


def load_group(store: Store, group_id: int) -> Group:
    with store.sessions() as session:
        g = session.scalar(select(RunGroup).where(RunGroup.id == group_id)
                           .options(selectinload(RunGroup.members)))
        if g is None:
            raise StoreError(f"no group {group_id} in {store.display_url}")
        return _as_group(g)


def list_groups(store: Store) -> list[Group]:
    with store.sessions() as session:
        return [_as_group(g) for g in session.scalars(
            select(RunGroup).options(selectinload(RunGroup.members)).order_by(RunGroup.id))]


def resolve_group(store: Store, ref: str) -> int:
    """`group:N` or N: a group's id."""
    text = ref[len("group:"):] if ref.startswith("group:") else ref
    if not text.isdigit() or int(text) >= 2**31:
        raise StoreError(f"'{ref}' is not a group: expected group:N (a group's id)")
    return load_group(store, int(text)).id


def existing_runs(store: Store, run_ids: list[int]) -> set[int]:
    with store.sessions() as session:
        return set(session.scalars(select(Run.id).where(Run.id.in_(run_ids))))


def group_count(store: Store) -> int:
    with store.sessions() as session:
        return session.scalar(select(func.count()).select_from(RunGroup))


def describe_members(group: Group, why: bool = True) -> str:
    """`6 launches: 5 ok, 1 failed (repetition 4: exit status 3)` (WHY: with the reasons)."""
    parts = [f"{group.count(OK)} ok"]
    failed = [m for m in group.members if m.status == FAILED]
    if failed and not why:
        parts.append(f"{len(failed)} failed")
    elif failed:
        parts.append(f"{len(failed)} failed (" + "; ".join(
            f"repetition {m.repetition}: {m.message or 'failed'}" for m in failed) + ")")
    if group.count(PLANNED):
        parts.append(f"{group.count(PLANNED)} not launched")
    return f"{len(group.members)} launches: " + ", ".join(parts)


def group_record(group: Group) -> dict[str, Any]:
    """The group as JSON (summary --json's first line)."""
    return {"type": "group", "id": group.id, "label": group.label, "command": group.command,
            "batch": group.batch, "repeat": group.repeat, "shuffled": group.shuffled,
            "seed": group.seed, "runs": group.ok_runs,
            "launches": [{"repetition": m.repetition, "launch_order": m.launch_order,
                          "status": m.status, "exit_code": m.exit_code, "message": m.message,
                          "run": m.run_id} for m in group.members]}
