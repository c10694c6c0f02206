"""A scripted Debug Adapter Protocol client for `spvsim dap` (stdlib only).

Drives testdata/debug/branch.cl (8 work-items, one work-group, sub-groups of 4) through
breakpoints, per-lane variables, steps, set variable and the end of the kernel. The
expected values are worked out by hand from the kernel:
  i = get_global_id(0); x = i + 1; even i: x = twice(x) = 2x; odd i: x = x + 100;
  vin = range(0) as uint4, so vin[i].y = 4i + 1; out[i] = x + 4i + 1.
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SPVSIM, KERNEL, PLUGIN = sys.argv[1], sys.argv[2], sys.argv[3]
FAULTS = os.path.join(os.path.dirname(KERNEL), "faults.cl")
# faults.cl `spin` loops for 2^30 instructions: a run that only ends when interrupted.
SPIN_ARGS = ["--kernel", "spin", "--global", "4", "--local", "4", "--sub-group-size", "4",
             "--arg", "buffer:int[1]", "--arg", "buffer:int[4]"]
LAUNCH_ARGS = ["--global", "8", "--local", "8", "--sub-group-size", "4",
               "--arg", "buffer:uint[8]", "--arg", "buffer:uint4[8]=range(0)", "--dump"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


class Client:
    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.seq = 0
        self.output = ""  # every output event's text
        self.events = []  # events not yet taken by wait_event

    def send_raw(self, data):
        self.writer.write(data)
        self.writer.flush()

    def send(self, command, **arguments):
        self.seq += 1
        body = json.dumps({"seq": self.seq, "type": "request", "command": command,
                           "arguments": arguments}).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        return self.seq

    def receive(self):
        length = None
        while True:
            line = self.reader.readline()
            if not line:
                raise EOFError("spvsim dap closed its output")
            if line == b"\r\n":
                break
            name, _, value = line.decode().partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        message = json.loads(self.reader.read(length))
        if message.get("event") == "output":
            self.output += message["body"]["output"]
        return message

    def request(self, command, **arguments):
        seq = self.send(command, **arguments)
        while True:
            m = self.receive()
            if m["type"] == "response":
                check(m["request_seq"] == seq, f"{command}: response to request {seq}")
                return m
            self.events.append(m)

    def wait_event(self, *names):
        while True:
            for i, e in enumerate(self.events):
                if e.get("event") in names:
                    return self.events.pop(i)
            self.events.append(self.receive())


def ok(response, what):
    check(response["success"], f"{what}: {response.get('message')}")
    return response.get("body", {})


def variables(client, ref):
    body = ok(client.request("variables", variablesReference=ref), "variables")
    return {v["name"]: v for v in body["variables"]}


def top_frame(client, thread):
    frames = ok(client.request("stackTrace", threadId=thread), "stackTrace")["stackFrames"]
    return frames[0]


def scopes(client, frame):
    body = ok(client.request("scopes", frameId=frame["id"]), "scopes")
    return {s["name"]: s["variablesReference"] for s in body["scopes"]}


def session(client):
    caps = ok(client.request("initialize", adapterID="spvsim", linesStartAt1=True), "initialize")
    for c in ("supportsConditionalBreakpoints", "supportsConfigurationDoneRequest",
              "supportsEvaluateForHovers", "supportsSetVariable"):
        check(caps.get(c) is True, f"capability {c}")
    ok(client.request("launch", program=KERNEL, args=LAUNCH_ARGS), "launch")
    client.wait_event("initialized")

    # The conditional breakpoint holds only in sub-group 1's odd lanes (i = 5, 7);
    # line 99 has no code.
    bps = ok(client.request("setBreakpoints", source={"path": os.path.abspath(KERNEL)},
                            breakpoints=[{"line": 14, "condition": "i > 4"}, {"line": 99}]),
             "setBreakpoints")["breakpoints"]
    check([b["verified"] for b in bps] == [True, False], f"verified: {bps}")
    check(bps[0].get("line") == 14, f"breakpoint line: {bps[0]}")
    check(all(b.get("source", {}).get("path") == os.path.abspath(KERNEL) for b in bps),
          f"breakpoints' source: {bps}")
    check("99" in bps[1].get("message", ""), f"line 99 message: {bps[1]}")
    ok(client.request("configurationDone"), "configurationDone")

    stop = client.wait_event("stopped", "terminated")["body"]
    check(stop.get("reason") == "breakpoint", f"first stop: {stop}")
    thread = stop.get("threadId")
    check(thread == 2, f"stopped in sub-group 1 (thread 2): {stop}")
    names = [t["name"] for t in ok(client.request("threads"), "threads")["threads"]]
    check(names == ["wg (0,0,0) sg 0", "wg (0,0,0) sg 1"], f"threads: {names}")

    frame = top_frame(client, thread)
    check(frame["line"] == 14 and frame["source"]["path"] == os.path.abspath(KERNEL),
          f"frame: {frame}")
    check(frame["name"] == "branchy", f"frame name: {frame}")
    refs = scopes(client, frame)
    check(set(refs) == {"Locals", "Lanes", "SIMT"}, f"scopes: {refs}")

    lanes = variables(client, refs["Lanes"])
    check(lanes["active"]["value"].startswith("lanes 1,3 active (2/4)"), f"mask: {lanes}")
    simt = variables(client, refs["SIMT"])
    check(len(simt) >= 2, f"a split sub-group has at least 2 SIMT entries: {simt}")
    top = max((n for n in simt if n.startswith("#")), key=lambda n: int(n.lstrip("#")))
    check(simt[top]["value"].startswith("lanes 1,3"), f"SIMT top: {simt}")
    check(simt["group"]["value"].startswith("lanes 1,3 of the diverged lanes 0-3;"),
          f"SIMT group: {simt}")

    local = variables(client, refs["Locals"])
    check({"i", "x"} <= set(local), f"locals: {list(local)}")
    # Inactive lanes show "-" in the summary; i = 4..7 in this sub-group, x = i + 1.
    check(local["i"]["value"] == "[0]=- [1]=5 [2]=- [3]=7", f"i: {local['i']}")
    check(local["x"]["value"] == "[0]=- [1]=6 [2]=- [3]=8", f"x: {local['x']}")
    i_lanes = variables(client, local["i"]["variablesReference"])
    check([i_lanes[f"[{l}]"]["value"] for l in range(4)] ==
          ["4 (inactive)", "5", "6 (inactive)", "7"], f"i lanes: {i_lanes}")

    result = ok(client.request("evaluate", expression="x + 100", frameId=frame["id"],
                               context="watch"), "evaluate")
    check(result["result"] == "[0]=- [1]=106 [2]=- [3]=108", f"evaluate: {result}")
    bad = client.request("evaluate", expression="x +", frameId=frame["id"])
    check(not bad["success"] and "x +" in bad.get("message", ""), f"bad expression: {bad}")

    ok(client.request("next", threadId=thread), "next")
    check(client.wait_event("stopped")["body"]["reason"] == "step", "next stops with 'step'")
    frame = top_frame(client, thread)
    refs = scopes(client, frame)
    x = variables(client, variables(client, refs["Locals"])["x"]["variablesReference"])
    check(x["[1]"]["value"].split()[0] == "106" and x["[3]"]["value"].split()[0] == "108",
          f"x after line 14: {x}")
    # x of lane 3 (i = 7) becomes 1000: out[7] = 1000 + 29.
    local = variables(client, refs["Locals"])
    done = ok(client.request("setVariable", variablesReference=local["x"]["variablesReference"],
                             name="[3]", value="1000"), "setVariable")
    check(done.get("value") == "1000", f"setVariable: {done}")

    ok(client.request("pause", threadId=thread), "pause")
    check(client.wait_event("stopped")["body"]["reason"] == "pause", "pause stops with 'pause'")
    ok(client.request("stepIn", threadId=thread), "stepIn")
    check(client.wait_event("stopped")["body"]["reason"] == "step", "stepIn stops with 'step'")

    bogus = client.request("bogus")
    check(not bogus["success"] and "bogus" in bogus.get("message", ""), f"unknown: {bogus}")
    client.send_raw(b"Content-Length: 5\r\n\r\n{bad}")
    m = client.receive()
    check(m["type"] == "response" and not m["success"] and "malformed" in m["message"],
          f"malformed message: {m}")

    ok(client.request("setBreakpoints", source={"path": os.path.abspath(KERNEL)},
                      breakpoints=[]), "clear breakpoints")
    ok(client.request("continue", threadId=thread), "continue")
    exited = client.wait_event("exited", "stopped")
    check(exited.get("event") == "exited" and exited["body"]["exitCode"] == 0, f"{exited}")
    client.wait_event("terminated")
    check("Kernel branchy finished" in client.output, "the end of the kernel is output")
    # out[i] = x + 4i + 1 with x[7] set to 1000.
    check("arg0 uint[8] = 3 107 15 117 27 127 39 1029" in client.output,
          f"results in output:\n{client.output}")
    ok(client.request("disconnect"), "disconnect")


def over_stdio():
    p = subprocess.Popen([SPVSIM, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    session(Client(p.stdout, p.stdin))
    check(p.wait(timeout=30) == 0, "spvsim dap exits with 0 after disconnect")


def into_a_call():
    """stopOnEntry, a breakpoint in twice(): the call stack, its parameter per lane, stepOut;
    then terminate while the kernel is still stopped."""
    p = subprocess.Popen([SPVSIM, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    client = Client(p.stdout, p.stdin)
    ok(client.request("initialize", adapterID="spvsim"), "initialize")
    ok(client.request("launch", program=KERNEL, args=LAUNCH_ARGS, stopOnEntry=True), "launch")
    client.wait_event("initialized")
    bps = ok(client.request("setBreakpoints", source={"path": KERNEL}, breakpoints=[{"line": 4}]),
             "setBreakpoints")["breakpoints"]
    check(bps[0]["verified"] and bps[0]["line"] == 4, f"line 4: {bps}")
    ok(client.request("configurationDone"), "configurationDone")
    check(client.wait_event("stopped")["body"]["reason"] == "entry", "stopOnEntry")
    ok(client.request("continue", threadId=1), "continue")
    stop = client.wait_event("stopped")["body"]
    check(stop["reason"] == "breakpoint" and stop["threadId"] == 1, f"in twice: {stop}")
    check(stop.get("hitBreakpointIds") == [bps[0]["id"]] and "Breakpoint" in stop.get("text", ""),
          f"which breakpoint: {stop}")
    frames = ok(client.request("stackTrace", threadId=1), "stackTrace")["stackFrames"]
    check([(f["name"], f["line"]) for f in frames[:2]] == [("twice", 4), ("branchy", 12)],
          f"frames: {frames}")
    local = variables(client, scopes(client, frames[0])["Locals"])
    # Even lanes (i = 0, 2) call twice(x) with x = i + 1.
    check(local["v"]["value"] == "[0]=1 [1]=- [2]=3 [3]=-", f"v: {local.get('v')}")
    caller = variables(client, scopes(client, frames[1])["Locals"])
    check(caller["i"]["value"] == "[0]=0 [1]=- [2]=2 [3]=-", f"caller's i: {caller.get('i')}")
    ok(client.request("stepOut", threadId=1), "stepOut")
    check(client.wait_event("stopped")["body"]["reason"] == "step", "stepOut stops")
    top = top_frame(client, 1)
    check((top["name"], top["line"]) == ("branchy", 12), f"back in the caller: {top}")
    # restart: at the entry again (stopOnEntry), then the same breakpoint in twice().
    ok(client.request("restart"), "restart")
    check(client.wait_event("stopped")["body"]["reason"] == "entry", "restart stops at entry")
    ok(client.request("continue", threadId=1), "continue after restart")
    stop = client.wait_event("stopped")["body"]
    check(stop["reason"] == "breakpoint", f"breakpoint again after restart: {stop}")
    check(top_frame(client, 1)["line"] == 4, "in twice() again")
    ok(client.request("terminate"), "terminate")
    client.wait_event("terminated")
    ok(client.request("threads"), "threads after terminate")
    ok(client.request("disconnect"), "disconnect")
    check(p.wait(timeout=30) == 0, "spvsim dap exits with 0 after disconnect")


def step_out_of_the_kernel():
    """stepOut in the kernel's entry function (no caller): said in the console, and the
    sub-group runs to the end of the kernel, where the step stops; the rest then runs."""
    p = subprocess.Popen([SPVSIM, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    client = Client(p.stdout, p.stdin)
    ok(client.request("initialize", adapterID="spvsim"), "initialize")
    ok(client.request("launch", program=KERNEL, args=LAUNCH_ARGS, stopOnEntry=True), "launch")
    client.wait_event("initialized")
    ok(client.request("configurationDone"), "configurationDone")
    check(client.wait_event("stopped")["body"]["reason"] == "entry", "stopOnEntry")
    # gdb's `set var` in the debug console: the result is the variable's value after it.
    frame = top_frame(client, 1)
    # The entry is before the first line: the frame shows that line and the function's name.
    check((frame["name"], frame["line"]) == ("branchy", 9) and "source" in frame,
          f"the entry stop's place: {frame}")
    res = ok(client.request("evaluate", expression="set var i@all = 7", frameId=frame["id"],
                            context="repl"), "set var in the debug console")
    check(res["result"].startswith("[0]=7 [1]=7"), f"set var i@all = 7: {res}")
    ok(client.request("stepOut", threadId=1), "stepOut from the entry function is not an error")
    stop = client.wait_event("stopped", "terminated")
    check(stop.get("body", {}).get("reason") == "step", f"stepOut stops: {stop}")
    check("this sub-group runs to the end of the kernel" in client.output,
          f"said in the console: {client.output}")
    ok(client.request("continue", threadId=1), "continue")
    client.wait_event("terminated")
    ok(client.request("disconnect"), "disconnect")
    check(p.wait(timeout=30) == 0, "spvsim dap exits with 0 after disconnect")


def threads_of_each_work_group():
    """Two work-groups: the threads (sub-groups) are named after the current one, and when
    a stop is in the next, the old threads exit and the new ones start (thread events)."""
    p = subprocess.Popen([SPVSIM, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    client = Client(p.stdout, p.stdin)
    ok(client.request("initialize", adapterID="spvsim"), "initialize")
    args = ["--global", "16", "--local", "8", "--sub-group-size", "4", "--arg",
            "buffer:uint[16]", "--arg", "buffer:uint4[16]=range(0)"]
    ok(client.request("launch", program=KERNEL, args=args), "launch two work-groups")
    client.wait_event("initialized")
    ok(client.request("setBreakpoints", source={"path": KERNEL}, breakpoints=[{"line": 12}]),
       "setBreakpoints")
    ok(client.request("configurationDone"), "configurationDone")
    names = []
    for _ in range(8):  # a stop per sub-group that reaches line 12, in each work-group
        stop = client.wait_event("stopped", "terminated")
        if stop["event"] == "terminated":
            break
        threads = ok(client.request("threads"), "threads")["threads"]
        names.append(threads[0]["name"])
        if threads[0]["name"].startswith("wg (1,0,0)"):
            break
        ok(client.request("continue", threadId=1), "continue")
    check(names and names[0] == "wg (0,0,0) sg 0" and names[-1] == "wg (1,0,0) sg 0",
          f"threads named after their work-group: {names}")
    events = [(e["body"]["reason"], e["body"]["threadId"]) for e in client.events
              if e.get("event") == "thread"]
    check(events[:2] == [("started", 1), ("started", 2)] and
          events[2:] == [("exited", 1), ("exited", 2), ("started", 1), ("started", 2)],
          f"thread events: {events}")
    ok(client.request("disconnect"), "disconnect")
    check(p.wait(timeout=30) == 0, "spvsim dap exits with 0 after disconnect")


def pause_a_loop():
    """`pause` interrupts a `continue` that would run for 2^30 instructions (faults.cl spin)."""
    p = subprocess.Popen([SPVSIM, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    client = Client(p.stdout, p.stdin)
    ok(client.request("initialize", adapterID="spvsim"), "initialize")
    ok(client.request("launch", program=FAULTS, args=SPIN_ARGS), "launch spin")
    client.wait_event("initialized")
    ok(client.request("configurationDone"), "configurationDone")
    time.sleep(1)  # well inside the loop
    ok(client.request("pause", threadId=1), "pause")
    stop = client.wait_event("stopped", "terminated")
    check(stop.get("body", {}).get("reason") == "pause", f"paused: {stop}")
    top = top_frame(client, 1)
    check(top["line"] in (12, 13), f"stopped in the loop: {top}")
    n = ok(client.request("evaluate", expression="n > 0", frameId=top["id"]), "evaluate")
    check(n.get("result") == "[0]=1 [1]=1 [2]=1 [3]=1", f"n counted up in every lane: {n}")
    ok(client.request("disconnect"), "disconnect")
    check(p.wait(timeout=30) == 0, "spvsim dap exits with 0 after disconnect")


def stop_on_error():
    """faults.cl `shifted`: lanes 4-7 store out[i + 4] past the end of out[8] (line 6): the
    session stops with reason "exception"; the run then ends with status 2."""
    p = subprocess.Popen([SPVSIM, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    client = Client(p.stdout, p.stdin)
    ok(client.request("initialize", adapterID="spvsim"), "initialize")
    ok(client.request("launch", program=FAULTS,
                      args=["--kernel", "shifted", "--global", "8", "--sub-group-size", "8",
                            "--arg", "buffer:int[8]", "--dump"]), "launch shifted")
    client.wait_event("initialized")
    ok(client.request("configurationDone"), "configurationDone")
    stop = client.wait_event("stopped", "terminated")
    check(stop.get("body", {}).get("reason") == "exception", f"stopped on the error: {stop}")
    check("out-of-bounds" in stop.get("body", {}).get("text", ""), f"the stop's text: {stop}")
    info = ok(client.request("exceptionInfo", threadId=1), "exceptionInfo")
    check(info.get("exceptionId") == "out-of-bounds" and "lanes 4-7" in info.get("description", "")
          and info.get("breakMode") == "always", f"exceptionInfo: {info}")
    check("out-of-bounds" in client.output and "lanes 4-7" in client.output,
          f"the diagnostic is output:\n{client.output}")
    top = top_frame(client, 1)
    check((top["name"], top["line"]) == ("shifted", 6), f"the fault's line (6), not the next: {top}")
    v = ok(client.request("evaluate", expression="v", frameId=top_frame(client, 1)["id"]),
           "evaluate v")
    check(v.get("result") == " ".join(f"[{l}]={3 * l}" for l in range(8)), f"v = 3i: {v}")
    ok(client.request("continue", threadId=1), "continue")
    exited = client.wait_event("exited")
    check(exited["body"]["exitCode"] == 2, f"exit code 2 after an error: {exited}")
    client.wait_event("terminated")
    # out[i] = 3i + 1 (line 7) in every lane.
    check("arg0 int[8] = 1 4 7 10 13 16 19 22" in client.output, "shifted's results")
    ok(client.request("disconnect"), "disconnect")
    check(p.wait(timeout=30) == 0, "spvsim dap exits with 0 after disconnect")


def bad_input():
    """Malformed messages and requests answer success=false; the adapter goes on."""
    p = subprocess.Popen([SPVSIM, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    client = Client(p.stdout, p.stdin)
    for raw in (b"Content-Length: abc\r\n\r\n", b"Content-Length: 2\r\n\r\n[]",
                b"Content-Length: 4\r\n\r\nnull"):
        client.send_raw(raw)
        m = client.receive()
        check(m["type"] == "response" and not m["success"], f"{raw}: {m}")
    check(ok(client.request("threads"), "threads before launch")["threads"] == [],
          "no threads before launch")
    r = client.request("stackTrace", threadId=1)
    check(not r["success"] and "launch" in r["message"], f"stackTrace before launch: {r}")
    r = client.request("launch", program="/nonexistent/k.cl", args=["--global", "4"])
    check(not r["success"] and "k.cl" in r["message"], f"missing program: {r}")
    r = client.request("launch", program=KERNEL, args="--global 8")
    check(not r["success"] and "args" in r["message"], f"args not an array: {r}")
    ok(client.request("launch", program=KERNEL, args=LAUNCH_ARGS), "launch")
    r = client.request("variables", variablesReference=99)
    check(not r["success"] and "99" in r["message"], f"bad reference: {r}")
    r = client.request("setBreakpoints", source={"path": "/elsewhere/other.cl"},
                       breakpoints=[{"line": 3}])
    check(r["success"] and not r["body"]["breakpoints"][0]["verified"], f"other file: {r}")
    r = client.request("setBreakpoints", source={"path": KERNEL},
                       breakpoints=[{"line": 14, "condition": "x +"}])
    check(not r["body"]["breakpoints"][0]["verified"], f"bad condition: {r}")
    ok(client.request("disconnect"), "disconnect")
    check(p.wait(timeout=30) == 0, "spvsim dap exits with 0 after disconnect")


def build_options():
    """A launch's build options are OpenCL's only: what would load code into clang is refused
    before clang runs (the plugin's marker file stays absent); OpenCL options still work."""
    marker = os.path.join(tempfile.mkdtemp(), "loaded")
    p = subprocess.Popen([SPVSIM, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         env=dict(os.environ, SPVSIM_DAP_TEST_MARKER=marker))
    client = Client(p.stdout, p.stdin)
    ok(client.request("initialize", adapterID="spvsim"), "initialize")
    for options, named in ((f"-Xclang -load -Xclang {PLUGIN}", "-Xclang"),
                           (f"-fplugin={PLUGIN}", f"-fplugin={PLUGIN}"),
                           (f"-mllvm -load={PLUGIN}", "-mllvm"),
                           (f"-O0 -Xclang -plugin -Xclang x -Xclang -load -Xclang {PLUGIN}",
                            "-Xclang")):
        # --no-cache: without the refusal, clang would run (and load the plugin).
        r = client.request("launch", program=KERNEL,
                           args=LAUNCH_ARGS + ["--no-cache", "--build-options", options])
        check(not r["success"] and f"'{named}' is refused" in r.get("message", "")
              and "load code into the compiler" in r["message"], f"{options}: {r}")
    r = client.request("launch", program=KERNEL,
                       args=LAUNCH_ARGS + ["--no-cache", "--build-options=-DN=1 -o /tmp/x.ll"])
    check(not r["success"] and "'-o' is refused" in r.get("message", ""), f"-o: {r}")
    check(not os.path.exists(marker), "the plugin was loaded into clang")
    # OpenCL options compile as before: out[i] = x + 4i + 1, x = 2(i + 1) for even i and
    # i + 101 for odd i.
    ok(client.request("launch", program=KERNEL,
                      args=LAUNCH_ARGS + ["--build-options",
                                          "-DUNUSED=1 -I . -cl-mad-enable -Wall -Werror -O0"]),
       "launch with OpenCL build options")
    client.wait_event("initialized")
    ok(client.request("configurationDone"), "configurationDone")
    exited = client.wait_event("exited")
    check(exited["body"]["exitCode"] == 0, f"{exited}")
    check("arg0 uint[8] = 3 107 15 117 27 127 39 137" in client.output,
          f"results with OpenCL build options:\n{client.output}")
    ok(client.request("disconnect"), "disconnect")
    check(p.wait(timeout=30) == 0, "spvsim dap exits with 0 after disconnect")

    # A program whose relative path reads as an option is still the program: here
    # "-fplugin=./plug.cl", which as an option would load ./plug.cl (the plugin) into clang.
    folder = tempfile.mkdtemp()
    marker = os.path.join(folder, "loaded")
    os.mkdir(os.path.join(folder, "-fplugin=."))
    for copy in ("plug.cl", "-fplugin=./plug.cl"):
        shutil.copy(PLUGIN, os.path.join(folder, copy))
    p = subprocess.Popen([SPVSIM, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         env=dict(os.environ, SPVSIM_DAP_TEST_MARKER=marker))
    client = Client(p.stdout, p.stdin)
    r = client.request("launch", program="-fplugin=./plug.cl", cwd=folder,
                       args=["--global", "1", "--no-cache"])
    check(not r["success"] and "./-fplugin=./plug.cl" in r.get("message", ""),
          f"a shared object is no OpenCL C: {r}")
    check(not os.path.exists(marker), "a program path loaded a plugin into clang")
    ok(client.request("disconnect"), "disconnect")
    check(p.wait(timeout=30) == 0, "spvsim dap exits with 0 after disconnect")


def wait_for_exit(p, what, seconds=10):
    try:
        check(p.wait(timeout=seconds) == 0, f"{what}: exit status {p.returncode}")
    except subprocess.TimeoutExpired:
        check(False, f"{what}: still running {seconds} s later")
        p.kill()
        p.wait()


def input_ends():
    """The adapter ends when its client closes its input: idle, and during a run."""
    p = subprocess.Popen([SPVSIM, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    p.stdin.close()
    wait_for_exit(p, "stdin closed at once")
    p = subprocess.Popen([SPVSIM, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    client = Client(p.stdout, p.stdin)
    ok(client.request("initialize", adapterID="spvsim"), "initialize")
    ok(client.request("launch", program=FAULTS, args=SPIN_ARGS), "launch spin")
    client.wait_event("initialized")
    ok(client.request("configurationDone"), "configurationDone")
    time.sleep(1)  # inside the loop
    p.stdin.close()
    wait_for_exit(p, "stdin closed during a run")


def listen():
    """`spvsim dap --port` on a free port: the process, the port and the token it printed."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    p = subprocess.Popen([SPVSIM, "dap", "--port", str(port)], stderr=subprocess.PIPE)
    token = re.fullmatch(r"token=([0-9a-f]{32})\n", p.stderr.readline().decode())
    check(token is not None, "a token of 128 bits in hex on stderr")
    check(b"listening on 127.0.0.1:%d" % port in p.stderr.readline(), "listening message")
    return p, port, token.group(1) if token else ""


def connect(port):
    connection = socket.create_connection(("127.0.0.1", port), timeout=60)
    stream = connection.makefile("rwb")
    return connection, Client(stream, stream)


def closed_by_adapter(client):
    try:
        client.receive()
        return False
    except EOFError:
        return True


def over_port():
    """Clients without the token are refused and disconnected, and the listener waits on;
    the client with the token gets a session, whose end ends the adapter."""
    p, port, token = listen()
    other = "0" * 32 if token != "0" * 32 else "1" * 32
    strangers = (
        ("no token", "launch", {"program": KERNEL, "args": LAUNCH_ARGS}),
        ("the token less a digit", "launch",
         {"program": KERNEL, "args": LAUNCH_ARGS, "token": token[:-1]}),
        ("the token and a digit", "launch",
         {"program": KERNEL, "args": LAUNCH_ARGS, "token": token + "0"}),
        ("another token", "attach", {"token": other}),
        ("a number as token", "launch", {"program": KERNEL, "token": 1}),
        ("evaluate before launch", "evaluate", {"expression": "1"}),
        ("setVariable before launch", "setVariable",
         {"variablesReference": 1, "name": "x", "value": "1"}),
    )
    for what, command, arguments in strangers:
        connection, client = connect(port)
        ok(client.request("initialize", adapterID="spvsim"), f"initialize ({what})")
        r = client.request(command, **arguments)
        check(not r["success"] and "token" in r.get("message", ""), f"{what}: {r}")
        check(closed_by_adapter(client), f"{what}: the adapter closes the connection")
        connection.close()
    socket.create_connection(("127.0.0.1", port)).close()  # a client that leaves at once
    # One that sends requests and reads no answer: once its buffers are full it is dropped,
    # not waited for (it stays open until the end, so that no error ends it sooner).
    flood = socket.create_connection(("127.0.0.1", port))
    request = json.dumps({"seq": 1, "type": "request", "command": "initialize"}).encode()
    try:
        flood.sendall((b"Content-Length: %d\r\n\r\n" % len(request) + request) * 100000)
    except ConnectionError:
        pass  # dropped while it was still sending
    # One that stays without a word is disconnected after 10 s (dap_command.cc
    # kAdmissionTime) so that it cannot keep the user's client out.
    start = time.monotonic()
    silent = socket.create_connection(("127.0.0.1", port), timeout=60)
    check(silent.recv(1) == b"", "a silent client is disconnected")
    check(time.monotonic() - start < 30, "a silent client is disconnected within 30 s")
    silent.close()

    connection, client = connect(port)
    ok(client.request("initialize", adapterID="spvsim"), "initialize with the token")
    r = client.request("attach", token=token)  # admitted, though there is nothing to attach to
    check(not r["success"] and "launch" in r.get("message", ""), f"attach: {r}")
    ok(client.request("launch", program=KERNEL, args=LAUNCH_ARGS), "launch after the token")
    client.wait_event("initialized")
    ok(client.request("configurationDone"), "configurationDone")
    exited = client.wait_event("exited")
    check(exited["body"]["exitCode"] == 0, f"{exited}")
    check("arg0 uint[8] = 3 107 15 117 27 127 39 137" in client.output,
          f"results over --port:\n{client.output}")
    ok(client.request("disconnect"), "disconnect over --port")
    wait_for_exit(p, "spvsim dap --port after the session")
    refused = p.stderr.read().decode().count("gave no valid token; listening again")
    check(refused == len(strangers) + 3, f"{refused} clients refused")
    flood.close()


def port_client_goes_away():
    """The admitted client's connection closing mid-run ends the adapter."""
    p, port, token = listen()
    connection, client = connect(port)
    ok(client.request("initialize", adapterID="spvsim"), "initialize")
    ok(client.request("launch", program=FAULTS, args=SPIN_ARGS, token=token), "launch spin")
    client.wait_event("initialized")
    ok(client.request("configurationDone"), "configurationDone")
    time.sleep(1)  # inside the loop
    connection.shutdown(socket.SHUT_RDWR)
    wait_for_exit(p, "spvsim dap --port after its client went away")


signal.alarm(240)  # a hang fails the test rather than stalling it
over_stdio()
into_a_call()
step_out_of_the_kernel()
threads_of_each_work_group()
pause_a_loop()
stop_on_error()
bad_input()
build_options()
input_ends()
over_port()
port_client_goes_away()
if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("PASS")
