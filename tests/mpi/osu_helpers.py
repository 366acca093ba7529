"""Helpers for the tests of the OSU personality (osu_latency, ...): OSU 7.4's
text parsed into tables, numbers masked for format comparisons."""
import re


# a column line: with a size column, or one of the size-less ones (the barriers)
HEADER = re.compile(r"^# (Size|Avg Latency\(us\)|Overall\(us\)|\s*MB/s)")


def parse_osu(text):
    """OSU text -> {"title": str, "lines": [comment lines], "tables": [{"datatype": str|None,
    "header": str (the column line), "columns": [titles], "rows": [[str]]}]}."""
    out = {"title": None, "lines": [], "tables": []}
    datatype = None
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith("# OSU ") and out["title"] is None:
            out["title"] = line
            continue
        m = re.match(r"^# Datatype: (\S+)\.$", line)
        if m:
            datatype = m.group(1)
            continue
        if HEADER.match(line):
            out["tables"].append({"datatype": datatype, "header": line,
                                  "columns": columns_of(line), "rows": []})
            continue
        if line.startswith("#"):
            out["lines"].append(line)
            continue
        if out["tables"]:
            out["tables"][-1]["rows"].append(line.split())
    return out


def columns_of(header):
    """Column titles of an OSU column line: fields are separated by 2+ spaces
    ("# Size", "Avg Latency(us)", ...)."""
    return [c for c in re.split(r"\s{2,}", header.strip()) if c]


def rows_as_dicts(table):
    """[{column title: value}] for a table whose first column is "# Size"."""
    cols = table["columns"]
    return [dict(zip(cols, r)) for r in table["rows"]]


NUMBER = re.compile(r"[ \t]*-?\d+(\.\d+)?")


def mask_numbers(text):
    """Every number, with the blanks before it, replaced by blanks and "N"
    (decimals kept as "d"s) of the same total width, so two outputs that differ
    only in values compare equal while widths and precision still count."""
    def repl(m):
        tail = "." + "d" * (len(m.group(1)) - 1) if m.group(1) else ""
        return " " * (len(m.group(0)) - len(tail) - 1) + "N" + tail
    return NUMBER.sub(repl, text)


def osu_names(pred=lambda b: True):
    """The OSU programs of effbench's listing (the descriptors) that pred accepts."""
    from effb import listed
    return [b["name"] for b in listed(component="osu") if pred(b)]


def persistent_collective(b):
    return any(n.startswith("MPI_Allreduce_init") for n in b["needs"])


def blocking_collective(b):
    return (b["class"] == "collective" and not persistent_collective(b)
            and not b["name"].startswith("osu_i") and "neighbor" not in b["name"])
