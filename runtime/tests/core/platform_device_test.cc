// The platform and the device through the real loader: every query answers, the
// values are the ones OpenCL 3.0 requires of a FULL_PROFILE device and agree with
// each other and with the simulator, and bad calls get their error codes.
#include "runtime/tests/core/cl_fixture.h"
// (cl_fixture.h first: it selects the ICD.)
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

#include "src/exec/program.h"

namespace spvsim::rt::test {
namespace {

std::set<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::set<std::string> out;
  for (std::string w; in >> w;) out.insert(w);
  return out;
}

std::set<std::string> names(const std::vector<cl_name_version>& v) {
  std::set<std::string> out;
  for (const auto& nv : v) out.insert(nv.name);
  return out;
}

bool has(const std::set<std::string>& s, const std::string& w) { return s.count(w) > 0; }

// The sub-group size of kernels without intel_reqd_sub_group_size (runtime/knobs.h).
size_t configuredSubGroupSize() {
  const char* env = std::getenv("SPVSIM_SUB_GROUP_SIZE");
  return env && *env ? std::strtoul(env, nullptr, 0) : 16;
}

std::string platformString(cl_platform_id p, cl_platform_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetPlatformInfo(p, param, 0, nullptr, &size), CL_SUCCESS);
  std::string s(size, '\0');
  EXPECT_EQ(clGetPlatformInfo(p, param, size, s.data(), nullptr), CL_SUCCESS);
  EXPECT_EQ(std::strlen(s.c_str()) + 1, size);
  s.pop_back();
  return s;
}

TEST(Platform, OneSpvsimPlatform) {
  cl_uint n = 0;
  ASSERT_EQ(clGetPlatformIDs(0, nullptr, &n), CL_SUCCESS);
  EXPECT_EQ(n, 1u);
  cl_platform_id p = spvsimPlatform();
  EXPECT_EQ(platformString(p, CL_PLATFORM_NAME), "spvsim");
  EXPECT_EQ(platformString(p, CL_PLATFORM_PROFILE), "FULL_PROFILE");
  EXPECT_EQ(platformString(p, CL_PLATFORM_VERSION).rfind("OpenCL 3.0 ", 0), 0u);
  EXPECT_EQ(platformString(p, CL_PLATFORM_ICD_SUFFIX_KHR), "spvsim");
  EXPECT_FALSE(platformString(p, CL_PLATFORM_VENDOR).empty());
}

TEST(Platform, ExtensionsAndVersions) {
  cl_platform_id p = spvsimPlatform();
  auto ext = words(platformString(p, CL_PLATFORM_EXTENSIONS));
  EXPECT_TRUE(has(ext, "cl_khr_icd"));  // the loader requires it
  EXPECT_TRUE(has(ext, "cl_khr_il_program"));
  EXPECT_TRUE(has(ext, "cl_khr_subgroups"));
  size_t size = 0;
  ASSERT_EQ(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, nullptr, &size),
            CL_SUCCESS);
  std::vector<cl_name_version> v(size / sizeof(cl_name_version));
  ASSERT_EQ(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS_WITH_VERSION, size, v.data(), nullptr),
            CL_SUCCESS);
  EXPECT_EQ(names(v), ext);
  cl_version version = 0;
  ASSERT_EQ(clGetPlatformInfo(p, CL_PLATFORM_NUMERIC_VERSION, sizeof version, &version, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(version, CL_MAKE_VERSION(3, 0, 0));
  cl_ulong resolution = 0;
  ASSERT_EQ(clGetPlatformInfo(p, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof resolution, &resolution,
                              nullptr),
            CL_SUCCESS);
  EXPECT_GT(resolution, 0u);  // clGetHostTimer is supported
  // Platform extensions are those every device supports.
  auto deviceExt = words(deviceString(spvsimDevice(), CL_DEVICE_EXTENSIONS));
  for (const auto& e : ext) EXPECT_TRUE(has(deviceExt, e)) << e;
}

TEST(Platform, InfoErrors) {
  cl_platform_id p = spvsimPlatform();
  char small[4];
  EXPECT_EQ(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof small, small, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetPlatformInfo(p, 0xdead, 0, nullptr, nullptr), CL_INVALID_VALUE);
  // The platform's own entry points reject foreign handles (the loader dispatches
  // them only for real objects, so call through the table).
  int bogus = 0;
  auto* d = dispatchOf(p);
  EXPECT_EQ(d->clGetPlatformInfo(reinterpret_cast<cl_platform_id>(&bogus), CL_PLATFORM_NAME, 0,
                                 nullptr, nullptr),
            CL_INVALID_PLATFORM);
  EXPECT_EQ(d->clGetPlatformIDs(0, nullptr, nullptr), CL_INVALID_VALUE);
  cl_platform_id out = nullptr;
  EXPECT_EQ(d->clGetPlatformIDs(0, &out, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(d->clGetDeviceIDs(reinterpret_cast<cl_platform_id>(&bogus), CL_DEVICE_TYPE_ALL, 0,
                              nullptr, nullptr),
            CL_INVALID_PLATFORM);
}

TEST(Platform, EveryDispatchSlotIsFilled) {
  const auto* table = reinterpret_cast<void* const*>(dispatchOf(spvsimPlatform()));
  size_t slots = sizeof(cl_icd_dispatch) / sizeof(void*);
  EXPECT_EQ(slots, 149u);
  for (size_t i = 0; i < slots; ++i) EXPECT_NE(table[i], nullptr) << "slot " << i;
  EXPECT_EQ(dispatchOf(spvsimDevice()), dispatchOf(spvsimPlatform()));
}

TEST(Device, IdsByType) {
  cl_platform_id p = spvsimPlatform();
  cl_device_id d = nullptr;
  cl_uint n = 7;
  for (cl_device_type t : std::vector<cl_device_type>{CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_DEFAULT,
                                                      CL_DEVICE_TYPE_GPU}) {
    EXPECT_EQ(clGetDeviceIDs(p, t, 1, &d, &n), CL_SUCCESS);
    EXPECT_EQ(n, 1u);
    EXPECT_EQ(d, spvsimDevice());
  }
  for (cl_device_type t : std::vector<cl_device_type>{
           CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM}) {
    EXPECT_EQ(clGetDeviceIDs(p, t, 1, &d, &n), CL_DEVICE_NOT_FOUND);
    EXPECT_EQ(n, 0u);
  }
  EXPECT_EQ(clGetDeviceIDs(p, cl_device_type(1) << 20, 1, &d, nullptr), CL_INVALID_DEVICE_TYPE);
  EXPECT_EQ(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, &d, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(deviceValue<cl_device_type>(d, CL_DEVICE_TYPE), CL_DEVICE_TYPE_GPU);
}

// Every OpenCL 3.0 device query, and the extension queries of the reported extensions.
const cl_device_info kAllQueries[] = {
    CL_DEVICE_TYPE,
    CL_DEVICE_VENDOR_ID,
    CL_DEVICE_MAX_COMPUTE_UNITS,
    CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
    CL_DEVICE_MAX_WORK_GROUP_SIZE,
    CL_DEVICE_MAX_WORK_ITEM_SIZES,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF,
    CL_DEVICE_MAX_CLOCK_FREQUENCY,
    CL_DEVICE_ADDRESS_BITS,
    CL_DEVICE_MAX_MEM_ALLOC_SIZE,
    CL_DEVICE_IMAGE_SUPPORT,
    CL_DEVICE_MAX_READ_IMAGE_ARGS,
    CL_DEVICE_MAX_WRITE_IMAGE_ARGS,
    CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS,
    CL_DEVICE_IL_VERSION,
    CL_DEVICE_ILS_WITH_VERSION,
    CL_DEVICE_IMAGE2D_MAX_WIDTH,
    CL_DEVICE_IMAGE2D_MAX_HEIGHT,
    CL_DEVICE_IMAGE3D_MAX_WIDTH,
    CL_DEVICE_IMAGE3D_MAX_HEIGHT,
    CL_DEVICE_IMAGE3D_MAX_DEPTH,
    CL_DEVICE_IMAGE_MAX_BUFFER_SIZE,
    CL_DEVICE_IMAGE_MAX_ARRAY_SIZE,
    CL_DEVICE_MAX_SAMPLERS,
    CL_DEVICE_IMAGE_PITCH_ALIGNMENT,
    CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT,
    CL_DEVICE_MAX_PIPE_ARGS,
    CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS,
    CL_DEVICE_PIPE_MAX_PACKET_SIZE,
    CL_DEVICE_MAX_PARAMETER_SIZE,
    CL_DEVICE_MEM_BASE_ADDR_ALIGN,
    CL_DEVICE_SINGLE_FP_CONFIG,
    CL_DEVICE_DOUBLE_FP_CONFIG,
    CL_DEVICE_HALF_FP_CONFIG,
    CL_DEVICE_GLOBAL_MEM_CACHE_TYPE,
    CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE,
    CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
    CL_DEVICE_GLOBAL_MEM_SIZE,
    CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE,
    CL_DEVICE_MAX_CONSTANT_ARGS,
    CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE,
    CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE,
    CL_DEVICE_LOCAL_MEM_TYPE,
    CL_DEVICE_LOCAL_MEM_SIZE,
    CL_DEVICE_ERROR_CORRECTION_SUPPORT,
    CL_DEVICE_PROFILING_TIMER_RESOLUTION,
    CL_DEVICE_ENDIAN_LITTLE,
    CL_DEVICE_AVAILABLE,
    CL_DEVICE_COMPILER_AVAILABLE,
    CL_DEVICE_LINKER_AVAILABLE,
    CL_DEVICE_EXECUTION_CAPABILITIES,
    CL_DEVICE_QUEUE_ON_HOST_PROPERTIES,
    CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES,
    CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE,
    CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE,
    CL_DEVICE_MAX_ON_DEVICE_QUEUES,
    CL_DEVICE_MAX_ON_DEVICE_EVENTS,
    CL_DEVICE_BUILT_IN_KERNELS,
    CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION,
    CL_DEVICE_PLATFORM,
    CL_DEVICE_NAME,
    CL_DEVICE_VENDOR,
    CL_DRIVER_VERSION,
    CL_DEVICE_PROFILE,
    CL_DEVICE_VERSION,
    CL_DEVICE_NUMERIC_VERSION,
    CL_DEVICE_OPENCL_C_VERSION,
    CL_DEVICE_OPENCL_C_ALL_VERSIONS,
    CL_DEVICE_OPENCL_C_FEATURES,
    CL_DEVICE_EXTENSIONS,
    CL_DEVICE_EXTENSIONS_WITH_VERSION,
    CL_DEVICE_PRINTF_BUFFER_SIZE,
    CL_DEVICE_PREFERRED_INTEROP_USER_SYNC,
    CL_DEVICE_PARENT_DEVICE,
    CL_DEVICE_PARTITION_MAX_SUB_DEVICES,
    CL_DEVICE_PARTITION_PROPERTIES,
    CL_DEVICE_PARTITION_AFFINITY_DOMAIN,
    CL_DEVICE_PARTITION_TYPE,
    CL_DEVICE_REFERENCE_COUNT,
    CL_DEVICE_SVM_CAPABILITIES,
    CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT,
    CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT,
    CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT,
    CL_DEVICE_MAX_NUM_SUB_GROUPS,
    CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
    CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
    CL_DEVICE_ATOMIC_FENCE_CAPABILITIES,
    CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
    CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
    CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
    CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
    CL_DEVICE_PIPE_SUPPORT,
    CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
    CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED,
    CL_DEVICE_HOST_UNIFIED_MEMORY,
    CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE,
    CL_DEVICE_SUB_GROUP_SIZES_INTEL,
};

TEST(Device, EveryQueryAnswers) {
  cl_device_id d = spvsimDevice();
  for (cl_device_info q : kAllQueries) {
    size_t size = 12345;
    ASSERT_EQ(clGetDeviceInfo(d, q, 0, nullptr, &size), CL_SUCCESS) << std::hex << q;
    std::vector<unsigned char> value(size + 1);
    EXPECT_EQ(clGetDeviceInfo(d, q, size, value.data(), nullptr), CL_SUCCESS) << std::hex << q;
    bool mayBeEmpty = q == CL_DEVICE_PARTITION_TYPE || q == CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION;
    if (!mayBeEmpty) EXPECT_GT(size, 0u) << std::hex << q;
    if (size) EXPECT_EQ(clGetDeviceInfo(d, q, size - 1, value.data(), nullptr), CL_INVALID_VALUE);
  }
  EXPECT_EQ(clGetDeviceInfo(d, 0xdead, 0, nullptr, nullptr), CL_INVALID_VALUE);
  int bogus = 0;
  EXPECT_EQ(dispatchOf(d)->clGetDeviceInfo(reinterpret_cast<cl_device_id>(&bogus), CL_DEVICE_NAME,
                                           0, nullptr, nullptr),
            CL_INVALID_DEVICE);
}

TEST(Device, VersionsAndIl) {
  cl_device_id d = spvsimDevice();
  EXPECT_EQ(deviceString(d, CL_DEVICE_VERSION).rfind("OpenCL 3.0 ", 0), 0u);
  EXPECT_EQ(deviceValue<cl_version>(d, CL_DEVICE_NUMERIC_VERSION), CL_MAKE_VERSION(3, 0, 0));
  EXPECT_EQ(deviceString(d, CL_DEVICE_OPENCL_C_VERSION).rfind("OpenCL C 1.2", 0), 0u);
  EXPECT_EQ(deviceString(d, CL_DEVICE_PROFILE), "FULL_PROFILE");
  auto cVersions = deviceVector<cl_name_version>(d, CL_DEVICE_OPENCL_C_ALL_VERSIONS);
  std::set<cl_version> cv;
  for (auto& nv : cVersions) {
    EXPECT_STREQ(nv.name, "OpenCL C");
    cv.insert(nv.version);
  }
  EXPECT_TRUE(cv.count(CL_MAKE_VERSION(1, 2, 0)) && cv.count(CL_MAKE_VERSION(3, 0, 0)));
  // The IL string lists what ILS_WITH_VERSION lists: SPIR-V 1.0 to 1.6, which the
  // loader (spirv/) validates and decodes.
  auto il = words(deviceString(d, CL_DEVICE_IL_VERSION));
  auto ils = deviceVector<cl_name_version>(d, CL_DEVICE_ILS_WITH_VERSION);
  EXPECT_EQ(il.size(), ils.size());
  for (auto& nv : ils) {
    EXPECT_STREQ(nv.name, "SPIR-V");
    EXPECT_TRUE(has(il, "SPIR-V_" + std::to_string(CL_VERSION_MAJOR(nv.version)) + "." +
                            std::to_string(CL_VERSION_MINOR(nv.version))));
  }
  for (int minor = 0; minor <= 6; ++minor)
    EXPECT_TRUE(has(il, "SPIR-V_1." + std::to_string(minor)));
}

TEST(Device, ExtensionsAndFeaturesAgree) {
  cl_device_id d = spvsimDevice();
  auto ext = words(deviceString(d, CL_DEVICE_EXTENSIONS));
  EXPECT_EQ(names(deviceVector<cl_name_version>(d, CL_DEVICE_EXTENSIONS_WITH_VERSION)), ext);
  for (const char* e :
       {"cl_khr_icd", "cl_khr_il_program", "cl_khr_subgroups", "cl_khr_subgroup_ballot",
        "cl_khr_subgroup_shuffle", "cl_khr_subgroup_non_uniform_arithmetic", "cl_intel_subgroups",
        "cl_intel_required_subgroup_size", "cl_khr_fp64"})
    EXPECT_TRUE(has(ext, e)) << e;
  for (const char* e : {"cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
                        "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
                        "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics"})
    EXPECT_TRUE(has(ext, e)) << e;
  EXPECT_TRUE(has(ext, "cl_khr_3d_image_writes"));
  // Depth images and sharing are not implemented: neither is reported.
  for (const char* e : {"cl_khr_gl_sharing", "cl_khr_depth_images"}) EXPECT_FALSE(has(ext, e)) << e;
  auto featureList = deviceVector<cl_name_version>(d, CL_DEVICE_OPENCL_C_FEATURES);
  auto features = names(featureList);
  for (auto& f : featureList) EXPECT_EQ(f.version, CL_MAKE_VERSION(3, 0, 0)) << f.name;
  // Each feature macro goes with its query or extension (OpenCL 3.0 API, 4.2).
  EXPECT_TRUE(has(features, "__opencl_c_int64"));  // FULL_PROFILE
  EXPECT_EQ(has(features, "__opencl_c_fp64"), has(ext, "cl_khr_fp64"));
  EXPECT_EQ(has(features, "__opencl_c_subgroups"), has(ext, "cl_khr_subgroups"));
  EXPECT_EQ(has(features, "__opencl_c_generic_address_space"),
            deviceValue<cl_bool>(d, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) == CL_TRUE);
  EXPECT_EQ(has(features, "__opencl_c_work_group_collective_functions"),
            deviceValue<cl_bool>(d, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == CL_TRUE);
  EXPECT_EQ(has(features, "__opencl_c_program_scope_global_variables"),
            deviceValue<size_t>(d, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) > 0);
  EXPECT_EQ(has(features, "__opencl_c_images"),
            deviceValue<cl_bool>(d, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE);
  EXPECT_EQ(has(features, "__opencl_c_pipes"),
            deviceValue<cl_bool>(d, CL_DEVICE_PIPE_SUPPORT) == CL_TRUE);
  EXPECT_EQ(has(features, "__opencl_c_device_enqueue"),
            deviceValue<cl_device_device_enqueue_capabilities>(
                d, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) != 0);
  // Atomic feature macros match the capabilities (OpenCL 3.0 API, 4.2).
  auto atomics =
      deviceValue<cl_device_atomic_capabilities>(d, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
  auto fences = deviceValue<cl_device_atomic_capabilities>(d, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
  for (const auto& [feature, bit] :
       {std::pair{"__opencl_c_atomic_order_acq_rel", CL_DEVICE_ATOMIC_ORDER_ACQ_REL},
        std::pair{"__opencl_c_atomic_order_seq_cst", CL_DEVICE_ATOMIC_ORDER_SEQ_CST},
        std::pair{"__opencl_c_atomic_scope_device", CL_DEVICE_ATOMIC_SCOPE_DEVICE},
        std::pair{"__opencl_c_atomic_scope_all_devices", CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES}}) {
    EXPECT_EQ(has(features, feature), (atomics & bit) != 0) << feature;
    EXPECT_EQ(atomics & bit, fences & bit) << feature;
  }
  EXPECT_TRUE(has(features, "__opencl_c_atomic_scope_device"));
}

TEST(Device, WorkGroupsAndSubGroups) {
  cl_device_id d = spvsimDevice();
  size_t maxWg = deviceValue<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_EQ(maxWg, spvsim::kDeviceMaxWorkGroupSize);
  EXPECT_EQ(deviceValue<cl_uint>(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS), 3u);
  for (size_t s : deviceVector<size_t>(d, CL_DEVICE_MAX_WORK_ITEM_SIZES)) EXPECT_EQ(s, maxWg);
  auto sizes = deviceVector<size_t>(d, CL_DEVICE_SUB_GROUP_SIZES_INTEL);
  ASSERT_FALSE(sizes.empty());
  EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
  EXPECT_GE(sizes.front(), 1u);
  EXPECT_LE(sizes.back(), 128u);
  EXPECT_TRUE(std::count(sizes.begin(), sizes.end(), configuredSubGroupSize()));
  // Enough sub-groups for a largest work-group at the smallest size.
  EXPECT_GE(deviceValue<cl_uint>(d, CL_DEVICE_MAX_NUM_SUB_GROUPS), maxWg / sizes.front());
  EXPECT_EQ(deviceValue<cl_bool>(d, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS), CL_TRUE);
  EXPECT_EQ(deviceValue<cl_bool>(d, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT), CL_TRUE);
  EXPECT_EQ(deviceValue<size_t>(d, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE),
            configuredSubGroupSize());
}

// The FULL_PROFILE minimums of OpenCL 3.0's device query table.
TEST(Device, SpecMinimums) {
  cl_device_id d = spvsimDevice();
  cl_ulong global = deviceValue<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
  cl_ulong alloc = deviceValue<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_GE(alloc, std::max<cl_ulong>(global / 4, 128ull << 20));
  EXPECT_LE(alloc, global);
  EXPECT_GE(deviceValue<size_t>(d, CL_DEVICE_MAX_PARAMETER_SIZE), 1024u);
  EXPECT_GE(deviceValue<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE), 32u * 1024);
  EXPECT_GE(deviceValue<cl_ulong>(d, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE), 64u * 1024);
  EXPECT_GE(deviceValue<cl_uint>(d, CL_DEVICE_MAX_CONSTANT_ARGS), 8u);
  EXPECT_GE(deviceValue<cl_uint>(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN), 8 * sizeof(cl_long16));
  EXPECT_GE(deviceValue<size_t>(d, CL_DEVICE_PRINTF_BUFFER_SIZE), 1u << 20);
  EXPECT_GE(deviceValue<size_t>(d, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE), 64u * 1024);
  EXPECT_EQ(deviceValue<cl_uint>(d, CL_DEVICE_ADDRESS_BITS), 64u);
  auto fp = deviceValue<cl_device_fp_config>(d, CL_DEVICE_SINGLE_FP_CONFIG);
  EXPECT_EQ(fp & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN), CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN);
  auto dp = deviceValue<cl_device_fp_config>(d, CL_DEVICE_DOUBLE_FP_CONFIG);
  cl_device_fp_config dpMin = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM;
  EXPECT_EQ(dp & dpMin, dpMin);  // cl_khr_fp64 is reported
  EXPECT_NE(deviceValue<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE), 0u);
  EXPECT_NE(deviceValue<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF), 0u);  // cl_khr_fp16
  auto queueProps = deviceValue<cl_command_queue_properties>(d, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  EXPECT_TRUE(queueProps & CL_QUEUE_PROFILING_ENABLE);
  auto atomics =
      deviceValue<cl_device_atomic_capabilities>(d, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
  EXPECT_EQ(atomics & (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP),
            CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP);
  auto fences = deviceValue<cl_device_atomic_capabilities>(d, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
  cl_device_atomic_capabilities fenceMin = CL_DEVICE_ATOMIC_ORDER_RELAXED |
                                           CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                           CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  EXPECT_EQ(fences & fenceMin, fenceMin);
  EXPECT_EQ(deviceValue<cl_device_exec_capabilities>(d, CL_DEVICE_EXECUTION_CAPABILITIES),
            CL_EXEC_KERNEL);
}

TEST(Device, AbsentFeaturesAndIdentity) {
  cl_device_id d = spvsimDevice();
  EXPECT_EQ(deviceValue<cl_bool>(d, CL_DEVICE_PIPE_SUPPORT), CL_TRUE);
  EXPECT_EQ(deviceValue<cl_bool>(d, CL_DEVICE_IMAGE_SUPPORT), CL_TRUE);
  EXPECT_EQ(deviceValue<cl_device_svm_capabilities>(d, CL_DEVICE_SVM_CAPABILITIES),
            cl_device_svm_capabilities(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                                       CL_DEVICE_SVM_FINE_GRAIN_BUFFER));
  EXPECT_EQ(deviceValue<cl_platform_id>(d, CL_DEVICE_PLATFORM), spvsimPlatform());
  EXPECT_EQ(deviceValue<cl_device_id>(d, CL_DEVICE_PARENT_DEVICE), nullptr);
  EXPECT_EQ(deviceValue<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT), 1u);
  EXPECT_EQ(deviceVector<cl_device_partition_property>(d, CL_DEVICE_PARTITION_PROPERTIES),
            std::vector<cl_device_partition_property>{0});
  EXPECT_EQ(deviceValue<cl_uint>(d, CL_DEVICE_PARTITION_MAX_SUB_DEVICES), 0u);
  EXPECT_EQ(deviceString(d, CL_DEVICE_NAME), "spvsim");
  EXPECT_EQ(deviceString(d, CL_DEVICE_BUILT_IN_KERNELS), "");
}

TEST(Device, NoSubDevicesAndRootRefcount) {
  cl_device_id d = spvsimDevice();
  cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_id out[4];
  cl_uint n = 0;
  EXPECT_EQ(clCreateSubDevices(d, equally, 4, out, &n), CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSubDevices(d, nullptr, 4, out, &n), CL_INVALID_VALUE);
  EXPECT_EQ(clRetainDevice(d), CL_SUCCESS);
  EXPECT_EQ(clReleaseDevice(d), CL_SUCCESS);
  EXPECT_EQ(deviceValue<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT), 1u);
  int bogus = 0;
  auto* table = dispatchOf(d);
  EXPECT_EQ(table->clRetainDevice(reinterpret_cast<cl_device_id>(&bogus)), CL_INVALID_DEVICE);
  EXPECT_EQ(table->clCreateSubDevices(reinterpret_cast<cl_device_id>(&bogus), equally, 4, out, &n),
            CL_INVALID_DEVICE);
}

TEST(Device, Timers) {
  cl_device_id d = spvsimDevice();
  cl_ulong dev1 = 0, host1 = 0, dev2 = 0, host2 = 0, host3 = 0;
  ASSERT_EQ(clGetDeviceAndHostTimer(d, &dev1, &host1), CL_SUCCESS);
  ASSERT_EQ(clGetHostTimer(d, &host2), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceAndHostTimer(d, &dev2, &host3), CL_SUCCESS);
  EXPECT_GT(dev1, 0u);
  EXPECT_LE(host1, host2);
  EXPECT_LE(host2, host3);
  EXPECT_LE(dev1, dev2);
  EXPECT_EQ(clGetDeviceAndHostTimer(d, nullptr, &host1), CL_INVALID_VALUE);
  EXPECT_EQ(clGetHostTimer(d, nullptr), CL_INVALID_VALUE);
}

}  // namespace
}  // namespace spvsim::rt::test
