#!/usr/bin/python3
"""Checks spvsim check's JUnit XML (check_shards_parallel_test.sh): argv[1] the XML of the
`sizes` kernel checked against a reference that holds its result at sub-group size 8,
argv[2] the `--list` of that launch. Expected by hand: 15 configurations (sizes 8, 16, 32 x
round-robin, random:1..3 and round-robin built at -O0); the 8 runs at sizes 16 and 32 built
as asked fail with expect-mismatch; the -O0 build's runs are not judged."""
import re
import sys
import xml.etree.ElementTree as ET


def main():
    root = ET.parse(sys.argv[1]).getroot()
    listed = [line.split()[0] for line in open(sys.argv[2]) if line.strip()]
    assert root.tag == "testsuites", root.tag
    suites = list(root)
    assert len(suites) == 1 and suites[0].tag == "testsuite", suites
    suite = suites[0]
    assert suite.get("tests") == "15", suite.attrib
    assert suite.get("failures") == "8", suite.attrib
    cases = suite.findall("testcase")
    assert len(cases) == 15, len(cases)
    name = re.compile(
        r"^([0-9a-f]{16}) \(sub-group size (8|16|32), (round-robin|random:[123])(, -O0 build)?\)$")
    ids = []
    for case in cases:
        m = name.match(case.get("name"))
        assert m, case.get("name")
        ids.append(m.group(1))
        failure = case.find("failure")
        out = case.find("system-out")
        if m.group(2) == "8" or m.group(4):
            assert failure is None and out is None, ET.tostring(case)
        else:
            assert failure is not None and failure.get("message") == "expect-mismatch", ET.tostring(case)
            assert "error: expect-mismatch: " in out.text, out.text
            assert "warning: sub-group-size-dependent: " in out.text, out.text
    assert ids == listed, (ids, listed)
    print("JUnit XML: 15 test cases, 8 failures, ids as --list gives them")


if __name__ == "__main__":
    main()
