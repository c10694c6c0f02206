#include "tools/cli/help.h"

#include "src/debugger/debug_help.h"

namespace spvsim::tools {
namespace {

constexpr const char* kOverview =
    R"(spvsim: runs OpenCL SPIR-V kernels on the CPU the way a GPU would, sub-group by
sub-group in lockstep, and reports undefined behaviour.

Usage:
  spvsim run KERNEL --global X[,Y[,Z]] [options] [--arg SPEC]...   run a kernel
  spvsim run FILE.sim [options]                  run an Oclgrind .sim file
  spvsim run BUNDLE [options]                    replay a launch the ICD captured
                                                 (SPVSIM_CAPTURE=DIR; BUNDLE: DIR/NNNN-KERNEL)
  spvsim check KERNEL ... | FILE.sim | BUNDLE    the oracle: several sub-group sizes and
                                                 schedules, every checker, results compared
                                                 (a BUNDLE's with the captured results)
  spvsim check DIR | --merge FILE.jsonl...       every bundle and .sim file under DIR;
                                                 shards' results merged into one report
  spvsim debug KERNEL ... | FILE.sim | BUNDLE    step through a kernel sub-group by sub-group
  spvsim dap [--port N]                          the debugger as a Debug Adapter Protocol
                                                 server for IDEs (see 'spvsim dap --help')
  spvsim dis KERNEL                              disassemble, with source lines
  spvsim info KERNEL                             kernels, execution modes, parameters,
                                                 and how the module was compiled
  spvsim compile KERNEL [-o FILE.spv]            compile once (OpenCL C to SPIR-V), run many
  spvsim help [COMMAND] | spvsim COMMAND --help  help
  spvsim --version | spvsim version               the version

KERNEL is a .spv (SPIR-V binary), .spvasm (SPIR-V assembly) or .cl (OpenCL C, compiled
with clang-15, opt-15 and llvm-spirv-15 at -O2 unless --build-options name a level; a
compiled .cl is kept in the compile cache, so running it again does not recompile).

Exit status: 0 success; 1 usage or input error; 2 the kernel ran and reported errors.
)";

constexpr const char* kRunOptions = R"(Options:
  --kernel NAME            kernel to run; may be left out when the module has one kernel
  --global X[,Y[,Z]]       global size (required); 1 to 3 dimensions
  --local X[,Y[,Z]]        work-group size; default: the kernel's LocalSize execution mode,
                           else the largest divisors of the global size with product <= 256;
                           any size memory allows (--max-memory), not a device's 1024
  --global-offset X[,Y[,Z]]  global offset (default 0)
  --sub-group-size N       sub-group size, 1..128 (default 16); a SubgroupSize execution
                           mode in the kernel takes precedence
  --build-options OPTS     extra clang options for a .cl KERNEL, as for clBuildProgram
                           (e.g. "-DN=4 -cl-fast-relaxed-math"); -cl-std=CL2.0 replaces
                           the default -cl-std=CL3.0; -O0..-O3 the default -O2
  --no-cache               compile a .cl KERNEL without the compile cache (neither read
                           nor written)
  --arg SPEC               one per kernel parameter, in order (forms below)
  --dump                   print every buffer argument after the run
  --json FILE              also write diagnostics and buffers as JSON to FILE
  --threads N              host threads for work-groups, and for formatting large
                           --dump output (default 0: all cores)
  --instruction-budget N   sub-group instructions one work-group may execute before an
                           instruction-budget error (default 2^30)
  --max-memory BYTES       host memory the argument buffers and the launch may take
                           (K, M, G suffixes; default: half the physical memory); more is
                           an out-of-memory error before anything is allocated
  --max-device-enqueues N  commands the launch and the kernels it enqueues may enqueue in
                           all (device-side enqueue; default 2^20); more is a fatal
                           device-enqueue error (a kernel that enqueues itself forever)
  --schedule POLICY        how sub-groups of a work-group interleave: round-robin (default)
                           or random[:SEED] (a seeded random pick at every switch point)
  --reconvergence POLICY   which lanes run together after a divergent branch outside
                           uniform control flow: ipdom (default: each side together, all
                           at the branch's post-dominator) or random[:SEED] (lanes of one
                           side may be split into groups that run apart until control
                           flow is uniform again; non-uniform sub-group operations then
                           see only their group; groups and sides run in a seeded order,
                           interleaved every 1 to 64 instructions)
  --forward-progress MODE  (run, check, debug) progress between work-groups: none (default;
                           OpenCL promises none: a work-group waiting for another is a
                           deadlock) or occupancy[:N] (N work-groups resident at once,
                           default the compute units: --threads, else the cores; they
                           take turns on one host thread and one that waits lets the
                           others run, as persistent-thread kernels assume; the checkers
                           compare what resident work-groups do to each other; in debug,
                           `continue` takes the same turns, `step` runs one sub-group)
  --memory-model MODEL     when other work-items see a store: sc (default: at once) or
                           relaxed[:SEED] (per-work-item store buffers drain at points and
                           in orders drawn from SEED, default the --schedule seed, as far
                           as the OpenCL memory model allows: stale reads that relaxed
                           atomics permit appear; work-groups then run one at a time)
  --check-uninitialized    report reads of private or local memory that was never written
  --check-undefined        report undefined values (OpUndef, memory never written, .sim
                           noinit buffers) where they matter: branch conditions,
                           addresses, values stored to global memory, printf and atomic
                           operands, integer divisors (work-groups then run one at a time)
  --check-races            report data races and synchronisation of insufficient scope
                           (work-groups then run one at a time, on one host thread)
  --stats                  print execution statistics to stderr: launch time (without
                           compiling, loading, lowering or starting host threads),
                           sub-group and lane instructions, lanes/s; then when each
                           host thread entered, began and finished, and its units; then
                           the process's set-up, lowering, threads, launch and results
  --progress               always show the progress line (work-groups done/total, lane
                           instructions/s, ETA) on stderr: redrawn in place on a terminal,
                           plain "progress: ..." lines otherwise (default: on a terminal
                           only, from a second into the launch)
  --quiet                  no progress line
  --profile FILE.html      write a self-contained HTML profile of the launch: executions
                           and active lanes per source line and SPIR-V instruction,
                           divergent branches, global memory coalescing (64-byte lines),
                           local memory bank conflicts, a timeline of the host threads'
                           work-groups and sub-groups, memory traffic per buffer
                           (--threads 1: deterministic, as a serial run)
  --profile-json FILE      the same profile as JSON (fields: README.md "Profiles")
  --profile-text FILE      its summary as text: host threads and the worst offenders
  --profile-banks N        local memory banks of 4-byte words for the bank conflicts
                           (1..1024, default 32)
  -h, --help               this help

--arg SPEC forms:
  TYPE:V[,V...]            a scalar or vector value: int:5, float:2.5, uint4:1,2,3,4,
                           float4:0 (one value sets every component), half:1.5, ulong:0xff
                           TYPE is char uchar short ushort int uint long ulong half float
                           double size_t, or a vector of 2, 3, 4, 8 or 16 of them (float4);
                           integers are decimal or 0x-hex and range-checked (a hex value
                           may give any bit pattern: int:0xffffffff is -1); floats may be
                           inf, -inf, nan or hex floats (0x1.8p1)
  buffer:TYPE[N]=INIT      a global or constant buffer of N elements, INIT one of
      zero                   all zero (also when "=INIT" is left out)
      fill(V)                every component V; fill(V1,..,Vn) sets each vector element
      range(START[,STEP])    component k is START + k*STEP (STEP defaults to 1)
      values(V,...)          exactly one value per component, in order
      random(SEED)           deterministic (splitmix64): integers 0..99, floats in [0,1)
      random(SEED,LO,HI)     the same draws in a range: integers LO..HI, floats in [LO,HI)
      file(PATH)             raw little-endian bytes; the size must be N * sizeof(TYPE)
                           Vectors count components in order; a vec3 element occupies 4
                           components in memory and its fourth stays zero.
                           TYPE's components should be the pointer parameter's (float for
                           float4*: buffers are untyped); other components (their size, or
                           integer against floating point), or a size that is no whole
                           number of the parameter's elements, run as given with a warning:
                           argument-mismatch (char* and void* parameters take any TYPE).
  buffer:ro:TYPE[N]=INIT   a buffer created read-only (wo: write-only), as CL_MEM_READ_ONLY
                           (WRITE_ONLY): a kernel write (read) is reported as an
                           access-violation, then performed as on a device
  local:BYTES              local memory for a local pointer parameter
  struct:TYPE,...=V,...    a struct passed by value: member types in order, laid out as
                           OpenCL C does (each member aligned to its size, vec3 as vec4),
                           then one value per component, e.g. struct:int,float4=3,1,2,3,4
  null                     a NULL global or constant pointer
  image2d:ORDER,TYPE[W,H]=INIT
                           an image: also image1d[W], image1d_buffer[W], image1d_array[W,N],
                           image2d_array[W,H,N], image3d[W,H,D]; ORDER and TYPE without CL_
                           (RGBA, BGRA, R, ...; UNORM_INT8, FLOAT, ...); INIT as for buffers
                           over the channel values (x fastest, channels interleaved,
                           normalized channels as their stored integers)
  sampler:NORMALIZED|UNNORMALIZED,NONE|CLAMP|CLAMP_TO_EDGE|REPEAT|MIRRORED_REPEAT,NEAREST|LINEAR

Output: printf output first (stdout), then with --dump one line per buffer,
  arg2 int[8] = 0 1 2 3 4 5 6 7        (vectors as (1,2,3,4))
  arg0 image2d RGBA,UNORM_INT8[2,1] = 0 0 0 255 255 0 0 255   (channel values in memory order)
Diagnostics go to stderr, one per line: "error: KIND: message" with where it happened.
--json FILE writes {"diagnostics": [...], "buffers": {"arg2": [...]}} with every buffer
argument after the run (vectors as arrays; non-finite floats as the strings "NaN",
"Infinity", "-Infinity"). --json and --profile* files are written whole when the run
ends (a failed run: {"error": {"kind", "message"}}); an interrupted run leaves the old
file; a path naming an input file is refused; a failed write is an error (exit 1).

Oclgrind .sim files: the program (relative to the .sim file), kernel name, global size,
local size (3 numbers each), then one <...> header per argument: a type, size=BYTES,
fill=V, range=START:INC:END, dump, hex, noinit (starts zeroed), null, ro, wo (a kernel
write to ro or read of wo is reported as an access-violation and performed); values follow the header otherwise; a local pointer is <size=BYTES>.
Images: <image2d RGBA,UNORM_INT8[4,2] fill=V|range=..|noinit dump hex> (channel values
follow otherwise); samplers: <sampler NORMALIZED,CLAMP,LINEAR>.
Only arguments marked dump are printed (all buffers with --dump).

Capture bundles (an application run with SPVSIM_CAPTURE=DIR through the spvsim ICD writes
DIR/NNNN-KERNEL/ per launch): give the folder or its launch.txt. The bundle fixes the
module, kernel, NDRange, sub-group size (unless --sub-group-size) and arguments; every
buffer starts with the contents it had before the launch. spvsim check compares the
results with the contents the application's launch left.

Examples (quote specs that contain ( ) [ ] for the shell):
  spvsim run saxpy.cl --global 1024 --arg float:2 --arg 'buffer:float[1024]=range(0)' \
      --arg 'buffer:float[1024]=fill(1)' --dump
  spvsim run k.spv --kernel reduce --global 256 --local 64 --sub-group-size 8 \
      --arg 'buffer:int[256]=random(7)' --arg local:256 --arg 'buffer:int[4]' --dump
  spvsim run k.cl --global 16,16 --build-options '-DTILE=4 -g' \
      --arg 'buffer:float4[256]=fill(1,0,0,1)' --json out.json
  spvsim run tests/saxpy.sim --sub-group-size 8 --json out.json
)";

constexpr const char* kDebugIntro =
    R"(Steps through one launch the way a GPU runs it: one SPIR-V instruction of one sub-group
at a time, all its lanes together, showing which lanes are active and what each holds.
Takes the arguments of 'spvsim run'. A .cl KERNEL is compiled with -g (source lines and
variable names) and -O0 unless --build-options give an -O level. Commands come from the
terminal (line editing and history) or, when standard input is not a terminal, one per
line from it, so sessions can be scripted; end of input ends the session. Exit status: 0
when no error diagnostic was reported, 2 otherwise; 1 for usage or input errors.
Sub-groups are scheduled as in 'spvsim run' (`continue` interleaves them as run does
with the same --schedule and seed, and reports the same deadlocks); --check-races,
--check-uninitialized and --check-undefined report as in run, stopping at each report.
--json, --stats, --threads, --progress and --quiet do not apply (work-groups run one
at a time).

)";

constexpr const char* kDis = R"(Usage: spvsim dis KERNEL [--build-options OPTS] [--no-cache]

Prints the module's disassembly (SPIRV-Tools syntax), each instruction followed by its
source line where the module has line information (compile with --build-options -g).
Ids have SPIRV-Tools' friendly names: %in (an OpName), %uint, %v4float,
%_ptr_CrossWorkgroup_uint (types), %uint_3 (constants), %42 (an id without one).
Diagnostics, error messages and the debugger name ids the same way; the debugger also
takes %NUMBER.
)";

constexpr const char* kInfo =
    R"(Usage: spvsim info KERNEL [--kernel NAME] [--json] [--build-options OPTS] [--no-cache]

Prints the SPIR-V version, capabilities and extensions, then for each kernel (or just
NAME) its execution modes (LocalSize, SubgroupSize, ...) and parameters: index, name,
type, address space and access. Then how the module was made: for a .cl, the exact
commands (clang-15, opt-15, llvm-spirv-15) and whether it came from the compile cache;
what the compile driver rewrote in the LLVM IR; what the loader repaired in the SPIR-V.
  --json    the same facts as one JSON document on stdout: {"spirv_version",
            "generator", "capabilities", "extensions", "kernels": [{"name",
            "execution_modes", "required_work_group_size", "work_group_size_hint",
            "vec_type_hint", "required_sub_group_size", "args": [{"index", "name",
            "named", "type", "address_space", "access", "qualifiers", "kind",
            "argument", "size", "read_only", "pointee_size", ...}]}], "build":
            {"from_cache", "commands", "notes", "repairs"}} (README.md lists them)
)";

constexpr const char* kCompile =
    R"help(Usage: spvsim compile KERNEL [-o FILE.spv] [--build-options OPTS] [--no-cache]

Compiles an OpenCL C KERNEL (.cl) to a SPIR-V module that spvsim run, check, debug and
the OpenCL runtime (clCreateProgramWithIL) load without compiling again, and that
spirv-val accepts. The default output is the KERNEL's name with .spv, in the current
directory. A .spv or .spvasm KERNEL from elsewhere is written as the loader repairs it
(each repair is reported as "warning: repaired: RULE (PRODUCER)").

The compile driver (the one the run commands and the OpenCL runtime use):
  clang-15 -S with exactly the device's extensions and features predefined, the
      cl_intel_subgroups_char/short/long functions declared, sub-group calls kept in
      their branches, no odd-width integer closed forms, no SLP vectoriser (lanes are
      already the simulator's vectors)
  LLVM IR rewrites llvm-spirv-15 needs: freeze removed, OpenCL 1.x atomic_*/atom_*
      made device-wide (OpenCL 1.2's meaning), narrowed switches widened
  opt-15 -expand-reductions, then llvm-spirv-15
  the loader's repairs (block order, variables, interfaces, ...) and validation
When the translator fails or its module is invalid at the requested level, the driver
compiles at -O1, then -O0, and says so in a "warning:" line.

Compile cache: $SPVSIM_CACHE_DIR, else $XDG_CACHE_HOME/spvsim, else ~/.cache/spvsim;
SPVSIM_CACHE=off turns it off, --no-cache skips it for one command. An entry is used
only while the source, options, included headers, the tools and spvsim are unchanged.
)help";

std::string runHelp(std::string_view command, std::string_view note) {
  std::string text = "Usage: spvsim " + std::string(command) +
                     " KERNEL --global X[,Y[,Z]] [options] [--arg SPEC]...\n"
                     "       spvsim " +
                     std::string(command) + " FILE.sim [options]\n\n";
  text += note;
  return text + kRunOptions;
}

}  // namespace

constexpr const char* kCheckIntro =
    R"(The reference oracle. Runs the launch at sub-group sizes 8, 16 and 32 (only the size
--sub-group-size or the kernel's intel_reqd_sub_group_size names), each with the
round-robin schedule and random schedules 1, 2 and 3 (only --schedule random:SEED when
given), and, where the kernel has a sub-group operation, round-robin under random
reconvergence with seeds 1 and 2 (--reconvergence random:SEED: SEED and SEED + 1;
--reconvergence ipdom: none), every time with --check-races,
--check-uninitialized and --check-undefined on, from the same initial buffers. A .cl
kernel built at another level than -O0 also runs round-robin once per size built at -O0
(optimisation may delete a faulty access before a checker sees it): what only that build
shows is reported, saying so; its results are not compared. Reports each diagnostic once, with how many runs showed it, then groups the runs into classes
with identical results (A, B, ...) and reports:
  error: scheduling-dependent     one sub-group size's schedules give different results
  warning: sub-group-size-dependent  results differ between sub-group sizes only
                                  (legitimate for kernels that use get_sub_group_size())
  warning: reconvergence-dependent   random reconvergence changes a size's results: the
                                  kernel counts on which lanes run together after a
                                  divergent branch (--strict: an error); names the first
                                  sub-group operation whose result differs
  error: memory-model-dependent   with --memory-model relaxed[:SEED] (seeds SEED..SEED+3
                                  per size, default 1): the relaxed model changes a
                                  size's results
  error: expect-mismatch          a class differs from the --expect reference
each naming the argument, the first differing element and its values. A summary table
(run x buffer: same / differs from A / matches expect / mismatch / ignored, and each
run's diagnostic counts) ends the report on stderr; --json adds it as "check".
Check options (besides those of spvsim run):
  --expect FILE            reference result: --dump lines ("arg1 int[4] = 1 2 3 4") or a
                           --json report (its "buffers"); only the arguments it names
                           are compared with it
  --ignore N|argN          leave argument N out of every comparison (repeatable)
  --unordered N|argN       compare buffer N as a multiset of elements, e.g. the output
                           of an atomic append (repeatable)
  --strict                 warnings make the exit status 2
  --optimized-only         no -O0 build of a .cl kernel: only the build the options ask for
Sweeps that scale out (the contract of Mesa's deqp-runner: list, shard, resume, merge):
  --list                   print one line per configuration, run nothing:
                           "ID LAUNCH sub_group_size=8 schedule=round-robin"; ID is 16
                           hex digits, the same on every machine (FNV-1a 64 of the module,
                           kernel, NDRange, arguments with their contents, a sweep's
                           path inside DIR, configuration)
  --shard I/N              run only the configurations at positions I, I+N, I+2N, ... of
                           the list (0 <= I < N; a DIR sweep counts over all its launches)
  --results FILE.jsonl     append one JSON line per configuration run (id, configuration,
                           verdict, digests of the buffers, diagnostics) and skip the ids
                           FILE already holds (resume); an incomplete last line (an
                           interrupted run) is ignored with a warning and run again
  --merge FILE.jsonl...    run nothing: report the records of these files (every
                           configuration of each launch, from any shards) with the summary,
                           warnings and exit status of the unsharded run
  --junit FILE             also write JUnit XML: a test case per configuration, a failure
                           for each one with errors, its diagnostics as system-out
  DIR (instead of KERNEL)  every capture bundle (a folder with launch.txt) and .sim file
                           under DIR, recursively, in sorted order, symbolic links not
                           followed; each is reported under "check: launch PATH"
--json reports one unsharded launch (not with --shard, --results, --merge or DIR).
--dump and --json report the first run's buffers. Exit status: 0 no errors (and, with
--strict, no warnings); 2 errors, warnings under --strict, or a run stopped by a fatal
error (a sweep: the worst of its launches); 1 usage or input errors (a bad
--ignore/--unordered index, an unreadable or malformed --expect file, a bad --shard, a
results file that is a folder or not records, shards missing from --merge).

)";

std::string helpText(std::optional<Command> command) {
  if (!command) return kOverview;
  switch (*command) {
    case Command::Run:
      return runHelp("run", "Runs one kernel launch and reports its diagnostics.\n\n");
    case Command::Check:
      return runHelp("check", kCheckIntro);
    case Command::Debug:
      return runHelp("debug", kDebugIntro) + "\n" + debugger::commandsHelp();
    case Command::Dis:
      return kDis;
    case Command::Info:
      return kInfo;
    case Command::Compile:
      return kCompile;
  }
  return kOverview;
}

}  // namespace spvsim::tools
