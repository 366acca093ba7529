"""The verdict as JUnit XML, the test report format GitLab, Jenkins and GitHub display: one
<testsuite> for the profile, one <testcase> per check, a <failure> for a failed check whose
message is the verdict line, the repetitions in <system-out> (docs/acceptance.md)."""

from __future__ import annotations

import socket
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from pathlib import Path

from .verdict import CheckVerdict, describe, rep_lines


def failure_type(v: CheckVerdict) -> str:
    if v.over_budget:
        return "over time budget"
    if v.measured is None:
        return "no measurement"
    return "below threshold" if v.check.higher_is_better else "above threshold"


def junit_xml(profile_name: str, source: str, verdicts: list[CheckVerdict]) -> bytes:
    failures = sum(1 for v in verdicts if not v.passed)
    total = sum(v.elapsed_s for v in verdicts)
    suites = ET.Element("testsuites", name="effbench acceptance", tests=str(len(verdicts)),
                        failures=str(failures), errors="0", time=f"{total:.3f}")
    suite = ET.SubElement(suites, "testsuite", name=profile_name, tests=str(len(verdicts)),
                          failures=str(failures), errors="0", skipped="0", time=f"{total:.3f}",
                          timestamp=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S"),
                          hostname=socket.gethostname())
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", name="profile", value=source)
    for v in verdicts:
        case = ET.SubElement(suite, "testcase", name=v.check.name,
                             classname=f"effbench.accept.{profile_name}",
                             time=f"{v.elapsed_s:.3f}")
        line = describe(v)
        if not v.passed:
            fail = ET.SubElement(case, "failure", message=line, type=failure_type(v))
            fail.text = line
        out = ET.SubElement(case, "system-out")
        out.text = "\n".join([line, f"command: {' '.join(v.check.words)}"] + rep_lines(v))
    ET.indent(suites)
    return ET.tostring(suites, encoding="utf-8", xml_declaration=True) + b"\n"


def write_junit(path: Path, profile_name: str, source: str,
                verdicts: list[CheckVerdict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(junit_xml(profile_name, source, verdicts))
