#include "src/debugger/debug_help.h"

namespace spvsim::debugger {
namespace {

constexpr const char* kCommands =
    R"(Debugger commands (gdb-like; a unique prefix or the alias in brackets works):
  step [N]            [s, si] one SPIR-V instruction of the current sub-group, all its
                      active lanes (N times); at a work-group barrier, the other
                      sub-groups run until it is released
  next [N]            [n] to the next source line in this function, over calls; from
                      an instruction without a line (the entry), to the first with one;
                      one instruction when the module has no line information
  finish              [fin] until the current function returns; prints the value returned
  continue            [c] run the work-group's sub-groups as 'spvsim run' schedules them
                      (round-robin, or --schedule random[:SEED]), then the next
                      work-groups, until a breakpoint, a watchpoint, an error or the end
  break LOC [if COND] [b] LOC: FILE:LINE, LINE, %ID (a result id) or FUNCTION (stops
                      after its prologue: parameters are readable); COND: an expression
                      (see print) tested per active lane, e.g. x > 100 (any active
                      lane), x[3] == 7 or $lane == 3 (lane 3), in[i] != 0 && i < 4;
                      %ID is a number (%23) or the name spvsim dis prints (%in, %uint)
  tbreak LOC [if COND] [tb] a breakpoint deleted when it first stops
  until [LOC]         [u] run the current sub-group until it reaches a later line of this
                      function (out of a loop), or LOC in it, or the function returns
  watch NAME[I:J]     stop when a buffer argument's elements I..J-1 change (NAME[I]: one)
  watch EXPR          stop when a variable or memory element changes (x, tile[2], p[3]);
                      per lane for private values, in the current work-group
  delete [N...]       [d] delete breakpoints/watchpoints N (all without N)
  print[/x|d|u] EXPR [p] every lane's value of an expression: names (variables and
                      values from -g or OpName), %ID, $lane (the focused lane), numbers;
                      - ! ~ * / % + - << >> < <= > >= == != & ^ | && || ( ); P[I]: element I
                      of the memory pointer P points at (in[3]); A[I]: an array element;
                      X@N or X[N] (X not a pointer or array): lane N; .x .y .z .w .sN;
                      /x hex, /d signed, /u unsigned
  display[/x|d|u] EXPR [disp] print EXPR at every stop (display: show them now)
  undisplay [N...]    delete displays N (all without N)
  set var X = EXPR    write X (a variable, component or memory element) in the focused
                      lane; set var X@all = EXPR: in every active lane ($lane per lane)
  lane [N]            focus on lane N of the sub-group ($lane, set var, print shows it first)
  workitem X[,Y,Z]    [wi] focus on the work-item with that global id (its work-group,
                      sub-group and lane)
  frame [N]           [f] select frame N of the call stack: print and info locals see its
                      names (0: innermost; execution resets it)
  up [N]              select the caller (N frames out)
  down [N]            select the callee (N frames in)
  restart             [r, run] launch the kernel again from its start, buffers as they
                      were given; breakpoints, buffer watchpoints and displays are kept
  lanes               the current sub-group's active lanes
  subgroup N          [sg, thread] switch to sub-group N of the current work-group
  workgroup X[,Y,Z]   [wg] switch to a work-group (started on first visit; each keeps its
                      own state and local memory)
  backtrace           [bt, where] the call stack of the current sub-group
  list [LOC]          [l] source and SPIR-V around the current instruction (or LOC)
  x NAME[I:J]         examine elements I..J-1 of a buffer argument, a local-memory argument
                      or a __local variable (the current work-group's)
  x/NFU VALUE         N elements where pointer VALUE points, e.g. x/4 p[2]; as gdb's
                      F (x d u o t f c) and U (b h w g: 1 2 4 8 bytes), e.g. x/4dw p
  info breakpoints    [info b] breakpoints and watchpoints
  info subgroups      [info sg, info threads] each sub-group: running, at barrier or
                      done, and where
  info line           the current source line, its function and instruction
  info stores         --memory-model relaxed: stores waiting in store buffers
                      (work-item, address, bytes), not yet seen by other work-items
  info workgroups     [info wg] the work-groups started and how many are left
  info simt           the reconvergence stack: entries' lanes, where each resumes, where
                      it reconverges
  info locals         every named variable of the current function, per lane
  info args           the current function's parameters, in order, per lane
  info lanes          the same as lanes
  help [COMMAND]      [h] this list
  quit                [q] end the session (also end of input)
An empty line repeats step, next, until or continue at the terminal. Ctrl-C stops a
running continue (or step, next, until, finish) between instructions.

Output: after each stop
  work-group (0,0,0) sub-group 1 at k.cl:7  %23 = OpIAdd %uint %21 %22
  lanes 0-3,8 active (5/16)  [####.... #.......]
(# an active lane, . an inactive one). print shows one entry per lane, "-" for inactive
lanes: x (uint) = [0]=4 [1]=5 [2]=- [3]=7. Values in local, global or constant memory are
shown once, for the whole work-group. Pointers read SPACE:NAME+OFFSET (global:out+16).
Any new error diagnostic stops execution after the instruction that caused it (each kind
of error once per instruction), checkers' reports included; a fatal one (e.g. barrier
divergence, a deadlock, the instruction budget) ends the launch, as in 'spvsim run'. When every work-group has finished, the
diagnostics and --dump buffers are printed as 'spvsim run' prints them.
)";

}  // namespace

std::string commandsHelp() { return kCommands; }

}  // namespace spvsim::debugger
