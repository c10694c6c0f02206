// Kernel objects through the ICD loader: creation, cloning, arguments, kernel and
// argument queries, work-group and sub-group queries (checked against what kernels
// observe), and their error codes.
#include "runtime/tests/programs/program_fixture.h"
// (the fixture first: it selects the ICD)
#include <array>

#include "spirv/loader.h"

namespace spvsim::rt::test {
namespace {

using Size3 = std::array<size_t, 3>;

constexpr const char* kKernels = R"(
typedef struct { int a; float b; } pair_t;
struct S2 { int x; };
kernel void args(global const int* restrict a, global volatile int* b, constant int* c,
                 local float4* d, uint e, pair_t p, struct S2 s, global uchar* u) {
  b[0] = a[0] + c[0] + e + p.a + s.x + u[0];
  d[0] = 0;
}
kernel __attribute__((reqd_work_group_size(8, 4, 1))) __attribute__((vec_type_hint(float4)))
void fixed(global int* a) { a[0] = 1; }
kernel __attribute__((intel_reqd_sub_group_size(8))) void sized(global uint* out) {
  out[get_global_id(0)] = get_sub_group_size();
}
kernel void scratch(global int* out, local int* extra) {
  local int tmp[64];
  tmp[get_local_id(0)] = 1;
  extra[0] = 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[0] = tmp[0] + extra[0];
}
kernel void null_check(global int* out, global int* maybe) { out[0] = maybe == 0; }
kernel void observe(global uint* out) {
  size_t i = get_global_linear_id();
  out[4 * i] = get_max_sub_group_size();
  out[4 * i + 1] = get_num_sub_groups();
  out[4 * i + 2] = get_sub_group_size();
  out[4 * i + 3] = get_sub_group_id();
}
)";

class KernelTest : public ProgramTest {
 protected:
  void SetUp() override {
    ProgramTest::SetUp();
    program = built(kKernels);
  }

  std::string argString(cl_kernel k, cl_uint i, cl_kernel_arg_info param) {
    size_t size = 0;
    EXPECT_EQ(clGetKernelArgInfo(k, i, param, 0, nullptr, &size), CL_SUCCESS);
    std::string s(size, '\0');
    EXPECT_EQ(clGetKernelArgInfo(k, i, param, size, s.data(), nullptr), CL_SUCCESS);
    if (!s.empty()) s.pop_back();
    return s;
  }
  template <class T>
  T argValue(cl_kernel k, cl_uint i, cl_kernel_arg_info param) {
    T v{};
    EXPECT_EQ(clGetKernelArgInfo(k, i, param, sizeof v, &v, nullptr), CL_SUCCESS);
    return v;
  }
  std::string kernelString(cl_kernel k, cl_kernel_info param) {
    size_t size = 0;
    EXPECT_EQ(clGetKernelInfo(k, param, 0, nullptr, &size), CL_SUCCESS);
    std::string s(size, '\0');
    EXPECT_EQ(clGetKernelInfo(k, param, size, s.data(), nullptr), CL_SUCCESS);
    if (!s.empty()) s.pop_back();
    return s;
  }
  template <class T>
  T workGroupInfo(cl_kernel k, cl_kernel_work_group_info param) {
    T v{};
    EXPECT_EQ(clGetKernelWorkGroupInfo(k, device, param, sizeof v, &v, nullptr), CL_SUCCESS);
    return v;
  }
  size_t subGroupInfo(cl_kernel k, cl_kernel_sub_group_info param, std::vector<size_t> input) {
    size_t v = 0, size = 0;
    EXPECT_EQ(clGetKernelSubGroupInfo(k, device, param, input.size() * sizeof(size_t),
                                      input.empty() ? nullptr : input.data(), sizeof v, &v, &size),
              CL_SUCCESS);
    EXPECT_EQ(size, sizeof v);
    return v;
  }

  // Runs `observe` over one work-group of `local` and returns, per work-item,
  // {max sub-group size, number of sub-groups, sub-group size, sub-group id}.
  std::vector<std::array<uint32_t, 4>> observe(std::vector<size_t> local) {
    cl_kernel k = kernel(program, "observe");
    size_t items = 1;
    for (size_t l : local) items *= l;
    cl_mem out = buffer(items * 16);
    setArg(k, 0, out);
    EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, static_cast<cl_uint>(local.size()), nullptr,
                                     local.data(), local.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    const std::vector<uint32_t> flat = read<uint32_t>(out, items * 4);
    std::vector<std::array<uint32_t, 4>> v(items);
    for (size_t i = 0; i < items; ++i)
      v[i] = {flat[4 * i], flat[4 * i + 1], flat[4 * i + 2], flat[4 * i + 3]};
    return v;
  }

  size_t maxWorkGroupSize() {
    size_t v = 0;
    EXPECT_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof v, &v, nullptr),
              CL_SUCCESS);
    return v;
  }

  cl_program program = nullptr;
};

TEST_F(KernelTest, CreateAndQuery) {
  cl_kernel k = kernel(program, "args");
  EXPECT_EQ(kernelString(k, CL_KERNEL_FUNCTION_NAME), "args");
  cl_uint n = 0;
  EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, nullptr), CL_SUCCESS);
  EXPECT_EQ(n, 8u);
  cl_context c = nullptr;
  EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof c, &c, nullptr), CL_SUCCESS);
  EXPECT_EQ(c, context);
  cl_program p = nullptr;
  EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof p, &p, nullptr), CL_SUCCESS);
  EXPECT_EQ(p, program);
  cl_uint refs = 0;
  EXPECT_EQ(clRetainKernel(k), CL_SUCCESS);
  EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, nullptr), CL_SUCCESS);
  EXPECT_EQ(refs, 2u);
  EXPECT_EQ(clReleaseKernel(k), CL_SUCCESS);
  EXPECT_EQ(kernelString(k, CL_KERNEL_ATTRIBUTES), "");
  EXPECT_EQ(kernelString(kernel(program, "fixed"), CL_KERNEL_ATTRIBUTES),
            "reqd_work_group_size(8,4,1) vec_type_hint(float4)");
  EXPECT_EQ(kernelString(kernel(program, "sized"), CL_KERNEL_ATTRIBUTES),
            "intel_reqd_sub_group_size(8)");
  EXPECT_EQ(clGetKernelInfo(k, 0x7fff, sizeof n, &n, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, 1, &n, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(icd()->clGetKernelInfo(bogus<cl_kernel>(), CL_KERNEL_NUM_ARGS, sizeof n, &n, nullptr),
            CL_INVALID_KERNEL);
}

TEST_F(KernelTest, CreateErrors) {
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(program, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateKernel(program, "no_such_kernel", &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_KERNEL_NAME);
  EXPECT_EQ(clCreateKernel(source(kKernels), "args", &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
  EXPECT_EQ(icd()->clCreateKernel(bogus<cl_program>(), "args", &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROGRAM);
  EXPECT_EQ(icd()->clRetainKernel(bogus<cl_kernel>()), CL_INVALID_KERNEL);
  EXPECT_EQ(icd()->clReleaseKernel(bogus<cl_kernel>()), CL_INVALID_KERNEL);
  EXPECT_EQ(icd()->clCloneKernel(bogus<cl_kernel>(), &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_KERNEL);
}

TEST_F(KernelTest, CreateAllKernels) {
  cl_uint n = 0;
  ASSERT_EQ(clCreateKernelsInProgram(program, 0, nullptr, &n), CL_SUCCESS);
  EXPECT_EQ(n, 6u);
  std::vector<cl_kernel> ks(n);
  EXPECT_EQ(clCreateKernelsInProgram(program, n - 1, ks.data(), nullptr), CL_INVALID_VALUE);
  ASSERT_EQ(clCreateKernelsInProgram(program, n, ks.data(), nullptr), CL_SUCCESS);
  std::vector<std::string> names;
  for (cl_kernel k : ks) {
    names.push_back(kernelString(k, CL_KERNEL_FUNCTION_NAME));
    EXPECT_EQ(clReleaseKernel(k), CL_SUCCESS);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"args", "fixed", "sized", "scratch", "null_check",
                                             "observe"}));
  EXPECT_EQ(clCreateKernelsInProgram(source(kKernels), 0, nullptr, &n),
            CL_INVALID_PROGRAM_EXECUTABLE);
  EXPECT_EQ(icd()->clCreateKernelsInProgram(bogus<cl_program>(), 0, nullptr, &n),
            CL_INVALID_PROGRAM);
}

TEST_F(KernelTest, ArgumentInfoAsDeclared) {
  cl_kernel k = kernel(program, "args");
  const std::vector<std::string> names = {"a", "b", "c", "d", "e", "p", "s", "u"};
  const std::vector<std::string> types = {"int*", "int*",   "int*",      "float4*",
                                          "uint", "pair_t", "struct S2", "uchar*"};
  const std::vector<cl_kernel_arg_address_qualifier> spaces = {
      CL_KERNEL_ARG_ADDRESS_GLOBAL,  CL_KERNEL_ARG_ADDRESS_GLOBAL,  CL_KERNEL_ARG_ADDRESS_CONSTANT,
      CL_KERNEL_ARG_ADDRESS_LOCAL,   CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ADDRESS_PRIVATE,
      CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ADDRESS_GLOBAL};
  // `u` is only read (clang marks it NoWrite) but is not declared const.
  const std::vector<cl_kernel_arg_type_qualifier> qualifiers = {
      CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT,
      CL_KERNEL_ARG_TYPE_VOLATILE,
      CL_KERNEL_ARG_TYPE_CONST,
      CL_KERNEL_ARG_TYPE_NONE,
      CL_KERNEL_ARG_TYPE_NONE,
      CL_KERNEL_ARG_TYPE_NONE,
      CL_KERNEL_ARG_TYPE_NONE,
      CL_KERNEL_ARG_TYPE_NONE};
  for (cl_uint i = 0; i < 8; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(argString(k, i, CL_KERNEL_ARG_NAME), names[i]);
    EXPECT_EQ(argString(k, i, CL_KERNEL_ARG_TYPE_NAME), types[i]);
    EXPECT_EQ(argValue<cl_kernel_arg_address_qualifier>(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
              spaces[i]);
    EXPECT_EQ(argValue<cl_kernel_arg_type_qualifier>(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER),
              qualifiers[i]);
    EXPECT_EQ(argValue<cl_kernel_arg_access_qualifier>(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER),
              cl_kernel_arg_access_qualifier{CL_KERNEL_ARG_ACCESS_NONE});
  }
  cl_uint v = 0;
  EXPECT_EQ(clGetKernelArgInfo(k, 8, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof v, &v, nullptr),
            CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clGetKernelArgInfo(k, 0, 0x7fff, sizeof v, &v, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, 1, &v, nullptr),
            CL_INVALID_VALUE);
}

TEST_F(KernelTest, SetArgErrors) {
  cl_kernel k = kernel(program, "args");
  cl_mem m = buffer(64);
  const cl_uint u = 1;
  const cl_int pair[2] = {1, 2};
  EXPECT_EQ(clSetKernelArg(k, 8, sizeof u, &u), CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clSetKernelArg(k, 4, 2, &u), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(k, 4, sizeof u, nullptr), CL_INVALID_ARG_VALUE);
  EXPECT_EQ(clSetKernelArg(k, 4, sizeof u, &u), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(k, 5, sizeof pair, pair), CL_SUCCESS);  // a struct by value
  EXPECT_EQ(clSetKernelArg(k, 5, 4, pair), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(k, 0, 4, &m), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  cl_mem notAMem = reinterpret_cast<cl_mem>(queue);
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof notAMem, &notAMem), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clSetKernelArg(k, 2, sizeof m, &m), CL_SUCCESS);      // constant
  EXPECT_EQ(clSetKernelArg(k, 3, 64, &m), CL_INVALID_ARG_VALUE);  // local: value must be NULL
  EXPECT_EQ(clSetKernelArg(k, 3, 0, nullptr), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(k, 3, 64, nullptr), CL_SUCCESS);
  EXPECT_EQ(icd()->clSetKernelArg(bogus<cl_kernel>(), 0, sizeof m, &m), CL_INVALID_KERNEL);
  // A buffer of another context.
  cl_int err = CL_INVALID_VALUE;
  cl_context other = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 16, nullptr, &err);
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof foreign, &foreign), CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(foreign);
  clReleaseContext(other);
}

TEST_F(KernelTest, NullBufferArguments) {
  cl_kernel k = kernel(program, "null_check");
  cl_mem out = bufferOf(std::vector<int>{7});
  setArg(k, 0, out);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof(cl_mem), nullptr), CL_SUCCESS);
  run(k, 1);
  EXPECT_EQ(read<int>(out, 1)[0], 1);
  const cl_mem none = nullptr;
  setArg(k, 1, out);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof none, &none), CL_SUCCESS);
  run(k, 1);
  EXPECT_EQ(read<int>(out, 1)[0], 1);
  setArg(k, 1, out);
  run(k, 1);
  EXPECT_EQ(read<int>(out, 1)[0], 0);
}

TEST_F(KernelTest, ClonesCopyArguments) {
  cl_kernel k = kernel(program, "null_check");
  cl_mem a = bufferOf(std::vector<int>{5}), b = bufferOf(std::vector<int>{5});
  setArg(k, 0, a);
  setArg(k, 1, a);
  cl_int err = CL_INVALID_VALUE;
  cl_kernel clone = clCloneKernel(k, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_uint refs = 0;
  EXPECT_EQ(clGetKernelInfo(clone, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(refs, 1u);
  setArg(clone, 0, b);  // does not change k's arguments
  run(clone, 1);
  run(k, 1);
  EXPECT_EQ(read<int>(a, 1)[0], 0);
  EXPECT_EQ(read<int>(b, 1)[0], 0);
  EXPECT_EQ(clReleaseKernel(clone), CL_SUCCESS);
}

// A kernel's local memory is its own call tree's __local arrays: small's float[16] (64
// bytes), not big's float[100000] in the same program.
TEST_F(KernelTest, LocalMemSizeCountsOnlyTheKernelsArrays) {
  cl_program two = built(R"(
kernel void small(global float* out) {
  local float t[16];
  t[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[15 - get_local_id(0)];
}
kernel void big(global float* out) {
  local float b[100000];
  b[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = b[99999 - get_local_id(0)];
}
)");
  EXPECT_EQ(workGroupInfo<cl_ulong>(kernel(two, "small"), CL_KERNEL_LOCAL_MEM_SIZE), 64u);
  EXPECT_EQ(workGroupInfo<cl_ulong>(kernel(two, "big"), CL_KERNEL_LOCAL_MEM_SIZE), 400000u);
}

TEST_F(KernelTest, KernelsKeepTheirProgramAlive) {
  const char* text = kKernels;
  cl_int err = CL_INVALID_VALUE;
  cl_program p = clCreateProgramWithSource(context, 1, &text, nullptr, &err);  // not owned
  ASSERT_EQ(clBuildProgram(p, 0, nullptr, "-cl-std=CL3.0", nullptr, nullptr), CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "null_check", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(clReleaseProgram(p), CL_SUCCESS);  // only the kernel's reference is left
  cl_mem out = bufferOf(std::vector<int>{0});
  setArg(k, 0, out);
  setArg(k, 1, out);
  run(k, 1);
  EXPECT_EQ(read<int>(out, 1)[0], 0);
  cl_program fromKernel = nullptr;
  EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof fromKernel, &fromKernel, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(fromKernel, p);
  EXPECT_EQ(clReleaseKernel(k), CL_SUCCESS);  // releases the program too
}

TEST_F(KernelTest, WorkGroupInfo) {
  cl_kernel k = kernel(program, "scratch");
  EXPECT_EQ(workGroupInfo<size_t>(k, CL_KERNEL_WORK_GROUP_SIZE), maxWorkGroupSize());
  EXPECT_EQ(workGroupInfo<Size3>(k, CL_KERNEL_COMPILE_WORK_GROUP_SIZE), (Size3{0, 0, 0}));
  EXPECT_EQ(workGroupInfo<cl_ulong>(k, CL_KERNEL_LOCAL_MEM_SIZE), 256u);  // tmp
  ASSERT_EQ(clSetKernelArg(k, 1, 100, nullptr), CL_SUCCESS);
  EXPECT_EQ(workGroupInfo<cl_ulong>(k, CL_KERNEL_LOCAL_MEM_SIZE), 356u);
  EXPECT_EQ(workGroupInfo<size_t>(k, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE), 16u);
  workGroupInfo<cl_ulong>(k, CL_KERNEL_PRIVATE_MEM_SIZE);
  cl_kernel fixed = kernel(program, "fixed");
  EXPECT_EQ(workGroupInfo<Size3>(fixed, CL_KERNEL_COMPILE_WORK_GROUP_SIZE), (Size3{8, 4, 1}));
  EXPECT_EQ(
      workGroupInfo<size_t>(kernel(program, "sized"), CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE),
      8u);
  size_t v[3] = {};
  EXPECT_EQ(clGetKernelWorkGroupInfo(k, nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof v, v, nullptr),
            CL_SUCCESS);  // one device: NULL is that device
  EXPECT_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof v, v, nullptr),
            CL_INVALID_VALUE);  // not a custom device or built-in kernel
  EXPECT_EQ(clGetKernelWorkGroupInfo(k, device, 0x7fff, sizeof v, v, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, 1, v, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelWorkGroupInfo(k, reinterpret_cast<cl_device_id>(context),
                                     CL_KERNEL_WORK_GROUP_SIZE, sizeof v, v, nullptr),
            CL_INVALID_DEVICE);
  EXPECT_EQ(icd()->clGetKernelWorkGroupInfo(bogus<cl_kernel>(), device, CL_KERNEL_WORK_GROUP_SIZE,
                                            sizeof v, v, nullptr),
            CL_INVALID_KERNEL);
}

TEST_F(KernelTest, SubGroupQueriesAgreeWithTheKernel) {
  cl_kernel k = kernel(program, "observe");
  for (std::vector<size_t> local :
       {std::vector<size_t>{24}, std::vector<size_t>{5, 3}, std::vector<size_t>{4, 3, 3},
        std::vector<size_t>{16}, std::vector<size_t>{7}}) {
    SCOPED_TRACE(local.size());
    const size_t maxSize = subGroupInfo(k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, local);
    const size_t count = subGroupInfo(k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, local);
    size_t items = 1;
    for (size_t l : local) items *= l;
    EXPECT_EQ(maxSize, 16u);
    EXPECT_EQ(count, (items + 15) / 16);  // host model: ceil(items / size)
    for (const auto& item : observe(local)) {
      EXPECT_EQ(item[0], maxSize);
      EXPECT_EQ(item[1], count);
      // All sub-groups full except possibly the last.
      EXPECT_EQ(item[2], item[3] + 1 < count ? 16u : items - 16 * (count - 1));
    }
  }
  EXPECT_EQ(subGroupInfo(k, CL_KERNEL_MAX_NUM_SUB_GROUPS, {}), (maxWorkGroupSize() + 15) / 16);
  EXPECT_EQ(subGroupInfo(k, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, {}), 0u);
  EXPECT_EQ(subGroupInfo(k, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, {}), 0u);
}

TEST_F(KernelTest, LocalSizeForSubGroupCount) {
  cl_kernel k = kernel(program, "observe");
  const size_t most = maxWorkGroupSize() / 16;  // sub-groups of 16 in the largest group
  for (size_t count : {size_t{1}, size_t{2}, size_t{5}, most}) {
    for (size_t dims = 1; dims <= 3; ++dims) {
      std::vector<size_t> local(dims, 7);
      size_t size = 0;
      ASSERT_EQ(
          clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count,
                                  &count, dims * sizeof(size_t), local.data(), &size),
          CL_SUCCESS);
      EXPECT_EQ(size, dims * sizeof(size_t));
      EXPECT_EQ(local[0], 16 * count);
      for (size_t d = 1; d < dims; ++d) EXPECT_EQ(local[d], 1u);
      EXPECT_EQ(observe(local)[0][1], count);  // the kernel sees that many sub-groups
    }
  }
  const size_t tooMany = most + 1;
  size_t local[2] = {7, 7};
  ASSERT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                    sizeof tooMany, &tooMany, sizeof local, local, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(local[0], 0u);
  EXPECT_EQ(local[1], 0u);
  // A required work-group size is the only one possible.
  cl_kernel fixed = kernel(program, "fixed");
  const size_t two = 2;
  size_t fixedLocal[3] = {};
  ASSERT_EQ(clGetKernelSubGroupInfo(fixed, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                    sizeof two, &two, sizeof fixedLocal, fixedLocal, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(fixedLocal[0] * fixedLocal[1] * fixedLocal[2], 32u);
}

TEST_F(KernelTest, RequiredSubGroupSize) {
  cl_kernel k = kernel(program, "sized");
  const std::vector<size_t> local = {20};
  EXPECT_EQ(subGroupInfo(k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, local), 8u);
  EXPECT_EQ(subGroupInfo(k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, local), 3u);
  EXPECT_EQ(subGroupInfo(k, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, {}), 8u);
  EXPECT_EQ(subGroupInfo(k, CL_KERNEL_MAX_NUM_SUB_GROUPS, {}), (maxWorkGroupSize() + 7) / 8);
  cl_mem out = buffer(20 * 4);
  setArg(k, 0, out);
  run(k, 20, 20);
  const std::vector<uint32_t> sizes = read<uint32_t>(out, 20);
  for (size_t i = 0; i < 20; ++i) EXPECT_EQ(sizes[i], i < 16 ? 8u : 4u) << i;
}

TEST_F(KernelTest, CompileNumSubGroupsFromIL) {
  // OpenCL C cannot ask for a number of sub-groups; SPIR-V can (SubgroupsPerWorkgroup).
  cl_program p = il(spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability SubgroupDispatch
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "two_sub_groups"
               OpExecutionMode %k SubgroupsPerWorkgroup 2
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
   %ptr_uint = OpTypePointer CrossWorkgroup %uint
     %uint_1 = OpConstant %uint 1
         %fn = OpTypeFunction %void %ptr_uint
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr_uint
          %l = OpLabel
               OpStore %out %uint_1 Aligned 4
               OpReturn
               OpFunctionEnd
)"));
  ASSERT_EQ(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS) << buildLog(p);
  cl_kernel k = kernel(p, "two_sub_groups");
  EXPECT_EQ(subGroupInfo(k, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, {}), 2u);
  cl_mem out = buffer(4);
  setArg(k, 0, out);
  const size_t global = 64, wrong = 16, right = 32;
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &wrong, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &right, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);  // the local size of two whole sub-groups
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(read<uint32_t>(out, 1)[0], 1u);
}

TEST_F(KernelTest, SubGroupQueryErrors) {
  cl_kernel k = kernel(program, "observe");
  const size_t local[4] = {8, 1, 1, 1};
  size_t v = 0;
  auto query = [&](cl_kernel_sub_group_info p, size_t inSize, const void* in, size_t outSize) {
    return clGetKernelSubGroupInfo(k, device, p, inSize, in, outSize, &v, nullptr);
  };
  EXPECT_EQ(query(CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(size_t), nullptr, sizeof v),
            CL_INVALID_VALUE);
  EXPECT_EQ(query(CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, local, sizeof v),
            CL_INVALID_VALUE);  // four dimensions
  EXPECT_EQ(query(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 3, local, sizeof v), CL_INVALID_VALUE);
  EXPECT_EQ(query(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(size_t), local, 1),
            CL_INVALID_VALUE);
  EXPECT_EQ(query(CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, 2 * sizeof(size_t), local, sizeof v),
            CL_INVALID_VALUE);
  EXPECT_EQ(query(0x7fff, 0, nullptr, sizeof v), CL_INVALID_VALUE);
  EXPECT_EQ(
      clGetKernelSubGroupInfo(k, reinterpret_cast<cl_device_id>(context),
                              CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof v, &v, nullptr),
      CL_INVALID_DEVICE);
  EXPECT_EQ(icd()->clGetKernelSubGroupInfo(bogus<cl_kernel>(), device, CL_KERNEL_MAX_NUM_SUB_GROUPS,
                                           0, nullptr, sizeof v, &v, nullptr),
            CL_INVALID_KERNEL);
}

TEST_F(KernelTest, SubGroupQueriesThroughTheKhrFunction) {
  auto query = reinterpret_cast<clGetKernelSubGroupInfoKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clGetKernelSubGroupInfoKHR"));
  ASSERT_NE(query, nullptr);
  cl_kernel k = kernel(program, "observe");
  const size_t local[3] = {40, 1, 1};
  size_t v = 0, size = 0;
  ASSERT_EQ(query(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR, sizeof local, local,
                  sizeof v, &v, &size),
            CL_SUCCESS);
  EXPECT_EQ(v, 3u);
  EXPECT_EQ(size, sizeof v);
  ASSERT_EQ(query(k, nullptr, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR, sizeof local, local,
                  sizeof v, &v, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(v, 16u);
  // The dispatch slot of the same name.
  EXPECT_EQ(icd()->clGetKernelSubGroupInfoKHR(k, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr,
                                              sizeof v, &v, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(v, (maxWorkGroupSize() + 15) / 16);
}

}  // namespace
}  // namespace spvsim::rt::test
