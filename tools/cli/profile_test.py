"""`spvsim run --profile / --profile-json` against hand-worked counts.

Kernel DIVERGE runs 8 work-items in one work-group with sub-groups of 4, so each sub-group
holds lanes with i % 4 = 0, 1, 2, 3:
- `if (lane < 2)` is taken by lanes 0-1 of each sub-group: the taken side runs with 2 of
  4 lanes (utilisation 50%), and the branch splits the mask once per sub-group (2 in all);
- the loop runs lane + 1 times (1, 2, 3, 4): its body runs 4 times per sub-group with 4, 3,
  2, 1 lanes (10 lane executions of 16: 62.5%); the loop's branch splits when one lane
  leaves and others stay: after iterations 1, 2 and 3 of each sub-group (6 in all);
- memory: `in` is read by lanes 0-1 (4 reads) and by every loop iteration (2 * 10 = 20),
  4 bytes each; `out` is written once per work-item (8 writes).
Kernel BARRIER (2 work-groups of 8, sub-groups of 4) has each sub-group run, wait at the
barrier, run again and finish; it writes and reads the local buffer once per work-item.

Kernel STRIDED reads `in[i * S]` (floats) in sub-groups of 16: each sub-group execution
requests 16 x 4 = 64 bytes. S = 1: one 64-byte line (efficiency 100%); S = 2: lanes 8 bytes
apart span 128 bytes, two lines (50%); S = 16: lanes 64 bytes apart, a line each, 16 lines
(64 / 1024 = 6.25%). The store to `out[i]` is 100% in every case.
Kernel BANKS writes and reads `tile[l * S]` in local memory (32 banks of 4-byte words): S = 1
puts the 16 lanes in 16 banks (degree 1); S = 32 puts them all in bank 0 (degree 16, the
sub-group size; a sub-group of 8 lanes: 8); with --profile-banks 8, S = 1 puts two of the 16
consecutive words in each bank (degree 2).
Kernel ASYNC copies 64 floats per work-group with async_work_group_copy: one execution of the
copy per work-group, 256 bytes in 4 lines (100%), and no conflict degree for its local side.
Kernel ACTIVE (sub-groups of 8, -O0) runs the body of `if (lane < 3)` with 3 of 8 lanes
(37.5%) and the inner `if (lane == 0)` with 1 of 8 (12.5%, the lowest line).
Kernel SPREAD on --threads 2: two timeline rows whose work-groups partition the launch.

Totals must equal `--stats` of the same launch and of a launch without profiling. The HTML
must parse and hold a row per instruction and per executed line, and one SVG rect per
timeline segment. The page is also rendered in headless Chromium (Debian's `chromium`, which
tools/setup-debian.sh installs): the DOM it builds holds the timeline's rects, and a
screenshot shows the timeline's colours. Without Chromium the check says it skipped, or
fails where SPVSIM_REQUIRE_TEST_TOOLS=1 (tools/test.sh, CI's command, sets it).
"""

import html.parser
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SPVSIM = os.path.abspath("tools/spvsim")

DIVERGE = """kernel void k(global int *out, global const int *in) {
  size_t i = get_global_id(0);
  int lane = (int)(i % 4);  /* <script>alert(1)</script> & "quotes" */
  int acc = 0;
  if (lane < 2) {
    acc = in[i] * 3;
  }
  for (int j = 0; j <= lane; j++) {
    acc += in[j];
  }
  out[i] = acc;
}
"""
IF_LINE, TAKEN_LINE, LOOP_LINE, BODY_LINE = 5, 6, 8, 9

BARRIER = """kernel void b(global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = (int)l * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(l + 1) % get_local_size(0)];
}
"""

# One OpSwitch (at -O0) sends lane 0 to case 0, lane 1 to case 1, lanes 2-3 to the default:
# one split per sub-group, cases at 1, 1 and 2 of 4 lanes.
SWITCH = """kernel void s(global int *out) {
  int lane = (int)(get_global_id(0) % 4);
  int v;
  switch (lane) {
    case 0: v = 10; break;
    case 1: v = 20; break;
    default: v = 30; break;
  }
  out[get_global_id(0)] = v;
}
"""

STRIDED = """kernel void strided(global float *out, global const float *in, int s) {
  size_t i = get_global_id(0);
  out[i] = in[i * s];
}
"""

BANKS = """kernel void banks(global float *out, local float *tile, int s) {
  size_t l = get_local_id(0);
  tile[l * s] = (float)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[l * s];
}
"""

ACTIVE = """kernel void active(global int *out) {
  int lane = (int)(get_global_id(0) % 8);
  int v = lane;
  if (lane < 3) {
    v = v * 7 + 1;
    if (lane == 0) {
      v = v * 5 + 2;
    }
  }
  out[get_global_id(0)] = v;
}
"""
THREE_LINE, ONE_LINE = 5, 7

# async_work_group_copy of 64 floats per work-group: one execution per work-group, 256
# bytes in 4 lines (100%); its local side has no conflict degree (no sub-group's access).
ASYNC = """kernel void acopy(global float *out, global const float *in, local float *tile) {
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 64, 64, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)] * 2.0f;
}
"""

SPREAD = """kernel void spread(global int *out, int n) {
  int acc = 0;
  for (int j = 0; j < n; j++) acc += j ^ (int)get_global_id(0);
  out[get_global_id(0)] = acc;
}
"""

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def spvsim(*args, expect=0):
    r = subprocess.run([SPVSIM, *args], capture_output=True, text=True)
    if r.returncode != expect:
        sys.exit(f"spvsim {' '.join(args)} exited {r.returncode}:\n{r.stderr}")
    return r


def stats(stderr):
    m = re.search(r"(\d+) sub-group instructions, (\d+) lane instructions", stderr)
    return int(m.group(1)), int(m.group(2))


class Page(html.parser.HTMLParser):
    """Counts the rows and SVG rects of the page, and keeps table cells' text."""

    def __init__(self):
        super().__init__()
        self.rows = {}      # tr class -> [[cell text]]
        self.rects = {}     # rect class -> count
        self.ids = {}       # element id -> text
        self.external = []  # anything the page would fetch
        self._row = None
        self._cell = None
        self._id = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for name in ("src", "href"):
            if name in a:
                self.external.append(a[name])
        if tag == "link":
            self.external.append(str(a))
        if tag == "tr":
            self._row = []
            self.rows.setdefault(a.get("class", ""), []).append(self._row)
        elif tag == "td" and self._row is not None:
            self._cell = []
            self._row.append(self._cell)
        elif tag == "rect":
            self.rects[a.get("class", "")] = self.rects.get(a.get("class", ""), 0) + 1
        if "id" in a:
            self._id = a["id"]
            self.ids[self._id] = ""

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None and self._row is not None:
            self._row[-1] = "".join(self._cell)
            self._cell = None
        if tag == "tr":
            self._row = None
        if tag in ("td", "section"):
            self._id = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._id is not None:
            self.ids[self._id] += data


def line_rows(launch):
    return {l["line"]: l for l in launch["lines"]}


def check_totals(launch, profiled_stderr, plain_stderr, name):
    steps, lanes = stats(profiled_stderr)
    check(stats(plain_stderr) == (steps, lanes), f"{name}: --stats differ with --profile")
    check(launch["sub_group_instructions"] == steps, f"{name}: sub-group instructions != --stats")
    check(launch["lane_instructions"] == lanes, f"{name}: lane instructions != --stats")
    check(sum(i["executions"] for i in launch["instructions"]) == steps,
          f"{name}: instruction executions do not add up to --stats")
    check(sum(i["lane_executions"] for i in launch["instructions"]) == lanes,
          f"{name}: instruction lane executions do not add up to --stats")
    for i in launch["instructions"]:
        if i["executions"]:
            want = i["lane_executions"] / (i["executions"] * launch["sub_group_size"])
            check(abs(i["utilisation"] - want) < 1e-6, f"{name}: utilisation of {i['index']}")
        check(i["divergent"] == 0 or i["branch"], f"{name}: non-branch {i['index']} diverged")


def check_diverge(launch, opt):
    name = f"diverge -O{opt}"
    lines = line_rows(launch)
    taken, body = lines[TAKEN_LINE], lines[BODY_LINE]
    check(taken["lane_executions"] == 2 * taken["executions"],
          f"{name}: taken side should run 2 of 4 lanes: {taken}")
    check(abs(taken["utilisation"] - 0.5) < 1e-6, f"{name}: taken side utilisation {taken}")
    # Each instruction of the body: 4 executions and 10 lane executions per sub-group.
    check(body["executions"] == 8 * body["instructions"], f"{name}: loop body executions {body}")
    check(body["lane_executions"] == 20 * body["instructions"],
          f"{name}: loop body lane executions {body}")
    check(abs(body["utilisation"] - 0.625) < 1e-6, f"{name}: loop body utilisation {body}")
    check(lines[IF_LINE]["divergent"] == 2, f"{name}: if splits {lines[IF_LINE]}")
    check(lines[LOOP_LINE]["divergent"] == 6, f"{name}: loop splits {lines[LOOP_LINE]}")
    check(sum(l["divergent"] for l in launch["lines"]) == 8, f"{name}: other splits")
    branch = [i for i in launch["instructions"]
              if i["branch"] and i["line"].endswith(f":{IF_LINE}")]
    check(len(branch) == 1 and branch[0]["executions"] == 2 and
          branch[0]["lane_executions"] == 8 and branch[0]["opcode"] == "OpBranchConditional",
          f"{name}: the if's branch {branch}")
    buffers = {b["name"]: b for b in launch["buffers"]}
    inb, outb = buffers.get("argument 1 (in)"), buffers.get("argument 0 (out)")
    check(inb and (inb["reads"], inb["bytes_read"], inb["writes"]) == (24, 96, 0),
          f"{name}: traffic of in {inb}")
    check(outb and (outb["writes"], outb["bytes_written"], outb["reads"]) == (8, 32, 0),
          f"{name}: traffic of out {outb}")
    g = launch["spaces"]["global"]
    check((g["reads"], g["bytes_read"], g["writes"], g["bytes_written"]) == (24, 96, 8, 32),
          f"{name}: global traffic {g}")


def check_page(path, launch, steps, name, marker=None):
    text = open(path, encoding="utf-8").read()
    page = Page()
    page.feed(text)
    page.close()
    check(not page.external, f"{name}: the page fetches {page.external}")
    check(len(page.rows.get("inst", [])) == len(launch["instructions"]),
          f"{name}: instruction rows")
    # Disassembly as `spvsim dis` prints it (friendly names).
    check(all(row[3] == i["text"] for row, i in zip(page.rows["inst"], launch["instructions"])),
          f"{name}: instruction text")
    check(page.ids.get("sub-group-instructions", "").strip() == str(steps),
          f"{name}: summary total {page.ids.get('sub-group-instructions')}")
    segments = sum(len(t["segments"]) for t in launch["timeline"])
    groups = sum(len(t["groups"]) for t in launch["threads"])
    legend = 4
    check(sum(page.rects.values()) == segments + groups + legend,
          f"{name}: SVG rects {page.rects}")
    check(page.rects.get("group", 0) == groups + 1, f"{name}: work-group blocks {page.rects}")
    check(len(page.rows.get("coalescing", [])) == len(launch["coalescing"]),
          f"{name}: coalescing rows")
    check(len(page.rows.get("banks", [])) == len(launch["bank_conflicts"]),
          f"{name}: bank conflict rows")
    check(len(page.rows.get("active", [])) == len(launch["divergence"]),
          f"{name}: active lane rows")
    counted = [r for r in page.rows.get("line", []) if r[1].strip()]
    check(len(counted) == len(launch["lines"]), f"{name}: source rows with counts")
    if marker:
        sources = [r[-1] for r in page.rows.get("line", [])]
        check(any(marker in s for s in sources),
              f"{name}: the source text is not shown as text (escaping)")
        check(marker not in text, f"{name}: unescaped source text in the page")
    return page


def png_pixels(data):
    """The RGB(A) pixels of an 8-bit, non-interlaced PNG (what Chromium's screenshots are),
    decoded with the standard library: a set of (r, g, b) colours."""
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "chromium: a PNG screenshot")
    pos, idat, width, height, kind = 8, b"", 0, 0, 0
    while pos < len(data):
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        tag, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if tag == b"IHDR":
            width, height, depth, kind, _, _, interlace = struct.unpack(">IIBBBBB", body)
            check(depth == 8 and kind in (2, 6) and interlace == 0, "chromium: 8-bit RGB(A) PNG")
        elif tag == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 4 if kind == 6 else 3
    raw, stride, colours = zlib.decompress(idat), width * bpp, set()
    prev = bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        colours.update(tuple(line[x:x + 3]) for x in range(0, stride, bpp))
        prev = line
    return colours


def chromium_check(path, launch, tmp, colours=(), coalescing=None):
    """Renders the page in headless Chromium, where it is installed: the rects of the DOM it
    built (one per timeline segment and work-group, and the legend's 4), the coalescing
    table's rows and efficiencies (`coalescing`: the data-v values, in order), and the
    colours of a screenshot (`colours`: hex fills that must be drawn, e.g. the timeline's
    running and barrier). One launch of Chromium gives both (about 1.5 s each on the
    2-core machine). Missing, it is a failure where SPVSIM_REQUIRE_TEST_TOOLS=1
    (tools/test.sh, CI: setup installed it), else the check says it skipped."""
    browser = next((b for b in ("chromium", "chromium-browser", "google-chrome")
                    if shutil.which(b)), None)
    if not browser:
        if os.environ.get("SPVSIM_REQUIRE_TEST_TOOLS") == "1":
            check(False, "chromium: not installed, and SPVSIM_REQUIRE_TEST_TOOLS=1 "
                         "(tools/test.sh) requires it: tools/setup-debian.sh installs it")
        else:
            print("chromium: not installed, rendering check skipped "
                  "(tools/setup-debian.sh installs it)")
        return
    flags = ["--headless", "--disable-gpu", f"--user-data-dir={tmp}/chromium"]
    if os.geteuid() == 0:
        flags.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    url = "file://" + os.path.abspath(path)
    shot = os.path.join(tmp, os.path.basename(path) + ".png")
    r = subprocess.run([browser, *flags, "--dump-dom", f"--screenshot={shot}",
                        "--window-size=1200,2400", url],
                       capture_output=True, text=True, timeout=120)
    dom = r.stdout
    if r.returncode != 0 or not os.path.exists(shot):
        check(False, f"chromium: {browser} exited {r.returncode} without a screenshot:\n"
                     + "\n".join(r.stderr.splitlines()[-20:]))
        return
    segments = sum(len(t["segments"]) for t in launch["timeline"])
    groups = sum(len(t["groups"]) for t in launch["threads"])
    check(dom.count("<rect") == segments + groups + 4,
          f"chromium: rendered rects ({dom.count('<rect')})")
    check("Global memory coalescing" in dom and dom.count('<tr class="coalescing">') ==
          len(launch["coalescing"]), "chromium: the coalescing table is in the rendered page")
    if coalescing is not None:
        table = dom[dom.find('<table class="coalescing sortable">'):]
        table = table[:table.find("</table>")]
        shown = re.findall(r'<tr class="coalescing">.*?data-v="([0-9.]+)"', table)
        check(shown == coalescing, f"chromium: coalescing efficiencies {shown} != {coalescing}")
    drawn = png_pixels(open(shot, "rb").read())
    for colour in colours:
        rgb = tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))
        check(rgb in drawn, f"chromium: {colour} drawn in the screenshot")
    print(f"chromium: {os.path.basename(path)} rendered, {segments + groups + 4} rects, "
          f"colours {colours}")


def compile_kernel(tmp, source, name, opt):
    cl = os.path.join(tmp, name + ".cl")
    with open(cl, "w") as f:
        f.write(source)
    spv = os.path.join(tmp, f"{name}{opt}.spv")
    spvsim("compile", cl, "-o", spv, f"--build-options=-cl-std=CL2.0 -O{opt} -g")
    return spv


def profiled(tmp, tag, spv, launch_args, extra=()):
    js, page = os.path.join(tmp, tag + ".json"), os.path.join(tmp, tag + ".html")
    text = os.path.join(tmp, tag + ".txt")
    r = spvsim("run", spv, *launch_args, "--stats", "--profile", page, "--profile-json", js,
               "--profile-text", text, *extra)
    plain = spvsim("run", spv, *launch_args, "--stats")
    check(r.stdout == plain.stdout, f"{tag}: results differ with --profile")
    profiled.text = open(text, encoding="utf-8").read()
    return json.load(open(js))["launches"], page, r.stderr, plain.stderr


def text_section(text, heading):
    """The lines of the text report's section that starts with `heading`."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith(heading))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith("  ")),
               len(lines))
    return lines[start + 1:end]


def check_threads(launch, steps, name):
    """The rows' work-groups partition the launch; each row's work-groups follow each other
    on its thread's clock; the rows' steps add up to the launch's."""
    groups = [tuple(g["group"]) for t in launch["threads"] for g in t["groups"]]
    n = launch["num_groups"]
    want = [(x,) if len(n) == 1 else (x, y) for y in range(n[1] if len(n) > 1 else 1)
            for x in range(n[0])]
    check(sorted(groups) == sorted(want), f"{name}: thread rows' work-groups {groups}")
    check(sum(t["steps"] for t in launch["threads"]) == steps, f"{name}: rows' steps")
    for t in launch["threads"]:
        spans = t["groups"]
        check(all(a["end"] == b["start"] for a, b in zip(spans, spans[1:])) and
              (not spans or (spans[0]["start"] == 0 and spans[-1]["end"] == t["steps"])),
              f"{name}: row {t['row']}'s work-groups back to back {spans}")
    for sg in launch["timeline"]:
        row = launch["threads"][sg["row"]]
        span = next(g for g in row["groups"] if g["group"] == sg["group"])
        check(all(span["start"] <= s[1] and s[2] <= span["end"] for s in sg["segments"]),
              f"{name}: sub-group {sg['group']}.{sg['sub_group']} inside its work-group")


def check_strided(tmp):
    spv = compile_kernel(tmp, STRIDED, "strided", 2)
    for stride, want in ((1, 1.0), (2, 0.5), (16, 0.0625)):
        name = f"strided S={stride}"
        args = ["--kernel", "strided", "--global", "64", "--local", "64", "--sub-group-size",
                "16", "--arg", "buffer:float[64]", "--arg", f"buffer:float[{64 * stride}]=range(0)",
                "--arg", f"int:{stride}", "--threads", "1"]
        launches, page, err, plain = profiled(tmp, f"strided{stride}", spv, args)
        launch = launches[0]
        check_totals(launch, err, plain, name)
        rows = launch["coalescing"]
        loads = [r for r in rows if "OpLoad" in r["text"]]
        stores = [r for r in rows if "OpStore" in r["text"]]
        check(len(rows) == 2 and len(loads) == 1 and len(stores) == 1, f"{name}: rows {rows}")
        # 4 sub-groups of 16 lanes, 4 bytes each: 256 bytes; lines 4 x (1, 2 or 16).
        load = loads[0]
        check((load["executions"], load["accesses"], load["bytes_requested"], load["lines"]) ==
              (4, 64, 256, 4 * {1: 1, 2: 2, 16: 16}[stride]), f"{name}: load {load}")
        check(abs(load["efficiency"] - want) < 1e-9, f"{name}: load efficiency {load}")
        store = stores[0]
        check((store["bytes_requested"], store["lines"], store["efficiency"]) == (256, 4, 1.0),
              f"{name}: store {store}")
        check(rows[0] == (load if want < 1 else rows[0]), f"{name}: least efficient first")
        section = text_section(profiled.text, "global memory coalescing")
        check(len(section) == 2 and f"{100 * want:.2f}%" in section[0],
              f"{name}: text report {section}")
        check_page(page, launch, stats(err)[0], f"{name} page")
        if stride == 16:
            chromium_check(page, launch, tmp, coalescing=["0.062500", "1.000000"])


def check_banks(tmp):
    spv = compile_kernel(tmp, BANKS, "banks", 2)
    # (S, local size, banks option, degrees of the sub-group executions per instruction)
    for stride, local, banks, degrees in ((1, 32, None, [1] * 4), (32, 32, None, [16] * 4),
                                          (32, 24, None, [16, 8]), (1, 32, 8, [2] * 4)):
        name = f"banks S={stride} local {local} banks {banks or 32}"
        args = ["--kernel", "banks", "--global", str(2 * local if local == 32 else local),
                "--local", str(local), "--sub-group-size", "16",
                "--arg", f"buffer:float[{2 * local}]", "--arg", f"local:{local * stride * 4}",
                "--arg", f"int:{stride}", "--threads", "1"]
        extra = ["--profile-banks", str(banks)] if banks else []
        launches, page, err, plain = profiled(tmp, f"banks{stride}-{local}-{banks}", spv, args,
                                              extra)
        launch = launches[0]
        check_totals(launch, err, plain, name)
        check(launch["banks"] == (banks or 32), f"{name}: banks {launch['banks']}")
        rows = launch["bank_conflicts"]
        lanes = 2 * local if local == 32 else local
        check(len(rows) == 2, f"{name}: one store and one load {rows}")
        for r in rows:
            check((r["executions"], r["accesses"], r["wavefronts"], r["max_degree"]) ==
                  (len(degrees), lanes, sum(degrees), max(degrees)), f"{name}: {r}")
            check(abs(r["average_degree"] - sum(degrees) / len(degrees)) < 1e-9, f"{name}: {r}")
        section = text_section(profiled.text, "local memory bank conflicts")
        check(len(section) == 2 and f"max {max(degrees):>4}" in section[0],
              f"{name}: text report {section}")
        check_page(page, launch, stats(err)[0], f"{name} page")


def check_async(tmp):
    spv = compile_kernel(tmp, ASYNC, "async", 2)
    args = ["--kernel", "acopy", "--global", "128", "--local", "64", "--sub-group-size", "16",
            "--arg", "buffer:float[128]", "--arg", "buffer:float[128]=range(0)",
            "--arg", "local:256", "--threads", "1"]
    launches, page, err, plain = profiled(tmp, "async", spv, args)
    launch = launches[0]
    check_totals(launch, err, plain, "async")
    copies = [r for r in launch["coalescing"] if "OpGroupAsyncCopy" in r["text"]]
    check(len(copies) == 1 and (copies[0]["executions"], copies[0]["accesses"],
                                copies[0]["bytes_requested"], copies[0]["lines"],
                                copies[0]["efficiency"]) == (2, 128, 512, 8, 1.0),
          f"async: the copy's coalescing {launch['coalescing']}")
    banks = launch["bank_conflicts"]
    check(len(banks) == 1 and "OpLoad" in banks[0]["text"] and
          (banks[0]["executions"], banks[0]["max_degree"]) == (8, 1), f"async: banks {banks}")


def check_active(tmp):
    spv = compile_kernel(tmp, ACTIVE, "active", 0)
    args = ["--kernel", "active", "--global", "16", "--local", "16", "--sub-group-size", "8",
            "--arg", "buffer:int[16]", "--threads", "1"]
    launches, page, err, plain = profiled(tmp, "active", spv, args)
    launch = launches[0]
    check_totals(launch, err, plain, "active")
    rows = launch["divergence"]
    by_line = {r["line"]: r for r in rows}
    check(abs(by_line[THREE_LINE]["active_fraction"] - 3 / 8) < 1e-9, f"active: {rows}")
    check(abs(by_line[ONE_LINE]["active_fraction"] - 1 / 8) < 1e-9, f"active: {rows}")
    # Lowest first: the inner body (or its closing brace, run by the same lane) leads.
    check(rows[0]["line"] in (ONE_LINE, ONE_LINE + 1) and
          abs(rows[0]["active_fraction"] - 1 / 8) < 1e-9, f"active: lowest first {rows[:3]}")
    fractions = [r["active_fraction"] for r in rows]
    check(fractions == sorted(fractions), f"active: sorted {fractions}")
    section = text_section(profiled.text, "divergence")
    check("12.5%" in section[0] and f":{rows[0]['line']}" in section[0],
          f"active: text report {section[:2]}")
    check_page(page, launch, stats(err)[0], "active page")


def check_spread(tmp):
    spv = compile_kernel(tmp, SPREAD, "spread", 2)
    args = ["--kernel", "spread", "--global", "1024", "--local", "32", "--sub-group-size", "16",
            "--arg", "buffer:int[1024]", "--arg", "int:200", "--threads", "2"]
    launches, page, err, plain = profiled(tmp, "spread", spv, args)
    launch = launches[0]
    check_totals(launch, err, plain, "spread --threads 2")
    check(len(launch["threads"]) == 2, f"spread: two rows {len(launch['threads'])}")
    check(sorted(t["thread"] for t in launch["threads"]) == [0, 1], "spread: threads 0 and 1")
    check_threads(launch, stats(err)[0], "spread --threads 2")
    print("spread --threads 2: work-groups per row",
          [len(t["groups"]) for t in launch["threads"]])
    section = text_section(profiled.text, "host threads: 2")
    check(len(section) == 2, f"spread: text rows {section}")
    check_page(page, launch, stats(err)[0], "spread page")
    chromium_check(page, launch, tmp, coalescing=["1.000000"])


def main():
    tmp = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
    for opt in (0, 2):
        spv = compile_kernel(tmp, DIVERGE, "diverge", opt)
        args = ["--kernel", "k", "--global", "8", "--local", "8", "--sub-group-size", "4",
                "--arg", "buffer:int[8]", "--arg", "buffer:int[8]=range(1)", "--dump"]
        launches, page, err, plain = profiled(tmp, f"diverge{opt}", spv, args)
        check(len(launches) == 1, "one launch")
        launch = launches[0]
        check((launch["kernel"], launch["global_size"], launch["local_size"],
               launch["sub_group_size"]) == ("k", [8], [8], 4), "summary")
        check_totals(launch, err, plain, f"diverge -O{opt}")
        check_diverge(launch, opt)
        check_page(page, launch, stats(err)[0], f"diverge -O{opt} page",
                   "<script>alert(1)</script>")
        if opt == 0:
            chromium_check(page, launch, tmp)

    spv = compile_kernel(tmp, BARRIER, "barrier", 0)
    args = ["--kernel", "b", "--global", "16", "--local", "8", "--sub-group-size", "4",
            "--arg", "buffer:int[16]", "--arg", "local:32", "--threads", "1"]
    launches, page, err, plain = profiled(tmp, "barrier", spv, args)
    launch = launches[0]
    check_totals(launch, err, plain, "barrier")
    steps = stats(err)[0]
    timeline = launch["timeline"]
    check([(t["group"], t["sub_group"], t["lanes"]) for t in timeline] ==
          [([0], 0, 4), ([0], 1, 4), ([1], 0, 4), ([1], 1, 4)], "timeline rows")
    for t in timeline:
        phases = [s[0] for s in t["segments"]]
        check(phases == ["running", "barrier", "running", "done"],
              f"timeline of {t['group']} sg {t['sub_group']}: {phases}")
        check(all(a[2] <= b[1] for a, b in zip(t["segments"], t["segments"][1:])),
              "segments in order")
    check_threads(launch, steps, "barrier --threads 1")
    check(len(launch["threads"]) == 1 and launch["time"] == steps, "barrier: one row")
    # One sub-group runs at a time (one thread), and some sub-group runs at every step.
    running = sorted((s[1], s[2]) for t in timeline for s in t["segments"] if s[0] == "running")
    check(running[0][0] == 0 and running[-1][1] == steps and
          all(a[1] == b[0] for a, b in zip(running, running[1:])), f"running segments {running}")
    buffers = {b["name"]: b for b in launch["buffers"]}
    tmpb = buffers.get("argument 1 (tmp)")
    check(tmpb and tmpb["space"] == "local" and
          (tmpb["writes"], tmpb["bytes_written"], tmpb["reads"], tmpb["bytes_read"]) ==
          (16, 64, 16, 64), f"local traffic {tmpb}")
    drawn = check_page(page, launch, steps, "barrier page")
    chromium_check(page, launch, tmp, ("#4a9d4a", "#e0a020"))  # running, at a barrier
    check(drawn.rects.get("barrier", 0) == 4 + 1, f"barrier rects (4 and the legend's) {drawn.rects}")

    spv_switch = compile_kernel(tmp, SWITCH, "switch", 0)
    launches, page, err, plain = profiled(
        tmp, "switch", spv_switch,
        ["--kernel", "s", "--global", "8", "--local", "8", "--sub-group-size", "4",
         "--arg", "buffer:int[8]"])
    check_totals(launches[0], err, plain, "switch")
    lines = line_rows(launches[0])
    check(lines[4]["divergent"] == 2, f"switch splits {lines[4]}")
    for line, share in ((5, 0.25), (6, 0.25), (7, 0.5)):
        check(abs(lines[line]["utilisation"] - share) < 1e-6, f"switch case {lines[line]}")
    check(any(i["opcode"] == "OpSwitch" and i["divergent"] == 2
              for i in launches[0]["instructions"]), "the OpSwitch's splits")

    check_strided(tmp)
    check_banks(tmp)
    check_async(tmp)
    check_active(tmp)
    check_spread(tmp)

    r = spvsim("run", spv, *args, "--profile-banks", "8", expect=1)
    check("--profile-banks" in r.stderr, f"--profile-banks without a profile: {r.stderr}")
    r = spvsim("run", spv, *args, "--profile", os.path.join(tmp, "x.html"), "--check-undefined",
               expect=1)
    check("--check-undefined" in r.stderr, f"--profile with --check-undefined: {r.stderr}")

    if failures:
        sys.exit(f"{len(failures)} failure(s)")
    print("profile_test: all checks passed")


if __name__ == "__main__":
    main()
