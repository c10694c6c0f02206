// OpenCL.std printf. The format string and `%s` strings are read from kernel memory
// through SubGroup::resolve (any address space); arguments are read from registers as
// lowered (scalars as passed, i.e. floats promoted to double by the compiler; vectors
// element by element). Each active lane's output, in lane order, is appended to the
// work-group's printf text; the result is 0, or -1 for a format the OpenCL C spec
// leaves undefined (see printf_format.h) or an unreadable string.
#include <spirv/unified1/OpenCL.std.h>

#include <cstring>
#include <optional>

#include "src/exec/ops/elementwise.h"
#include "src/exec/ops/pointer32.h"
#include "src/exec/ops/printf_format.h"

namespace spvsim {
namespace {

// Per argument in LoweredKernel::extra (at Inst::aux, Inst::b arguments):
// register, bytes per lane, element bytes, components, flags.
constexpr uint32_t kArgWords = 5;
constexpr uint32_t kIsFloat = 1, kIsPointer = 2;

// Failed string reads of one instruction, reported once per error kind.
class StringReads {
 public:
  explicit StringReads(SubGroup& sg) : sg_(sg) {}

  bool read(uint32_t lane, uint64_t p, std::string& out) {
    out.clear();
    for (uint64_t at = p;; at = offsetPointer(at, 1)) {
      AccessError e = AccessError::Ok;
      const uint8_t* c = sg_.resolve(at, lane, 1, false, e);
      if (!c) {
        failed_[int(e)].set(lane);
        pointers_[lane] = p;
        return false;
      }
      if (*c == 0) return true;
      out += char(*c);
    }
  }
  void report(const Inst& in) {
    for (int k = 0; k < kKinds; ++k)
      if (failed_[k].any()) sg_.reportAccess(in, AccessError(k), failed_[k], pointers_, 1, false);
  }

 private:
  static constexpr int kKinds = int(AccessError::InvalidSpace) + 1;
  SubGroup& sg_;
  LaneMask failed_[kKinds];
  uint64_t pointers_[kMaxSubGroupSize] = {};
};

// `addresses` (Physical32 modules): %p prints a pointer's 32-bit address.
std::vector<ops::PrintfArg> laneArgs(const SubGroup& sg, const Inst& in, uint32_t lane,
                                     ops::AddressConversion* addresses) {
  std::vector<ops::PrintfArg> args(in.b);
  const uint32_t* w = sg.extra + in.aux;
  for (uint32_t k = 0; k < in.b; ++k, w += kArgWords) {
    args[k].data = sg.regs + w[0] + uint64_t(lane) * w[1];
    args[k].elementBytes = w[2];
    args[k].components = w[3];
    args[k].isFloat = (w[4] & kIsFloat) != 0;
    args[k].isPointer = (w[4] & kIsPointer) != 0;
    if (addresses && args[k].isPointer) {
      uint64_t p;
      std::memcpy(&p, args[k].data, 8);
      args[k].hasAddress = true;
      args[k].address = addresses->convert(lane, p);
    }
  }
  return args;
}

template <bool Address32>
struct Printf {
  static void run(SubGroup& sg, const Inst& in) {
    std::optional<ops::AddressConversion> addresses;
    if constexpr (Address32) addresses.emplace(sg);
    int32_t* result = sg.reg<int32_t>(in.r);
    const uint64_t* format = sg.reg<uint64_t>(in.a);
    StringReads reads(sg);
    std::string fmt, text;
    sg.forActive([&](uint32_t l) {
      auto reader = [&](uint64_t p, std::string& s) { return reads.read(l, p, s); };
      text.clear();
      bool ok = reads.read(l, format[l], fmt) &&
                ops::formatPrintf(fmt, laneArgs(sg, in, l, addresses ? &*addresses : nullptr),
                                  reader, text);
      if (ok && sg.wg->printf) *sg.wg->printf += text;
      result[l] = ok ? 0 : -1;
    });
    reads.report(in);
    if (addresses) addresses->report(in);
  }
};

void lowerPrintf(Lowerer& lw, const spirv::Instruction& inst) {
  const uint32_t count = static_cast<uint32_t>(inst.operands.size() - 3);
  std::vector<uint32_t> words;
  for (uint32_t k = 1; k <= count; ++k) {
    spirv::Id arg = Lowerer::extArg(inst, k);
    Shape s = lw.shapeOfValue(arg);
    bool pointer = lw.typeOfValue(arg).kind == spirv::TypeKind::Pointer;
    if (!s.isInt() && !s.isFloat())
      lw.unsupported(
          inst, "printf argument of type " + spirv::typeName(lw.module, lw.typeIdOfValue(arg)));
    uint32_t flags = (s.isFloat() ? kIsFloat : 0) | (pointer ? kIsPointer : 0);
    words.insert(words.end(), {lw.reg(arg), s.bytes, s.bytes / s.stride, s.components, flags});
  }
  uint32_t extra = lw.addExtra(words);
  Inst& in = lw.emit(inst, lw.physical32() ? &Printf<true>::run : &Printf<false>::run);
  in.a = lw.reg(Lowerer::extArg(inst, 0));
  in.b = count;
  in.aux = extra;
  lw.out.usesPrintf = true;
}

}  // namespace

void registerPrintfOps(OpTable& t) { t.openclStd[OpenCLLIB::Printf] = &lowerPrintf; }

}  // namespace spvsim
