#include "src/compiler/opencl_c_support.h"

#include <algorithm>
#include <cctype>

namespace spvsim::compiler {
namespace {

bool contains(const std::vector<std::string>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// Names clang-15's -cl-ext option knows (OpenCLExtensions.def); the others of ours need -D.
const std::vector<std::string>& clangExtensionNames() {
  static const std::vector<std::string> names = {
      "cl_khr_byte_addressable_store",
      "cl_khr_fp16",
      "cl_khr_fp64",
      "cl_khr_int64_base_atomics",
      "cl_khr_int64_extended_atomics",
      "cl_khr_global_int32_base_atomics",
      "cl_khr_global_int32_extended_atomics",
      "cl_khr_local_int32_base_atomics",
      "cl_khr_local_int32_extended_atomics",
      "cl_khr_subgroups",
      "cl_intel_subgroups",
      "cl_intel_subgroups_short",
      "cl_khr_3d_image_writes",
      "__opencl_c_atomic_order_acq_rel",
      "__opencl_c_atomic_order_seq_cst",
      "__opencl_c_atomic_scope_device",
      "__opencl_c_device_enqueue",
      "__opencl_c_fp64",
      "__opencl_c_generic_address_space",
      "__opencl_c_int64",
      "__opencl_c_program_scope_global_variables",
      "__opencl_c_subgroups",
      "cl_ext_float_atomics",
      "__opencl_c_ext_fp32_global_atomic_add",
      "__opencl_c_ext_fp32_global_atomic_min_max",
      "__opencl_c_ext_fp32_local_atomic_add",
      "__opencl_c_ext_fp32_local_atomic_min_max",
      "__opencl_c_ext_fp64_global_atomic_add",
      "__opencl_c_ext_fp64_global_atomic_min_max",
      "__opencl_c_ext_fp64_local_atomic_add",
      "__opencl_c_ext_fp64_local_atomic_min_max",
      "__opencl_c_pipes",
      "__opencl_c_3d_image_writes",
  };
  return names;
}

// Every extension or feature macro clang-15 predefines, or its opencl-c-base.h defines,
// for spir64 at some OpenCL C version (`clang-15 -dM -E` with every extension enabled).
const std::vector<std::string>& clangPredefinedMacros() {
  static const std::vector<std::string> names = {
      "__IMAGE_SUPPORT__",
      "__cl_clang_bitfields",
      "__cl_clang_function_pointers",
      "__cl_clang_non_portable_kernel_param_types",
      "__cl_clang_variadic_functions",
      "__opencl_c_3d_image_writes",
      "__opencl_c_atomic_order_acq_rel",
      "__opencl_c_atomic_order_seq_cst",
      "__opencl_c_atomic_scope_all_devices",
      "__opencl_c_atomic_scope_device",
      "__opencl_c_device_enqueue",
      "__opencl_c_ext_fp16_global_atomic_add",
      "__opencl_c_ext_fp16_global_atomic_load_store",
      "__opencl_c_ext_fp16_global_atomic_min_max",
      "__opencl_c_ext_fp16_local_atomic_add",
      "__opencl_c_ext_fp16_local_atomic_load_store",
      "__opencl_c_ext_fp16_local_atomic_min_max",
      "__opencl_c_ext_fp32_global_atomic_add",
      "__opencl_c_ext_fp32_global_atomic_min_max",
      "__opencl_c_ext_fp32_local_atomic_add",
      "__opencl_c_ext_fp32_local_atomic_min_max",
      "__opencl_c_ext_fp64_global_atomic_add",
      "__opencl_c_ext_fp64_global_atomic_min_max",
      "__opencl_c_ext_fp64_local_atomic_add",
      "__opencl_c_ext_fp64_local_atomic_min_max",
      "__opencl_c_fp64",
      "__opencl_c_generic_address_space",
      "__opencl_c_images",
      "__opencl_c_int64",
      "__opencl_c_integer_dot_product_input_4x8bit",
      "__opencl_c_integer_dot_product_input_4x8bit_packed",
      "__opencl_c_pipes",
      "__opencl_c_program_scope_global_variables",
      "__opencl_c_read_write_images",
      "__opencl_c_subgroups",
      "__opencl_c_work_group_collective_functions",
      "cl_amd_media_ops",
      "cl_amd_media_ops2",
      "cl_arm_integer_dot_product_accumulate_int16",
      "cl_arm_integer_dot_product_accumulate_int8",
      "cl_arm_integer_dot_product_accumulate_saturate_int8",
      "cl_arm_integer_dot_product_int8",
      "cl_clang_storage_class_specifiers",
      "cl_ext_float_atomics",
      "cl_intel_device_side_avc_motion_estimation",
      "cl_intel_subgroups",
      "cl_intel_subgroups_short",
      "cl_khr_3d_image_writes",
      "cl_khr_byte_addressable_store",
      "cl_khr_depth_images",
      "cl_khr_extended_bit_ops",
      "cl_khr_fp16",
      "cl_khr_fp64",
      "cl_khr_gl_msaa_sharing",
      "cl_khr_global_int32_base_atomics",
      "cl_khr_global_int32_extended_atomics",
      "cl_khr_int64_base_atomics",
      "cl_khr_int64_extended_atomics",
      "cl_khr_integer_dot_product",
      "cl_khr_local_int32_base_atomics",
      "cl_khr_local_int32_extended_atomics",
      "cl_khr_mipmap_image",
      "cl_khr_mipmap_image_writes",
      "cl_khr_srgb_image_writes",
      "cl_khr_subgroup_ballot",
      "cl_khr_subgroup_clustered_reduce",
      "cl_khr_subgroup_extended_types",
      "cl_khr_subgroup_non_uniform_arithmetic",
      "cl_khr_subgroup_non_uniform_vote",
      "cl_khr_subgroup_rotate",
      "cl_khr_subgroup_shuffle",
      "cl_khr_subgroup_shuffle_relative",
      "cl_khr_subgroups",
  };
  return names;
}

}  // namespace

const std::vector<std::string>& supportedExtensions() {
  static const std::vector<std::string> names = {
      "cl_khr_byte_addressable_store",
      "cl_khr_fp64",
      "cl_khr_fp16",
      // Sub-groups: the lockstep executor's core feature (OpGroup*, OpGroupNonUniform*,
      // SPV_INTEL_subgroups shuffles and buffer block I/O). The Intel char/short/long
      // functions clang-15 lacks or cannot translate come from src/compiler/prelude.cc.
      "cl_khr_subgroups",
      "cl_khr_subgroup_extended_types",
      "cl_khr_subgroup_non_uniform_vote",
      "cl_khr_subgroup_ballot",
      "cl_khr_subgroup_non_uniform_arithmetic",
      "cl_khr_subgroup_shuffle",
      "cl_khr_subgroup_shuffle_relative",
      "cl_khr_subgroup_clustered_reduce",
      "cl_khr_subgroup_rotate",
      "cl_intel_subgroups",
      "cl_intel_subgroups_char",
      "cl_intel_subgroups_short",
      "cl_intel_subgroups_long",
      "cl_intel_required_subgroup_size",
      "cl_intel_spirv_subgroups",
      // Media block reads and writes on image2d_t (src/exec/ops/intel_media_block_io.cc);
      // the prelude declares the built-ins, which clang-15 lacks.
      "cl_intel_media_block_io",
      "cl_intel_spirv_media_block_io",
      // Atomics: every OpAtomic* on 32- and 64-bit integers, global and local (and generic)
      // pointers, exact at any host thread count; scopes and orders are honoured by the
      // race checker (src/check/race_checker.h). The OpenCL 1.x built-ins are device-wide
      // (src/compiler/ir_legacy_atomics.cc).
      "cl_khr_global_int32_base_atomics",
      "cl_khr_global_int32_extended_atomics",
      "cl_khr_local_int32_base_atomics",
      "cl_khr_local_int32_extended_atomics",
      "cl_khr_int64_base_atomics",
      "cl_khr_int64_extended_atomics",
      // Float atomics (OpAtomicFAddEXT, OpAtomicFMin/FMaxEXT) on float and double, global
      // and local; not on half (llvm-spirv-15 cannot translate half atomic adds).
      "cl_ext_float_atomics",
      // __builtin_expect / __builtin_assume (SPV_KHR_expect_assume); a false assumption
      // is reported as `assumption-violated` (src/exec/ops/expect_assume.cc).
      "cl_khr_expect_assume",
      // SPIR-V with NoSignedWrap/NoUnsignedWrap decorations loads; an overflow they forbid
      // is undefined (the result is poison), and spvsim wraps.
      "cl_khr_spirv_no_integer_wrap_decoration",
      // write_imagef/i/ui/h on image3d_t (src/exec/ops/image_read_write.cc).
      "cl_khr_3d_image_writes",
  };
  return names;
}

// Not claimed: all-devices scope (no SVM atomics).
const std::vector<std::string>& supportedFeatures() {
  static const std::vector<std::string> names = {
      "__opencl_c_int64", "__opencl_c_fp64", "__opencl_c_fp16",
      "__opencl_c_generic_address_space",  // generic pointers resolve to their space
      "__opencl_c_program_scope_global_variables", "__opencl_c_subgroups",
      "__opencl_c_work_group_collective_functions", "__opencl_c_atomic_order_acq_rel",
      "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device",
      // cl_ext_float_atomics (see supportedExtensions).
      "__opencl_c_ext_fp32_global_atomic_add", "__opencl_c_ext_fp32_global_atomic_min_max",
      "__opencl_c_ext_fp32_local_atomic_add", "__opencl_c_ext_fp32_local_atomic_min_max",
      "__opencl_c_ext_fp64_global_atomic_add", "__opencl_c_ext_fp64_global_atomic_min_max",
      "__opencl_c_ext_fp64_local_atomic_add", "__opencl_c_ext_fp64_local_atomic_min_max",
      "__opencl_c_images",  // CL_DEVICE_IMAGE_SUPPORT (runtime/image*.cc, src/exec image ops)
      "__opencl_c_read_write_images",
      "__opencl_c_pipes",  // src/exec/pipe.h
      // enqueue_kernel, blocks, device events (src/exec/device_enqueue.h)
      "__opencl_c_device_enqueue",
      "__opencl_c_3d_image_writes",  // with cl_khr_3d_image_writes
  };
  return names;
}

int openclCVersion(const std::string& clStd) {
  std::string v;
  for (char c : clStd) v += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (v == "CL3.0" || v == "CLC++2021") return 300;
  if (v == "CL2.0" || v == "CLC++" || v == "CLC++1.0") return 200;
  return 120;
}

std::vector<std::string> featureArguments(int openclCVersion) {
  std::string ext = "-cl-ext=-all";
  std::vector<std::string> defines;
  std::vector<const std::vector<std::string>*> lists = {&supportedExtensions()};
  // Feature macros belong to OpenCL C 3.0; 2.0 has them all as core (clang's header).
  if (openclCVersion >= 300) lists.push_back(&supportedFeatures());
  for (const auto* list : lists)
    for (const std::string& name : *list) {
      if (contains(clangExtensionNames(), name)) ext += ",+" + name;
      // clang-15 knows cl_khr_subgroups from OpenCL C 2.0 only; its functions are there
      // in 1.x too (through cl_intel_subgroups), so the macro must be as well.
      if (!contains(clangExtensionNames(), name) ||
          (name == "cl_khr_subgroups" && openclCVersion < 200))
        defines.push_back("-D" + name + "=1");
    }
  // clang-15's header declares the image built-ins unconditionally (and defines
  // __opencl_c_read_write_images itself for spir64), which OpenCL C 3.0 refuses without
  // the features: clang keeps them, and the prelude undefines their macros (kernels that
  // use images then fail to load, naming the capability).
  if (openclCVersion >= 300) ext += ",+__opencl_c_images,+__opencl_c_read_write_images";
  std::vector<std::string> args = {"-Xclang", ext};
  args.insert(args.end(), defines.begin(), defines.end());
  return args;
}

std::vector<std::string> unsupportedPredefinedMacros() {
  std::vector<std::string> out;
  for (const std::string& name : clangPredefinedMacros())
    if (!contains(supportedExtensions(), name) && !contains(supportedFeatures(), name) &&
        !(name == "__IMAGE_SUPPORT__" && contains(supportedFeatures(), "__opencl_c_images")))
      out.push_back(name);
  return out;
}

}  // namespace spvsim::compiler
