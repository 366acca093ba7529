"""The components' names (docs/architecture.md, "Component names"): one identifier each,
[a-z][a-z0-9_]*, the same word on the command line (`effbench NAME`), in the listing, in every
JSON record's "component" and here. The C program's copy is src/core/component_names.h.

Two components had other spellings before the rule; a record or command line that still uses
one means the current name (`current_name`), so old files and stored runs keep working."""

from __future__ import annotations

from typing import Any

# IMB's programs IMB-X: x in lower case.
MPI1, EXT, IO, NBC, RMA, MPI4, MT, P2P = "mpi1", "ext", "io", "nbc", "rma", "mpi4", "mt", "p2p"
# The other tools', and effbench's own.
BEFF, BEFF_IO, SKAMPI, OSU, REPROMPI = "beff", "beff_io", "skampi", "osu", "reprompi"
NODES, QUICK, GUIDELINES = "nodes", "quick", "guidelines"
# effbench explain: one operation under every method (docs/methods.md)
EXPLAIN = "explain"
# effbench devcopy: host-device copy bandwidth (docs/gpu.md)
DEVCOPY = "devcopy"

# The IMB families that share IMB's driver and table (IMB-P2P and IMB-MT have their own).
IMB_FAMILIES = (MPI1, EXT, IO, NBC, RMA, MPI4)
# Components whose records carry a "component" (quick runs an IMB family and writes its name).
COMPONENTS = (*IMB_FAMILIES, BEFF, BEFF_IO, SKAMPI, NODES, OSU, P2P, MT, REPROMPI, EXPLAIN, GUIDELINES,
              DEVCOPY)

# Spelling before the naming rule -> the name now. beff_io's records always said beff_io; only
# its command-line word was beff-io.
OLD_SPELLINGS = {"imb-p2p": P2P, "beff-io": BEFF_IO}
# Record types that carry a "component" field.
_NAMED_TYPES = ("run", "result", "summary", "skip", "resume", "end")


def current_name(name: Any) -> Any:
    """The current name of a component spelled `name`; anything else unchanged."""
    return OLD_SPELLINGS.get(name, name) if isinstance(name, str) else name


def hash_spelling(name: str) -> str:
    """How a run's content hash spells a component: the spelling before the rule, so that the
    hashes of runs stored before it still identify them (records.ParsedRun.content_hash)."""
    return _HASHED_AS.get(name, name)


# Only the records' spellings: beff_io's records always said beff_io (beff-io was a command word).
_HASHED_AS = {P2P: "imb-p2p"}


def normalise_record(rec: Any) -> Any:
    """A record (dict) with an old spelling of its "component" replaced, in place."""
    if isinstance(rec, dict) and rec.get("type") in _NAMED_TYPES and "component" in rec:
        rec["component"] = current_name(rec["component"])
    return rec
