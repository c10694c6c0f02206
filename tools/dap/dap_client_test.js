// `spvsim dap` driven by VS Code's own DAP client: DebugClient of the npm package
// @vscode/debugadapter-testsupport (tools/dap/client/package-lock.json pins it), the
// client VS Code's debug extensions test their adapters with. dap_test.py checks the
// adapter's answers in detail with a client of our own; this test checks that a real
// client's ways (its initialize arguments, requests without arguments, its event waits,
// its configuration sequence) get a working session:
//   - a fault (faults.cl `shifted`, an out-of-bounds store at line 6) stops the session
//     with reason 'exception' on that line, the diagnostic as the stop's text and as
//     exceptionInfo's description;
//   - the entry stop (stopOnEntry) shows source: the top frame has the kernel's path and
//     a line;
//   - a breakpoint set in the configuration sequence is verified and hit (hitBreakpoint);
//   - over --port (VS Code's debugServer), the token in the launch admits the client;
//   - disconnecting while the kernel runs answers and ends the adapter;
//   - 20 sessions in a row, each ending with a `disconnect` whose response arrives,
//     alternately after the kernel finished and while it is stopped at a breakpoint:
//     every adapter exits by itself with status 0, nothing on its stderr, no EPIPE.
//
// Usage: node dap_client_test.js SPVSIM KERNEL_DIR (testdata/debug), with
// @vscode/debugadapter-testsupport on NODE_PATH (dap_client_test.sh sets it).
'use strict';

const assert = require('assert');
const cp = require('child_process');
const net = require('net');
const path = require('path');
const {DebugClient} = require('@vscode/debugadapter-testsupport');

const [SPVSIM, KERNELS] = process.argv.slice(2);
const BRANCH = path.resolve(KERNELS, 'branch.cl');
const FAULTS = path.resolve(KERNELS, 'faults.cl');
// branch.cl: 8 work-items, one work-group, sub-groups of 4 (dap_test.py works out values).
const BRANCH_ARGS = [
  '--global', '8', '--local', '8', '--sub-group-size', '4', '--arg', 'buffer:uint[8]', '--arg',
  'buffer:uint4[8]=range(0)', '--dump'
];
const BRANCH_RESULT = 'arg0 uint[8] = 3 107 15 117 27 127 39 137';
// faults.cl `shifted`: lanes 4-7 store out[i + 4] past the end of out[8] (line 6).
const SHIFTED_ARGS = [
  '--kernel', 'shifted', '--global', '8', '--sub-group-size', '8', '--arg', 'buffer:int[8]',
  '--dump'
];
// faults.cl `spin`: loops until stopped (2^30 instructions).
const SPIN_ARGS = [
  '--kernel', 'spin', '--global', '4', '--local', '4', '--sub-group-size', '4', '--arg',
  'buffer:int[1]', '--arg', 'buffer:int[4]'
];
// Each wait for an event or a response: compiling a kernel on a loaded 2-core machine
// (under ASan in CI's second pass) takes seconds, DebugClient's default is 5.
const TIMEOUT_MS = 60000;
const SESSIONS = 20;

// Rejects after `ms` with `what`, unless `promise` settles first.
function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// One `spvsim dap` started by DebugClient over stdio, with what the test watches of the
// process: its end (once its output is read: 'close'), its stderr, write errors on its
// stdin (EPIPE: the client wrote to an adapter that had gone) and the session's output.
async function open() {
  const dc = new DebugClient(SPVSIM, 'dap', 'spvsim');
  dc.defaultTimeout = TIMEOUT_MS;
  await dc.start();
  const proc = dc._adapterProcess;  // DebugClient keeps the child it spawned here
  const s = watch(proc);
  s.dc = dc;
  proc.stdin.on('error', (e) => s.pipeErrors.push(`${e.code || ''} ${e.message}`));
  dc.on('output', (e) => {
    s.output += e.body.output;
  });
  return s;
}

function watch(proc) {
  const s = {proc, stderr: '', expectedStderr: '', pipeErrors: [], output: '', code: undefined};
  s.closed = new Promise((resolve) => proc.on('close', (code, signal) => {
    s.code = code;
    resolve({code, signal});
  }));
  proc.stderr.on('data', (d) => {
    s.stderr += d;
  });
  return s;
}

// A port nothing listens on (the adapter takes 1-65535, not 0).
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const {port} = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// `spvsim dap --port N` started by the test, and DebugClient connected to it as VS Code's
// `debugServer` connects: the token it printed on stderr goes into the launch arguments.
async function openPort() {
  const port = await freePort();
  const proc =
      cp.spawn(SPVSIM, ['dap', '--port', String(port)], {stdio: ['ignore', 'ignore', 'pipe']});
  const s = watch(proc);
  const listening = new RegExp(
      `^token=([0-9a-f]{32})\\nspvsim dap: listening on ` +
      `127\\.0\\.0\\.1:${port}\\n$`);
  await within(
      new Promise((resolve, reject) => {
        proc.stderr.on('data', () => {
          if (listening.test(s.stderr)) resolve();
        });
        s.closed.then(
            (c) => reject(new Error(
                `spvsim dap --port exited: ${JSON.stringify(c)} ` +
                `${s.stderr}`)));
      }),
      TIMEOUT_MS, 'spvsim dap --port: the token and the listening message');
  s.expectedStderr = s.stderr;
  s.token = listening.exec(s.stderr)[1];
  s.dc = new DebugClient(SPVSIM, 'dap', 'spvsim');
  s.dc.defaultTimeout = TIMEOUT_MS;  // DebugClient has no timeouts over a port: within()
  await s.dc.start(port);
  s.dc._socket.on('error', (e) => s.pipeErrors.push(`${e.code || ''} ${e.message}`));
  s.dc.on('output', (e) => {
    s.output += e.body.output;
  });
  return s;
}

// Ends a session as VS Code's stop button does: `disconnect` (terminating the debuggee),
// whose response must arrive; then the adapter must exit by itself, with status 0.
async function disconnect(s, what) {
  const answered = s.dc.disconnectRequest({restart: false, terminateDebuggee: true})
                       .then((r) => ({response: r}));
  const first = await within(
      Promise.race([answered, s.closed.then((c) => ({closed: c}))]), TIMEOUT_MS,
      `${what}: disconnect`);
  assert.ok(
      first.response,
      `${what}: the adapter exited (${JSON.stringify(first.closed)}) ` +
          `before it answered disconnect; stderr: ${s.stderr}`);
  assert.strictEqual(first.response.success, true, `${what}: disconnect failed`);
  const {code, signal} = await within(s.closed, 30000, `${what}: the adapter's exit`);
  assert.strictEqual(signal, null, `${what}: the adapter ended by signal ${signal}`);
  assert.strictEqual(code, 0, `${what}: the adapter exited ${code}; stderr: ${s.stderr}`);
  assert.deepStrictEqual(s.pipeErrors, [], `${what}: write errors on the adapter's stdin`);
  assert.strictEqual(s.stderr, s.expectedStderr, `${what}: the adapter wrote on stderr`);
}

// A session that failed: its adapter must not outlive the test.
function abandon(s) {
  if (s && s.code === undefined) s.proc.kill('SIGKILL');
}

// The top frame of a stop, as assertStoppedLocation returns it.
function topFrame(stackTrace) {
  assert.ok(stackTrace.body.stackFrames.length > 0, 'a stop with frames');
  return stackTrace.body.stackFrames[0];
}

async function fault() {
  const s = await open();
  try {
    const stoppedEvent = s.dc.waitForEvent('stopped');
    const [, , trace] = await Promise.all([
      s.dc.configurationSequence(),
      s.dc.launch({program: FAULTS, args: SHIFTED_ARGS}),
      s.dc.assertStoppedLocation('exception', {path: FAULTS, line: 6}),
    ]);
    const stop = (await stoppedEvent).body;
    const frame = topFrame(trace);
    assert.strictEqual(frame.name, 'shifted');
    const text = stop.text || '';
    assert.match(
        text, /^error: out-of-bounds: write of 4 bytes .*lanes 4-7/,
        `the stop's text is the diagnostic: ${JSON.stringify(stop)}`);
    const info = await s.dc.exceptionInfoRequest({threadId: stop.threadId});
    assert.strictEqual(info.body.exceptionId, 'out-of-bounds');
    assert.strictEqual(info.body.description, text, 'exceptionInfo describes the diagnostic');
    assert.strictEqual(info.body.breakMode, 'always');
    assert.ok(s.output.includes(text), `the diagnostic is output:\n${s.output}`);
    // The rest of the kernel runs; the error makes its exit status 2.
    const [exited] = await Promise.all([
      s.dc.waitForEvent('exited'), s.dc.waitForEvent('terminated'),
      s.dc.continueRequest({threadId: stop.threadId})
    ]);
    assert.strictEqual(exited.body.exitCode, 2, 'exit code 2 after an error');
    assert.ok(s.output.includes('arg0 int[8] = 1 4 7 10 13 16 19 22'), s.output);
    await disconnect(s, 'fault');
  } finally {
    abandon(s);
  }
}

async function entry() {
  const s = await open();
  try {
    const [, , trace] = await Promise.all([
      s.dc.configurationSequence(),
      s.dc.launch({program: BRANCH, args: BRANCH_ARGS, stopOnEntry: true}),
      s.dc.assertStoppedLocation('entry', {}),
    ]);
    const frame = topFrame(trace);
    assert.ok(
        frame.source && frame.source.path === BRANCH,
        `the entry's source: ${JSON.stringify(frame)}`);
    assert.ok(frame.line > 0, `the entry's line: ${JSON.stringify(frame)}`);
    assert.strictEqual(frame.name, 'branchy');
    await Promise.all([s.dc.waitForEvent('terminated'), s.dc.continueRequest({threadId: 1})]);
    assert.ok(s.output.includes(BRANCH_RESULT), s.output);
    await disconnect(s, 'entry');
  } finally {
    abandon(s);
  }
}

// A session stopped at a breakpoint on line 14 (odd lanes: lanes 1 and 3 of sub-group 0,
// i = 1 and 3, where x = i + 1), through DebugClient's own scenario, which sets the
// breakpoint in the configuration sequence and checks it is verified on that line.
async function atBreakpoint(s) {
  const launch = {program: BRANCH, args: BRANCH_ARGS};
  if (s.token) launch.token = s.token;
  const [, , trace] = await within(
      s.dc.hitBreakpoint(launch, {path: BRANCH, line: 14}), TIMEOUT_MS,
      'the breakpoint on line 14');
  const frame = topFrame(trace);
  const x = await s.dc.evaluateRequest({expression: 'x', frameId: frame.id, context: 'watch'});
  assert.strictEqual(x.body.result, '[0]=- [1]=2 [2]=- [3]=4', 'x at the breakpoint');
}

async function breakpoint() {
  const s = await open();
  try {
    await atBreakpoint(s);
    await disconnect(s, 'breakpoint');
  } finally {
    abandon(s);
  }
}

// Over --port (VS Code's debugServer): the token admits DebugClient; the session runs to
// the end and the adapter's run ends with its disconnect.
async function overPort() {
  const s = await openPort();
  try {
    await atBreakpoint(s);
    await s.dc.setBreakpointsRequest({source: {path: BRANCH}, breakpoints: []});
    await within(
        Promise.all([s.dc.waitForEvent('terminated'), s.dc.continueRequest({threadId: 1})]),
        TIMEOUT_MS, 'terminated over --port');
    assert.ok(s.output.includes(BRANCH_RESULT), s.output);
    await disconnect(s, 'over --port');
  } finally {
    abandon(s);
  }
}

async function disconnectWhileRunning() {
  const s = await open();
  try {
    await Promise.all(
        [s.dc.configurationSequence(), s.dc.launch({program: FAULTS, args: SPIN_ARGS})]);
    await new Promise((resolve) => setTimeout(resolve, 500));  // inside the loop
    assert.strictEqual(s.code, undefined, 'spin is still running');
    await disconnect(s, 'disconnect while running');
  } finally {
    abandon(s);
  }
}

// Even sessions run the kernel to its end before disconnecting; odd ones disconnect at
// the breakpoint.
async function sessions() {
  for (let i = 0; i < SESSIONS; ++i) {
    const s = await open();
    try {
      await atBreakpoint(s);
      if (i % 2 === 0) {
        await s.dc.setBreakpointsRequest({source: {path: BRANCH}, breakpoints: []});
        const [exited] = await Promise.all([
          s.dc.waitForEvent('exited'), s.dc.waitForEvent('terminated'),
          s.dc.continueRequest({threadId: 1})
        ]);
        assert.strictEqual(exited.body.exitCode, 0);
        assert.ok(s.output.includes(BRANCH_RESULT), `session ${i + 1}'s results: ${s.output}`);
      }
      await disconnect(s, `session ${i + 1} of ${SESSIONS}`);
    } finally {
      abandon(s);
    }
  }
}

async function main() {
  const failures = [];
  for (const [name, scenario] of [
           ['fault', fault], ['entry', entry], ['breakpoint', breakpoint],
           ['over --port', overPort], ['disconnect while running', disconnectWhileRunning],
           [`${SESSIONS} sessions`, sessions]]) {
    const start = Date.now();
    try {
      await scenario();
      console.log(`ok: ${name} (${((Date.now() - start) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failures.push(name);
      console.log(`FAIL: ${name}: ${e.stack || e}`);
    }
  }
  if (failures.length) {
    console.log(`${failures.length} scenario(s) failed: ${failures.join(', ')}`);
    process.exit(1);
  }
  console.log('PASS');
}

// A hang fails the test rather than stalling it.
setTimeout(() => {
  console.log('FAIL: still running after 240 s');
  process.exit(1);
}, 240000).unref();
main();
