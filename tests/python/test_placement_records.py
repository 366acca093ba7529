"""The validator on the run record's placement fields (docs/placement.md): each rank's cores,
sockets and NUMA nodes are null or lists of integers >= 0, expect_placement one of four."""
from effbench.validate import record_problems

RUN = {"type": "run", "schema": 1, "tool": "effbench", "component": "osu", "procs": 2,
       "hosts": [{"name": "vm", "ranks": [0, 1]}], "command_line": ["osu_latency"],
       "placement": [{"rank": 0, "host": "vm", "cpus": "0", "numa": 0, "cpu": 0, "cores": [0],
                      "sockets": [0], "numa_nodes": [0]},
                     {"rank": 1, "host": "vm", "cpus": "0-1", "numa": 1, "cpu": 1,
                      "cores": [0, 1], "sockets": [0, 1], "numa_nodes": None}],
       "topology": {"hwloc": "2.9.0", "source": "synthetic: pack:2 numa:1 core:1 pu:1",
                    "packages": 2, "numa_nodes": 2, "cores": 2, "pus": 2},
       "expect_placement": "same-node", "network": {}}


def with_(**changes):
    rec = {**RUN, "placement": [dict(p) for p in RUN["placement"]]}
    rec.update(changes)
    return rec


def test_a_placed_run_is_valid():
    assert record_problems(RUN) == []
    assert record_problems(with_(expect_placement=None, topology=None)) == []


def test_bad_placement_fields_are_named():
    rec = with_()
    rec["placement"][1]["sockets"] = [0, -1]
    rec["placement"][0]["cores"] = "0"
    assert record_problems(rec) == [
        "placement[0].cores: expected null or a list of integers >= 0",
        "placement[1].sockets: expected null or a list of integers >= 0"]
    assert record_problems(with_(expect_placement="same-rack")) == [
        "expect_placement: 'same-rack' is none of same-node, different-nodes, same-socket, "
        "different-sockets, different-gpus"]
    assert record_problems(with_(network=[])) == ["network: expected dict, found []"]
