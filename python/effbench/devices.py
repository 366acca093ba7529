"""Where a run's buffers lived and which devices it used (issue 42; docs/gpu-results.md): the
words of the records' device fields, the run record's `devices` as people read them, and the
part of a row's identity that says host or device memory, so that a host-buffer figure is
never matched with a device-buffer one.

The CUDA driver double of the tests (tests/support/cuda_double.c, loaded through
EFFBENCH_LIBCUDA) is no GPU: its device memory is host memory. A device whose `library` is the
double's file is shown as the double wherever a device is named (list, report, compare, the
web pages)."""

from __future__ import annotations

import re
from typing import Any

# The run record's devices[].accel and OSU's -d words.
ACCELERATORS = ("cuda", "rocm", "level_zero", "openacc")
# A buffer's memory (src/core/device.h, eb_mem_kind): malloc'd host memory, device memory,
# managed (unified) memory, page-locked host memory.
MEMORY_KINDS = ("host", "device", "managed", "pinned")
# Only in imported records: an IMB-MPI1-GPU text that does not say where its buffers were.
UNKNOWN = "unknown"
IMPORTED_KINDS = MEMORY_KINDS + (UNKNOWN,)
STAGING = ("through-host",)
STAGING_WORDS = {"through-host": "staged through the host"}
# OSU's buffer letters (OSU 7.4 osu_util.c): H host, D device, M managed (MH / MD: managed
# memory whose preferred location is the host / the device).
OSU_LETTERS = {"H": "host", "D": "device", "M": "managed", "MH": "managed", "MD": "managed"}
# IMB-MPI1-GPU's -mem_alloc_type (IMB 2021.11 IMB_cuda.c): cpu malloc, device cudaMalloc,
# host cudaMallocHost (page-locked), shared cudaMallocManaged.
MEM_ALLOC_TYPES = {"cpu": "host", "device": "device", "host": "pinned", "shared": "managed"}

# devcopy, the host-device copy bandwidth (as CUDA's bandwidthTest and nvbandwidth).
DEVCOPY_BENCHMARKS = ("host_to_device", "device_to_host", "device_to_device")
DEVCOPY_HOST_MEMORY = ("pinned", "pageable")

# A result row's fields that say where its buffers were (OSU imports: accelerator, buffers).
DEVICE_FIELDS = ("memory", "buffers", "accelerator")

DOUBLE_LIBRARY = "libeb_cuda_double"
DOUBLE_NOTE = "CUDA driver double, not a GPU"


def is_double(device: dict[str, Any]) -> bool:
    """Whether a devices[] entry is the tests' CUDA driver double (by the library loaded)."""
    return DOUBLE_LIBRARY in str(device.get("library") or "")


def device_name(device: dict[str, Any]) -> str:
    """The device's name as people should read it: the double says so plainly."""
    name = str(device.get("name") or "unnamed device")
    if is_double(device):
        return f"{name} [{DOUBLE_NOTE}]" if "double" in name.lower() \
            else f"{name} [{DOUBLE_NOTE}: {device.get('library')}]"
    return name


def devices_label(devices: Any) -> str | None:
    """One line for a run's devices: their distinct names in rank order, joined by " + ",
    with a count where several ranks share one model ("2 x NVIDIA H100 80GB HBM3"; the
    double's devices, "effbench CUDA driver double 0", "... 1", as one model); None for a run
    without devices."""
    if not isinstance(devices, list) or not devices:
        return None
    counts: dict[str, int] = {}
    for dev in devices:
        if isinstance(dev, dict):
            name = device_name({**dev, "name": re.sub(r" \d+$", "", str(dev.get("name")))}
                               if is_double(dev) and dev.get("name") else dev)
            counts[name] = counts.get(name, 0) + 1
    return " + ".join(f"{n} x {name}" if n > 1 else name for name, n in counts.items()) or None


def driver_version(value: Any) -> str | None:
    """cuDriverGetVersion's integer as CUDA writes it: 12040 -> "12.4"."""
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        return None
    return f"{value // 1000}.{value % 1000 // 10}"


def device_lines(devices: Any) -> list[str]:
    """One line per rank: "rank 0 on node1: NVIDIA H100 80GB HBM3, bus 0000:19:00.0,
    80.0 GiB, CUDA driver 12.4, device 0 of 4 (CUDA_VISIBLE_DEVICES=2,3)"."""
    out = []
    for dev in devices if isinstance(devices, list) else []:
        if not isinstance(dev, dict):
            continue
        facts = [device_name(dev)]
        if dev.get("pci_bus_id"):
            facts.append(f"bus {dev['pci_bus_id']}")
        if isinstance(dev.get("memory_bytes"), int) and dev["memory_bytes"] > 0:
            facts.append(f"{dev['memory_bytes'] / 2**30:.1f} GiB")
        if driver_version(dev.get("driver_version")):
            facts.append(f"{str(dev.get('accel') or '').upper()} driver "
                         f"{driver_version(dev['driver_version'])}".strip())
        if dev.get("ordinal") is not None:
            facts.append(f"device {dev['ordinal']}"
                         + (f" of {dev['count']}" if dev.get("count") is not None else ""))
        if dev.get("visible_devices"):
            facts.append(f"CUDA_VISIBLE_DEVICES={dev['visible_devices']}")
        out.append(f"rank {dev.get('rank')} on {dev.get('host') or '?'}: " + ", ".join(facts))
    return out


def memory_kinds(rec: dict[str, Any]) -> tuple[str, str]:
    """(send, receive) memory of a result row: its "memory"; else, for OSU rows imported
    before "memory" existed, their buffer letters or accelerator (OSU's collectives under -d
    put every buffer on the device); else host memory, which a row without device fields had."""
    memory = rec.get("memory")
    if isinstance(memory, dict):
        return (memory.get("send") or "host", memory.get("recv") or "host")
    buffers = rec.get("buffers")
    if isinstance(buffers, str) and len(buffers.split()) == 2:
        send, recv = buffers.split()
        return OSU_LETTERS.get(send, UNKNOWN), OSU_LETTERS.get(recv, UNKNOWN)
    accelerator = rec.get("accelerator")
    if accelerator:
        kind = "managed" if "managed" in str(accelerator) else "device"
        return kind, kind
    return "host", "host"


def device_identity(rec: dict[str, Any]) -> tuple:
    """The part of a row's identity (records.identity_key) that says where its buffers were:
    the send and receive memory, the staging method, and for managed memory OSU's letters
    where the row has them (MH and MD advise different locations: imported OSU text's rows of
    managed memory meet only rows of the same letters)."""
    send, recv = memory_kinds(rec)
    managed = "managed" in (send, recv)
    return (send, recv, rec.get("staging"), rec.get("buffers") if managed else None)


def memory_label(rec: dict[str, Any]) -> str:
    """"" for a host-memory row; else e.g. "device->device memory", "host->device memory,
    staged through host", "MH->MD managed memory"."""
    send, recv, staging, letters = device_identity(rec)
    if (send, recv, staging) == ("host", "host", None):
        return ""
    if letters:
        text = f"{'->'.join(letters.split())} memory"
    else:
        text = f"{send}->{recv} memory"
    return text + (f", {STAGING_WORDS.get(staging, staging)}" if staging else "")


def run_memory(results: list[dict[str, Any]]) -> str:
    """The memory kinds of a run's rows, as "host->host" or "device->device" (several:
    joined by ", "), for compare's line about what each side measured."""
    seen: list[str] = []
    for rec in results:
        if rec.get("component") == "devcopy":  # copies between kinds: their own benchmark
            continue
        send, recv, staging, _ = device_identity(rec)
        word = f"{send}->{recv}" + (f" {STAGING_WORDS.get(staging, staging)}" if staging
                                    else "")
        if word not in seen:
            seen.append(word)
    return ", ".join(seen) or "no rows"
