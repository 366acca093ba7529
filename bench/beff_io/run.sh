#!/bin/sh
# b_eff_io next to dd on the same directory (a performance comparison, not a test).
#   bench/beff_io/run.sh [DIR] [T] [NP]     defaults: /tmp 60 2
#   (OUT=dir keeps the protocol and the JSON Lines file there)
# Prints the b_eff_io value, the time spent outside the pattern types' open..close
# intervals, and what dd reaches with 1 MiB blocks (write with fsync, then read).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${EFFBENCH_BUILD:-$ROOT/build}
DIR=${1:-/tmp}
T=${2:-60}
NP=${3:-2}
MEM=${MEM_PER_PROC:-1024}       # MiB per process -> M_PART = 8 MiB
WORK=$(mktemp -d "$DIR/beff_io_bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
       OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
mkdir "$WORK/files"
start=$(date +%s.%N)
mpiexec.openmpi -n "$NP" "$BUILD/b_eff_io" -T "$T" --mem-per-proc "$MEM" \
    --path "$WORK/files" --json "$WORK/bio.jsonl" > "$WORK/bio.prot"
end=$(date +%s.%N)
if [ -n "${OUT:-}" ]; then mkdir -p "$OUT"; cp "$WORK/bio.prot" "$WORK/bio.jsonl" "$OUT/"; fi
tail -n 1 "$WORK/bio.prot"
grep "total execution time" "$WORK/bio.prot"
python3 - "$WORK/bio.jsonl" "$start" "$end" "$T" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
s = [r for r in recs if r["type"] == "summary"][0]
wall = float(sys.argv[3]) - float(sys.argv[2])
T = float(sys.argv[4])
print(f"b_eff_io = {s['b_eff_io_mb_per_s']:.1f} MB/s on {s['procs']} processes "
      f"(release 2.1 formula: {s['b_eff_io_rel21_mb_per_s']:.1f} MB/s)")
for p in s["partitions"]:
    print(f"  n={p['procs']}: write {p['write_mb_per_s']:.1f}  rewrite {p['rewrite_mb_per_s']:.1f}"
          f"  read {p['read_mb_per_s']:.1f} MB/s, {p['write_bytes'] / 1e6:.0f} MB per access method")
print(f"program: {s['elapsed_s']:.2f} s, of which {s['measured_s']:.2f} s open..close of the "
      f"pattern types: {s['elapsed_s'] - s['measured_s']:.2f} s "
      f"({100 * (s['elapsed_s'] - s['measured_s']) / s['elapsed_s']:.1f} %) outside")
# the time-driven phase: each partition's write is scheduled T_partition / 3
tp = s["T_partition_s"]
for n in [p["procs"] for p in s["partitions"]]:
    wt = sum(r["t_us"] for r in recs if r["type"] == "result" and r["level"] == "type"
             and r["procs"] == n and r["access"] == "write") / 1e6
    ot = {a: sum(r["t_us"] for r in recs if r["type"] == "result" and r["level"] == "type"
                 and r["procs"] == n and r["access"] == a) / 1e6 for a in ("rewrite", "read")}
    print(f"  n={n}: write phase {wt:.2f} s for {tp / 3:.2f} s scheduled ({100 * (wt - tp / 3) / (tp / 3):+.1f} %),"
          f" rewrite {ot['rewrite']:.2f} s, read {ot['read']:.2f} s")
print(f"wall clock incl. mpiexec start-up: {wall:.2f} s for T = {T:g} s "
      f"({100 * (wall - T) / T:+.1f} % vs T)")
PY
# dd with 1 MiB blocks on the same directory, 2 GiB, write (fsync at the end) then read.
sync
dd if=/dev/zero of="$WORK/dd.bin" bs=1M count=2048 conv=fsync 2>&1 | tail -n 1 | sed 's/^/dd write (1 MiB, fsync): /'
dd if="$WORK/dd.bin" of=/dev/null bs=1M 2>&1 | tail -n 1 | sed 's/^/dd read  (1 MiB, page cache): /'
