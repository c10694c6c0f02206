#include "src/check/shadow_rules.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>

#include "src/check/shadow_bytes.h"
#include "src/exec/subgroup.h"

namespace spvsim::check::rules {
namespace {

const ShadowKernel& kernelOf(const SubGroup& sg) {
  return static_cast<const ShadowKernel&>(*sg.wg->launch->kernel);
}

uint8_t anyByte(const uint8_t* p, uint32_t n) {
  uint8_t any = 0;
  for (uint32_t i = 0; i < n; ++i) any |= p[i];
  return any != 0;
}

// Whether the n bytes at p are all 0, eight at a time.
bool allZero(const uint8_t* p, size_t n) {
  uint64_t any = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    any |= w;
  }
  for (; i < n; ++i) any |= p[i];
  return any == 0;
}

// Whether operand o is defined in every lane of the sub-group (active or not): one pass
// over its register's shadow, which lets the rules skip their per-lane work in the common
// case of defined values.
bool definedEverywhere(const SubGroup& sg, const ShadowOperand& o) {
  return allZero(sg.shadow + o.reg, size_t(sg.width) * o.bytes);
}

uint8_t* laneShadow(const SubGroup& sg, const ShadowOperand& o, uint32_t lane) {
  return sg.shadow + o.reg + size_t(lane) * o.bytes;
}

bool undefinedIn(const SubGroup& sg, const ShadowOperand& o, uint32_t lane) {
  return anyByte(laneShadow(sg, o, lane), o.bytes);
}

LaneMask undefinedLanes(const SubGroup& sg, const ShadowOperand& o) {
  LaneMask m;
  if (definedEverywhere(sg, o)) return m;
  sg.forActive([&](uint32_t l) {
    if (undefinedIn(sg, o, l)) m.set(l);
  });
  return m;
}

const char* useText(ShadowUse u) {
  switch (u) {
    case ShadowUse::Address:
      return "as an address";
    case ShadowUse::Condition:
      return "as a branch condition";
    case ShadowUse::Selector:
      return "as a switch selector";
    case ShadowUse::Divisor:
      return "as an integer divisor";
    case ShadowUse::Printf:
      return "as a printf argument";
    case ShadowUse::Atomic:
      return "as an atomic operand";
    case ShadowUse::None:
      break;
  }
  return "";
}

void reportValue(SubGroup& sg, const Inst& in, spirv::Id id, const std::string& how,
                 const LaneMask& lanes) {
  const ShadowKernel& k = kernelOf(sg);
  // Named as spvsim dis names it (src/DESIGN.md "Names of ids").
  const std::string name = k.facts ? k.facts->idName(id) : k.module->nameOf(id);
  sg.report(in, DiagnosticKind::UninitializedValue,
            fmt::format("undefined value {} {} (it comes from OpUndef, memory never written or "
                        "a buffer the host never initialised)",
                        name, how),
            lanes);
}

void reportUses(SubGroup& sg, const Inst& in, const ShadowRule& r) {
  for (const ShadowOperand& o : r.operands) {
    if (o.use == ShadowUse::None) continue;
    const LaneMask bad = undefinedLanes(sg, o);
    if (bad.any()) reportValue(sg, in, o.id, std::string("used ") + useText(o.use), bad);
  }
}

// Runs the phi copies of `edge` for `lanes` on the shadow register file.
void shadowEdge(SubGroup& sg, uint32_t edge, const LaneMask& lanes) {
  if (lanes.none()) return;
  uint8_t* saved = sg.regs;
  sg.regs = sg.shadow;
  sg.takeEdge(edge, lanes);
  sg.regs = saved;
}

// The register bytes of a loaded or stored value: in.n, the bytes in memory, but for a
// Physical32 pointer 8 in registers and 4 in memory (src/exec/address32.h), where the
// whole value is undefined if any of its bytes is.
uint32_t registerBytes(const ShadowOperand& value, const Inst& in) {
  return value.bytes ? value.bytes : in.n;
}

// Zeroes `bytes` of shadow register `reg` in each active lane.
void zeroActive(SubGroup& sg, uint32_t reg, uint32_t bytes) {
  if (sg.allActive)
    std::memset(sg.shadow + reg, 0, size_t(sg.width) * bytes);
  else
    sg.forActive([&](uint32_t l) { std::memset(sg.shadow + reg + size_t(l) * bytes, 0, bytes); });
}

}  // namespace

void propagate(SubGroup& sg, const Inst& in, const ShadowRule& r) {
  reportUses(sg, in, r);
  if (!r.result.bytes) return;
  // Every operand defined in every lane: so is the result in each active lane (what the
  // per-lane rule below computes then).
  if (std::all_of(r.operands.begin(), r.operands.end(),
                  [&](const ShadowOperand& o) { return definedEverywhere(sg, o); })) {
    zeroActive(sg, r.result.reg, r.result.bytes);
    return;
  }
  sg.forActive([&](uint32_t l) {
    uint8_t* out = laneShadow(sg, r.result, l);
    uint8_t whole = 0;
    for (const ShadowOperand& o : r.operands)
      if (!o.elem) whole |= undefinedIn(sg, o, l);
    if (!r.components) {
      std::memset(out, whole, r.result.bytes);
      return;
    }
    std::memset(out, 0, r.result.bytes);  // vec3's padding component stays defined
    for (uint32_t c = 0; c < r.components; ++c) {
      uint8_t v = whole;
      for (const ShadowOperand& o : r.operands)
        if (o.elem) v |= anyByte(laneShadow(sg, o, l) + c * o.elem, o.elem);
      std::memset(out + c * r.result.elem, v, r.result.elem);
    }
  });
}

void moveBytes(SubGroup& sg, const Inst& in, const ShadowRule& r) {
  uint8_t* saved = sg.regs;
  sg.regs = sg.shadow;
  r.original(sg, in);
  sg.regs = saved;
}

void shuffleVector(SubGroup& sg, const Inst& in, const ShadowRule& r) {
  moveBytes(sg, in, r);
  sg.shadowClean = false;  // its undefined components (ShadowRule::data)
  sg.forActive([&](uint32_t l) {
    uint8_t* out = laneShadow(sg, r.result, l);
    for (size_t i = 0; i < r.data.size() && i < r.result.bytes; ++i) out[i] |= r.data[i];
  });
}

void select(SubGroup& sg, const Inst&, const ShadowRule& r) {
  const ShadowOperand &cond = r.operands.at(0), &a = r.operands.at(1), &b = r.operands.at(2);
  const uint32_t rb = r.result.bytes;
  sg.forActive([&](uint32_t l) {
    uint8_t* out = laneShadow(sg, r.result, l);
    const uint8_t* value = sg.regs + cond.reg + size_t(l) * cond.bytes;
    if (!cond.elem) {  // one condition for the whole value
      if (undefinedIn(sg, cond, l))
        std::memset(out, 1, rb);
      else
        std::memcpy(out, laneShadow(sg, (value[0] & 1) ? a : b, l), rb);
      return;
    }
    const uint32_t e = r.result.elem;
    for (uint32_t c = 0; c < r.components; ++c) {
      if (laneShadow(sg, cond, l)[c * cond.elem])
        std::memset(out + c * e, 1, e);
      else
        std::memcpy(out + c * e, laneShadow(sg, (value[c * cond.elem] & 1) ? a : b, l) + c * e, e);
    }
  });
}

// Whether every active lane's pointer names a global region without a shadow (one the
// host initialised: always defined), for which load() gives defined values without
// looking the lanes' addresses up.
bool globalWithoutShadow(const SubGroup& sg, const uint64_t* ptrs) {
  const auto& shadows = kernelOf(sg).globalShadow;
  bool all = true;
  sg.forActive([&](uint32_t l) {
    const uint64_t region = pointerRegion(ptrs[l]);
    all &= pointerSpace(ptrs[l]) == Space::Global && (region >= shadows.size() || !shadows[region]);
  });
  return all;
}

// Whether every active lane's pointer lies in one region of global, constant or local
// memory, its `n` bytes in bounds: then lane l's memory shadow lies offsetBits(ptrs[l]) -
// `low` bytes after `shadow`, the shadow of the lowest lane's bytes (nullptr: memory
// without shadow), found with one locate() for the sub-group instead of one per lane;
// `spanBytes` from the lowest lane's first byte to the highest one's last.
bool oneRegion(const SubGroup& sg, const uint64_t* ptrs, uint32_t n, bool write, uint64_t& low,
               uint64_t& spanBytes, uint8_t*& shadow) {
  if (sg.mask.none()) return false;
  const uint32_t f = sg.mask.first();
  const Space s = pointerSpace(ptrs[f]);
  if (s != Space::Global && s != Space::Constant && s != Space::Local) return false;
  const uint64_t key = ptrs[f] & ~kOffsetMask;
  uint64_t hi = 0;
  uint32_t lowest = f;
  bool same = true;
  low = ~uint64_t(0);
  sg.forActive([&](uint32_t l) {
    const uint64_t o = offsetBits(ptrs[l]);
    same &= (ptrs[l] & ~kOffsetMask) == key;
    if (o < low) low = o, lowest = l;
    hi = std::max(hi, o);
  });
  if (!same) return false;
  AccessError error;
  spanBytes = hi - low + n;
  const uint8_t* host = sg.locate(ptrs[lowest], lowest, spanBytes, write, error);
  if (!host) return false;
  shadow = memoryShadow(sg, ptrs[lowest], host);
  return true;
}

void load(SubGroup& sg, const Inst& in, const ShadowRule& r) {
  const ShadowOperand& ptr = r.operands.at(0);
  const uint64_t* ptrs = sg.reg<uint64_t>(in.a);
  const uint32_t stride = registerBytes(r.result, in);
  // The handler read the whole sub-group's bytes as one run, all of them defined (what
  // the observer found: UndefinedValueChecker::accessRun), at defined addresses.
  const ShadowKernel& k = kernelOf(sg);
  if (k.runBy == &sg && k.runStep == sg.steps && k.runDefined && stride == in.n) {
    if (sg.shadowClean) return;  // the address is defined and the result's shadow zero
    if (definedEverywhere(sg, ptr)) return zeroActive(sg, in.r, stride);
  }
  if (globalWithoutShadow(sg, ptrs)) {
    sg.forActive(
        [&](uint32_t l) { std::memset(sg.shadow + in.r + size_t(l) * stride, 0, stride); });
    const LaneMask bad = undefinedLanes(sg, ptr);
    if (bad.any()) reportValue(sg, in, ptr.id, "used as the address of a load", bad);
    return;
  }
  uint64_t low = 0, spanBytes = 0;
  uint8_t* span = nullptr;
  if (stride == in.n && oneRegion(sg, ptrs, in.n, false, low, spanBytes, span)) {
    const bool addressDefined = definedEverywhere(sg, ptr);
    // Every byte of the span defined (the common case: memory written before the loads):
    // so is each lane's value, and one pass over the span says so where it is not much
    // longer than the bytes the lanes read (else the lanes are looked at one by one).
    if (addressDefined &&
        (!span || (spanBytes <= 4 * uint64_t(sg.width) * in.n && noZeroByte(span, spanBytes)))) {
      zeroActive(sg, in.r, stride);
      return;
    }
    LaneMask bad;
    uint8_t any = 0;  // an undefined byte written
    sg.forActive([&](uint32_t l) {
      uint8_t* out = sg.shadow + in.r + size_t(l) * stride;
      if (!addressDefined && undefinedIn(sg, ptr, l)) bad.set(l);
      if (!span) return std::memset(out, 0, stride), void();
      const uint8_t* defined = span + (offsetBits(ptrs[l]) - low);
      for (uint32_t i = 0; i < in.n; ++i) any |= out[i] = !defined[i];
    });
    if (any) sg.shadowClean = false;
    if (bad.any()) reportValue(sg, in, ptr.id, "used as the address of a load", bad);
    return;
  }
  // Lane by lane; any undefined byte written leaves the file not known to be clean.
  sg.shadowClean = false;
  LaneMask bad;
  sg.forActive([&](uint32_t l) {
    uint8_t* out = sg.shadow + in.r + size_t(l) * stride;
    // Reported here, the address does not make the value undefined too: one report per cause.
    if (undefinedIn(sg, ptr, l)) bad.set(l);
    AccessError error;
    const uint8_t* host = sg.locate(ptrs[l], l, in.n, false, error);
    const uint8_t* defined = host ? memoryShadow(sg, ptrs[l], host) : nullptr;
    if (stride != in.n) {
      uint8_t undefined = 0;
      for (uint32_t i = 0; defined && i < in.n; ++i) undefined |= !defined[i];
      return std::memset(out, undefined, stride), void();
    }
    for (uint32_t i = 0; i < in.n; ++i) out[i] = defined ? !defined[i] : 0;
  });
  if (bad.any()) reportValue(sg, in, ptr.id, "used as the address of a load", bad);
}

// Whether any data byte (ShadowRule::data) of `n` bytes is undefined; `undefined(i)` says
// for byte i.
template <class F>
bool undefinedData(const ShadowRule& r, uint64_t n, F&& undefined) {
  for (uint64_t i = 0; i < n; ++i)
    if ((r.data.empty() || r.data[i % r.data.size()]) && undefined(i)) return true;
  return false;
}

bool isGlobal(uint64_t p) {
  const Space s = pointerSpace(p);
  return s == Space::Global || (s == Space::Invalid && p != 0);  // raw SVM addresses too
}

void storeCheck(SubGroup& sg, const Inst& in, const ShadowRule& r) {
  const ShadowOperand &ptr = r.operands.at(0), &value = r.operands.at(1);
  const uint64_t* ptrs = sg.reg<uint64_t>(in.a);
  // The address and the value defined in every lane (the common case): nothing to report.
  if (definedEverywhere(sg, ptr) &&
      allZero(sg.shadow + in.b, size_t(sg.width) * registerBytes(value, in)))
    return;
  LaneMask badAddress, badResult;
  sg.forActive([&](uint32_t l) {
    if (undefinedIn(sg, ptr, l)) return badAddress.set(l);
    const uint32_t stride = registerBytes(value, in);
    const uint8_t* s = sg.shadow + in.b + size_t(l) * stride;  // the value as the handler reads it
    const bool undefined = stride != in.n
                               ? anyByte(s, stride) != 0
                               : undefinedData(r, in.n, [&](uint64_t i) { return s[i] != 0; });
    if (isGlobal(ptrs[l]) && undefined) badResult.set(l);
  });
  if (badAddress.any()) reportValue(sg, in, ptr.id, "used as the address of a store", badAddress);
  if (badResult.any()) reportValue(sg, in, value.id, "stored to global memory", badResult);
}

void storeShadow(SubGroup& sg, const Inst& in, const ShadowRule& r) {
  const uint64_t* ptrs = sg.reg<uint64_t>(in.a);
  const uint32_t stride = registerBytes(r.operands.at(1), in);
  // A value defined in every lane, stored into one region (the common case): its bytes
  // become defined, found with one locate() for the sub-group.
  uint64_t low = 0, spanBytes = 0;
  uint8_t* span = nullptr;
  if (allZero(sg.shadow + in.b, size_t(sg.width) * stride) &&
      oneRegion(sg, ptrs, in.n, true, low, spanBytes, span)) {
    if (span)
      sg.forActive([&](uint32_t l) { std::memset(span + (offsetBits(ptrs[l]) - low), 1, in.n); });
    return;
  }
  sg.forActive([&](uint32_t l) {
    AccessError error;
    const uint8_t* host = sg.locate(ptrs[l], l, in.n, true, error);
    uint8_t* defined = host ? memoryShadow(sg, ptrs[l], host) : nullptr;
    if (!defined) return;
    const uint8_t* s = sg.shadow + in.b + size_t(l) * stride;
    if (stride != in.n) return std::memset(defined, !anyByte(s, stride), in.n), void();
    for (uint32_t i = 0; i < in.n; ++i) defined[i] = !s[i];
  });
}

void pointerOutput(SubGroup& sg, const Inst& in, const ShadowRule& r) {
  propagate(sg, in, r);
  const ShadowOperand& ptr = r.operands.at(r.pointer);
  const ShadowOperand& written = r.written < 0 ? r.result : r.operands.at(r.written);
  LaneMask bad;
  sg.forActive([&](uint32_t l) {
    uint64_t p = 0;
    std::memcpy(&p, sg.regs + ptr.reg + size_t(l) * ptr.bytes, sizeof p);
    if (isGlobal(p) && !undefinedIn(sg, ptr, l) && undefinedIn(sg, written, l)) bad.set(l);
  });
  if (bad.any())
    reportValue(sg, in, written.id, "written to global memory through a built-in's pointer", bad);
}

void pointerOutputShadow(SubGroup& sg, const Inst&, const ShadowRule& r) {
  const ShadowOperand& ptr = r.operands.at(r.pointer);
  const uint32_t n = r.result.bytes;
  sg.forActive([&](uint32_t l) {
    uint64_t p = 0;
    std::memcpy(&p, sg.regs + ptr.reg + size_t(l) * ptr.bytes, sizeof p);
    AccessError error;
    const uint8_t* host = sg.locate(p, l, n, true, error);
    uint8_t* defined = host ? memoryShadow(sg, p, host) : nullptr;
    if (!defined) return;
    const uint8_t* s = laneShadow(sg, r.result, l);
    for (uint32_t i = 0; i < n; ++i) defined[i] = !s[i];
  });
}

void copyCheck(SubGroup& sg, const Inst& in, const ShadowRule& r) {
  reportUses(sg, in, r);
  const uint64_t* targets = sg.reg<uint64_t>(in.a);
  const uint64_t* sources = sg.reg<uint64_t>(in.b);
  LaneMask bad;
  sg.forActive([&](uint32_t l) {
    if (!isGlobal(targets[l])) return;
    uint64_t n = in.n;
    if (r.sizedCopy) {
      n = 0;
      std::memcpy(&n, sg.regs + in.c + size_t(l) * in.aux2, std::min<uint32_t>(in.aux2, 8));
    }
    AccessError error;
    const uint8_t* host = sg.locate(sources[l], l, n, false, error);
    const uint8_t* defined = host ? memoryShadow(sg, sources[l], host) : nullptr;
    if (defined && undefinedData(r, n, [&](uint64_t i) { return defined[i] == 0; })) bad.set(l);
  });
  if (bad.any())
    sg.report(in, DiagnosticKind::UninitializedValue,
              "undefined bytes copied to global memory (they come from OpUndef, memory never "
              "written or a buffer the host never initialised)",
              bad);
}

void branch(SubGroup& sg, const Inst& in, const ShadowRule&) { shadowEdge(sg, in.aux, sg.mask); }

void branchConditional(SubGroup& sg, const Inst& in, const ShadowRule& r) {
  reportUses(sg, in, r);
  const LaneMask taken = boolMask(sg.reg<uint8_t>(in.a), sg.width) & sg.mask;
  shadowEdge(sg, in.aux, taken);
  shadowEdge(sg, in.aux2, sg.mask.andNot(taken));
}

// The edge each lane takes, as the Switch handler (src/exec/ops/control.cc) picks it.
void switchSelector(SubGroup& sg, const Inst& in, const ShadowRule& r) {
  reportUses(sg, in, r);
  const uint32_t* table = sg.extra + in.aux;
  sg.forActive([&](uint32_t l) {
    uint64_t sel = 0;
    std::memcpy(&sel, sg.regs + in.a + size_t(l) * in.n, std::min<uint32_t>(in.n, 8));
    uint32_t edge = table[1];
    for (uint32_t k = 0; k < table[0]; ++k) {
      const uint32_t* c = table + 2 + 3 * k;
      if (sel == (c[0] | (uint64_t(c[1]) << 32))) {
        edge = c[2];
        break;
      }
    }
    LaneMask one;
    one.set(l);
    shadowEdge(sg, edge, one);
  });
}

void call(SubGroup& sg, const Inst& in, const ShadowRule&) {
  const LoweredFunction& f = sg.wg->launch->kernel->functions[in.aux];
  const uint32_t* args = sg.extra + in.b;
  for (uint32_t i = 0; i < args[0]; ++i)
    std::memcpy(sg.shadow + f.paramRegs[i], sg.shadow + args[1 + i],
                size_t(f.paramSizes[i]) * sg.width);
}

void returnValue(SubGroup& sg, const Inst& in, const ShadowRule&) {
  const uint32_t dst = sg.frames.back().resultReg;
  sg.forActive([&](uint32_t l) {
    std::memcpy(sg.shadow + dst + size_t(l) * in.n, sg.shadow + in.a + size_t(l) * in.n, in.n);
  });
}

void mergeReads(SubGroup& sg, const Inst&, const ShadowRule& r) {
  const ShadowKernel& k = kernelOf(sg);
  if (k.readBy != &sg || k.readStep != sg.steps) return;
  if (k.readUndefined.any()) sg.shadowClean = false;
  k.readUndefined.forEach(
      [&](uint32_t l) { std::memset(laneShadow(sg, r.result, l), 1, r.result.bytes); });
  k.readBy = nullptr;
}

void shuffle(SubGroup& sg, const Inst&, const ShadowRule& r) {
  const ShadowOperand& value = r.operands.at(r.moved);
  const ShadowOperand* index =
      r.lane == ShadowRule::Lane::First ? nullptr : &r.operands.at(r.laneOperand);
  const uint32_t first = sg.mask.any() ? sg.mask.first() : 0;
  int64_t source[kMaxSubGroupSize];
  std::fill_n(source, sg.width, -1);
  sg.forActive([&](uint32_t l) {
    if (index && undefinedIn(sg, *index, l)) return;
    int64_t k = 0;
    if (index)
      std::memcpy(&k, sg.regs + index->reg + size_t(l) * index->bytes,
                  std::min<uint32_t>(index->bytes, 8));
    switch (r.lane) {
      case ShadowRule::Lane::Index:
        source[l] = k;
        break;
      case ShadowRule::Lane::Xor:
        source[l] = int64_t(l) ^ k;
        break;
      case ShadowRule::Lane::Up:
        source[l] = int64_t(l) - k;
        break;
      case ShadowRule::Lane::Down:
        source[l] = int64_t(l) + k;
        break;
      case ShadowRule::Lane::First:
        source[l] = first;
        break;
    }
    if (source[l] < 0 || source[l] >= int64_t(sg.width) || !sg.active[source[l]]) source[l] = -1;
  });
  sg.forActive([&](uint32_t l) {
    uint8_t* out = laneShadow(sg, r.result, l);
    if (source[l] < 0) {
      std::memset(out, 1, r.result.bytes);
      sg.shadowClean = false;
    } else {
      std::memcpy(out, laneShadow(sg, value, uint32_t(source[l])),
                  std::min(r.result.bytes, value.bytes));
    }
  });
}

void crossLane(SubGroup& sg, const Inst& in, const ShadowRule& r) {
  reportUses(sg, in, r);
  if (!r.result.bytes) return;
  uint8_t any = 0;
  sg.forActive([&](uint32_t l) {
    for (const ShadowOperand& o : r.operands) any |= undefinedIn(sg, o, l);
  });
  sg.forActive([&](uint32_t l) { std::memset(laneShadow(sg, r.result, l), any, r.result.bytes); });
}

}  // namespace spvsim::check::rules
