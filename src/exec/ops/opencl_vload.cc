// OpenCL.std vector loads and stores: vloadn, vstoren, vload_half(n), vloada_halfn,
// vstore_half(n)(_r), vstorea_halfn(_r).
//
// vloadn/vstoren with every lane active and every access inside one region take the
// sub-group fast path of OpLoad/OpStore (SubGroup::uniformRegionBase); otherwise (and
// always for the half forms) every lane's access goes through SubGroup::resolve (bounds and
// read-only checks) and an alignment check (the element size; for vloada/vstorea the size of the
// half vector, vec3 counting as 4). Failures are reported once per error kind: a lane whose access
// fails loads 0 or stores nothing; a misaligned access is reported and still performed
// (as OpLoad/OpStore do).
//
// Inst: r = result (loads), c = data (stores), a = offset, b = pointer, n = elements per
// lane in the value register, aux = components moved, aux2 = addressing (see Addressing).
#include <spirv/unified1/OpenCL.std.h>

#include <cstring>

#include "src/exec/ops/convert_math.h"
#include "src/exec/ops/elementwise.h"
#include "src/exec/subgroup.h"

namespace spvsim {
namespace {

using ops::Round;

// The address of lane l is p + offset * step * memBytes.
struct Addressing {
  uint32_t step = 1;      // elements per unit of offset
  uint32_t memBytes = 1;  // bytes of one element in memory
  bool offset32 = false;  // 32-bit size_t (spir) rather than 64-bit
  uint32_t align = 1;     // required alignment of the address

  uint32_t pack() const { return step | memBytes << 8 | uint32_t(offset32) << 16 | align << 24; }
  static Addressing unpack(uint32_t w) {
    return {w & 0xff, (w >> 8) & 0xff, ((w >> 16) & 1) != 0, w >> 24};
  }
};

// The offset is a size_t: unsigned, so a huge one saturates above (src/exec/memory.h).
uint64_t addressOf(const SubGroup& sg, const Inst& in, uint32_t l, const Addressing& ad) {
  const uint64_t offset = ad.offset32 ? sg.reg<uint32_t>(in.a)[l] : sg.reg<uint64_t>(in.a)[l];
  const int64_t delta = offset > uint64_t(kDeltaLimit)
                            ? kDeltaLimit
                            : scaledIndex(int64_t(offset), int64_t(ad.step) * ad.memBytes);
  return offsetPointer(sg.reg<uint64_t>(in.b)[l], delta);
}

// Resolves lane accesses and reports the failed ones, one diagnostic per error kind.
class AccessLog {
 public:
  uint8_t* access(SubGroup& sg, uint32_t l, uint64_t p, uint64_t bytes, uint32_t align,
                  bool write) {
    addresses_[l] = p;
    AccessError e = AccessError::Ok;
    uint8_t* host = sg.resolve(p, l, bytes, write, e);
    if (!host)
      failed_[int(e)].set(l);
    else if (pointerOffset(p) % align != 0)
      failed_[int(AccessError::Misaligned)].set(l);
    return host;
  }
  void report(SubGroup& sg, const Inst& in, uint64_t bytes, bool write) const {
    for (int k = 0; k < kKinds; ++k)
      if (failed_[k].any())
        sg.reportAccess(in, AccessError(k), failed_[k], addresses_, bytes, write);
  }

 private:
  static constexpr int kKinds = int(AccessError::InvalidSpace) + 1;
  LaneMask failed_[kKinds];
  uint64_t addresses_[kMaxSubGroupSize] = {};
};

// The fast path (every lane active, all inside one region, aligned, no observer: see
// SubGroup::uniformRegionBase): each lane's host address in `host`, and how the lanes'
// addresses lie; nullopt-like (base nullptr) where the checked per-lane path must run.
SubGroup::FastAccess fastLanes(SubGroup& sg, const Inst& in, const Addressing& ad, uint64_t bytes,
                               bool write, uint8_t** host) {
  if (!sg.allActive) return {};
  uint64_t addresses[kMaxSubGroupSize];
  for (uint32_t l = 0; l < sg.width; ++l) addresses[l] = addressOf(sg, in, l, ad);
  const SubGroup::FastAccess fast = sg.uniformRegionBase(addresses, bytes, write, ad.align);
  if (fast)
    for (uint32_t l = 0; l < sg.width; ++l) host[l] = fast.at(addresses[l]);
  return fast;
}

// vloadn: a byte copy of `aux` elements.
struct LoadElements {
  static void run(SubGroup& sg, const Inst& in) {
    const Addressing ad = Addressing::unpack(in.aux2);
    const uint64_t bytes = uint64_t(in.aux) * ad.memBytes;
    uint8_t* host[kMaxSubGroupSize];
    if (const SubGroup::FastAccess fast = fastLanes(sg, in, ad, bytes, false, host)) {
      uint8_t* r = sg.reg<uint8_t>(in.r);
      if (fast.pattern == LanePattern::Contiguous && in.n == in.aux) {
        std::memcpy(r, host[0], sg.width * bytes);  // no vec3 padding in the register
        return;
      }
      for (uint32_t l = 0; l < sg.width; ++l)
        std::memcpy(r + uint64_t(l) * in.n * ad.memBytes, host[l], bytes);
      return;
    }
    AccessLog log;
    sg.forActive([&](uint32_t l) {
      uint8_t* dst = sg.reg<uint8_t>(in.r) + uint64_t(l) * in.n * ad.memBytes;
      const uint8_t* src = log.access(sg, l, addressOf(sg, in, l, ad), bytes, ad.align, false);
      if (src)
        std::memcpy(dst, src, bytes);
      else
        std::memset(dst, 0, uint64_t(in.n) * ad.memBytes);
    });
    log.report(sg, in, bytes, false);
  }
};

// vstoren.
struct StoreElements {
  static void run(SubGroup& sg, const Inst& in) {
    const Addressing ad = Addressing::unpack(in.aux2);
    const uint64_t bytes = uint64_t(in.aux) * ad.memBytes;
    uint8_t* host[kMaxSubGroupSize];
    if (const SubGroup::FastAccess fast = fastLanes(sg, in, ad, bytes, true, host)) {
      const uint8_t* v = sg.reg<uint8_t>(in.c);
      if (fast.pattern == LanePattern::Contiguous && in.n == in.aux) {
        std::memcpy(host[0], v, sg.width * bytes);
        return;
      }
      // In lane order: where lanes overlap, the last one's bytes stay, as lane by lane.
      for (uint32_t l = 0; l < sg.width; ++l)
        std::memcpy(host[l], v + uint64_t(l) * in.n * ad.memBytes, bytes);
      return;
    }
    AccessLog log;
    sg.forActive([&](uint32_t l) {
      const uint8_t* src = sg.reg<uint8_t>(in.c) + uint64_t(l) * in.n * ad.memBytes;
      uint8_t* dst = log.access(sg, l, addressOf(sg, in, l, ad), bytes, ad.align, true);
      if (dst) std::memcpy(dst, src, bytes);
    });
    log.report(sg, in, bytes, true);
  }
};

// vload_half(n), vloada_halfn: halves in memory, F (float or double) in the register.
template <class F>
struct LoadHalves {
  static void run(SubGroup& sg, const Inst& in) {
    const Addressing ad = Addressing::unpack(in.aux2);
    const uint64_t bytes = uint64_t(in.aux) * 2;
    AccessLog log;
    sg.forActive([&](uint32_t l) {
      F* dst = sg.reg<F>(in.r) + uint64_t(l) * in.n;
      const uint8_t* src = log.access(sg, l, addressOf(sg, in, l, ad), bytes, ad.align, false);
      for (uint32_t c = 0; c < in.aux; ++c) {
        _Float16 h = 0;
        if (src) std::memcpy(&h, src + 2 * c, 2);
        dst[c] = F(h);
      }
    });
    log.report(sg, in, bytes, false);
  }
};

// vstore_half(n)(_r), vstorea_halfn(_r): F values rounded to half by M.
template <class F, Round M>
struct StoreHalves {
  static void run(SubGroup& sg, const Inst& in) {
    const Addressing ad = Addressing::unpack(in.aux2);
    const uint64_t bytes = uint64_t(in.aux) * 2;
    AccessLog log;
    sg.forActive([&](uint32_t l) {
      const F* src = sg.reg<F>(in.c) + uint64_t(l) * in.n;
      uint8_t* dst = log.access(sg, l, addressOf(sg, in, l, ad), bytes, ad.align, true);
      if (!dst) return;
      for (uint32_t c = 0; c < in.aux; ++c) {
        _Float16 h = ops::floatToFloat<_Float16>(src[c], M);
        std::memcpy(dst + 2 * c, &h, 2);
      }
    });
    log.report(sg, in, bytes, true);
  }
};

void setAddressing(Lowerer& lw, Inst& in, spirv::Id offset, spirv::Id pointer, Addressing ad) {
  in.a = lw.reg(offset);
  in.b = lw.reg(pointer);
  ad.offset32 = lw.shapeOfValue(offset).scalar == Scalar::U32;
  in.aux2 = ad.pack();
}

uint32_t elementBytes(const Shape& s) { return s.bytes / s.stride; }

void lowerVloadn(Lowerer& lw, const spirv::Instruction& inst) {
  Shape s = lw.shape(inst.resultType);
  if (!s.isInt() && !s.isFloat()) lw.unsupported(inst, lw.describeWithType(inst));
  Inst& in = lw.emit(inst, &LoadElements::run);
  in.n = s.stride;
  in.aux = s.components;
  uint32_t e = elementBytes(s);
  setAddressing(lw, in, Lowerer::extArg(inst, 0), Lowerer::extArg(inst, 1),
                {s.components, e, false, e});
}

void lowerVstoren(Lowerer& lw, const spirv::Instruction& inst) {
  Shape s = lw.shapeOfValue(Lowerer::extArg(inst, 0));
  if (!s.isInt() && !s.isFloat()) lw.unsupported(inst, lw.describeWithType(inst));
  Inst& in = lw.emit(inst, &StoreElements::run);
  in.c = lw.reg(Lowerer::extArg(inst, 0));
  in.n = s.stride;
  in.aux = s.components;
  uint32_t e = elementBytes(s);
  setAddressing(lw, in, Lowerer::extArg(inst, 1), Lowerer::extArg(inst, 2),
                {s.components, e, false, e});
}

// Elements per unit of offset and alignment of a half access of `components`.
Addressing halfAddressing(uint32_t components, bool aligned) {
  uint32_t step = aligned && components == 3 ? 4 : components;
  return {step, 2, false, aligned ? 2 * step : 2};
}

template <bool Aligned>
void lowerVloadHalf(Lowerer& lw, const spirv::Instruction& inst) {
  Shape s = lw.shape(inst.resultType);
  ExecFn fn = s.scalar == Scalar::F32   ? &LoadHalves<float>::run
              : s.scalar == Scalar::F64 ? &LoadHalves<double>::run
                                        : nullptr;
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  Inst& in = lw.emit(inst, fn);
  in.n = s.stride;
  in.aux = s.components;
  setAddressing(lw, in, Lowerer::extArg(inst, 0), Lowerer::extArg(inst, 1),
                halfAddressing(s.components, Aligned));
}

template <class F>
ExecFn pickStoreHalves(Round r) {
  switch (r) {
    case Round::RTE:
      return &StoreHalves<F, Round::RTE>::run;
    case Round::RTZ:
      return &StoreHalves<F, Round::RTZ>::run;
    case Round::RTP:
      return &StoreHalves<F, Round::RTP>::run;
    case Round::RTN:
      return &StoreHalves<F, Round::RTN>::run;
  }
  return nullptr;
}

template <bool Aligned, bool WithMode>
void lowerVstoreHalf(Lowerer& lw, const spirv::Instruction& inst) {
  spirv::Id data = Lowerer::extArg(inst, 0);
  Shape s = lw.shapeOfValue(data);
  Round r = WithMode ? Round(Lowerer::extArg(inst, 3) & 3) : Round::RTE;
  ExecFn fn = s.scalar == Scalar::F32   ? pickStoreHalves<float>(r)
              : s.scalar == Scalar::F64 ? pickStoreHalves<double>(r)
                                        : nullptr;
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  Inst& in = lw.emit(inst, fn);
  in.c = lw.reg(data);
  in.n = s.stride;
  in.aux = s.components;
  setAddressing(lw, in, Lowerer::extArg(inst, 1), Lowerer::extArg(inst, 2),
                halfAddressing(s.components, Aligned));
}

}  // namespace

void registerOpenclVloadOps(OpTable& t) {
  namespace cl = OpenCLLIB;
  t.openclStd[cl::Vloadn] = &lowerVloadn;
  t.openclStd[cl::Vstoren] = &lowerVstoren;
  t.openclStd[cl::Vload_half] = &lowerVloadHalf<false>;
  t.openclStd[cl::Vload_halfn] = &lowerVloadHalf<false>;
  t.openclStd[cl::Vloada_halfn] = &lowerVloadHalf<true>;
  t.openclStd[cl::Vstore_half] = &lowerVstoreHalf<false, false>;
  t.openclStd[cl::Vstore_half_r] = &lowerVstoreHalf<false, true>;
  t.openclStd[cl::Vstore_halfn] = &lowerVstoreHalf<false, false>;
  t.openclStd[cl::Vstore_halfn_r] = &lowerVstoreHalf<false, true>;
  t.openclStd[cl::Vstorea_halfn] = &lowerVstoreHalf<true, false>;
  t.openclStd[cl::Vstorea_halfn_r] = &lowerVstoreHalf<true, true>;
}

}  // namespace spvsim
