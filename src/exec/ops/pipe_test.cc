// Pipes end to end through Program::launch (src/exec/pipe.h, src/exec/ops/pipe.cc):
// producer and consumer kernels in separate launches sharing one PipeStorage, per-work-item,
// sub-group and work-group reservations, empty and full pipes, and the misuse the OpenCL C
// spec leaves undefined. Expected values follow the spec: a consumer receives exactly the
// multiset of packets written; read_pipe/write_pipe return 0 on success and a negative
// value when the pipe is empty/full; the packets of one reservation keep their indices.
// Every kernel runs at -O0 and -O2.
#include "src/exec/pipe.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::bufferOf;

const char* kSource = R"(
kernel void produce(__write_only pipe int p, global const int* src, global int* status) {
  size_t g = get_global_id(0);
  status[g] = write_pipe(p, &src[g]);
}
kernel void consume(__read_only pipe int p, global int* dst, global int* status) {
  size_t g = get_global_id(0);
  int v = -7;
  status[g] = read_pipe(p, &v);
  dst[g] = v;
}
kernel void produce_pairs(__write_only pipe int p, global int* status) {
  int g = get_global_id(0);
  reserve_id_t id = reserve_write_pipe(p, 2);
  status[g] = is_valid_reserve_id(id) ? 0 : -1;
  if (is_valid_reserve_id(id)) {
    int a = 2 * g, b = 2 * g + 1;
    write_pipe(p, id, 1, &b);
    write_pipe(p, id, 0, &a);
    commit_write_pipe(p, id);
  }
}
kernel void consume_pairs(__read_only pipe int p, global int* dst) {
  int g = get_global_id(0);
  reserve_id_t id = reserve_read_pipe(p, 2);
  int a = -1, b = -1;
  if (is_valid_reserve_id(id)) {
    read_pipe(p, id, 0, &a);
    read_pipe(p, id, 1, &b);
    commit_read_pipe(p, id);
  }
  dst[2 * g] = a;
  dst[2 * g + 1] = b;
}
kernel void wg_produce(__write_only pipe int p, global int* valid) {
  int g = get_global_id(0);
  reserve_id_t id = work_group_reserve_write_pipe(p, get_local_size(0));
  valid[g] = is_valid_reserve_id(id);
  if (is_valid_reserve_id(id)) {
    write_pipe(p, id, get_local_id(0), &g);
    work_group_commit_write_pipe(p, id);
  }
}
kernel void wg_consume(__read_only pipe int p, global int* dst) {
  int v = -1;
  reserve_id_t id = work_group_reserve_read_pipe(p, get_local_size(0));
  if (is_valid_reserve_id(id)) {
    read_pipe(p, id, get_local_id(0), &v);
    work_group_commit_read_pipe(p, id);
  }
  dst[get_global_id(0)] = v;
}
kernel void sg_produce(__write_only pipe int p) {
  int g = get_global_id(0);
  reserve_id_t id = sub_group_reserve_write_pipe(p, get_sub_group_size());
  if (is_valid_reserve_id(id)) {
    write_pipe(p, id, get_sub_group_local_id(), &g);
    sub_group_commit_write_pipe(p, id);
  }
}
kernel void sg_consume(__read_only pipe int p, global int* dst) {
  int v = -1;
  reserve_id_t id = sub_group_reserve_read_pipe(p, get_sub_group_size());
  if (is_valid_reserve_id(id)) {
    read_pipe(p, id, get_sub_group_local_id(), &v);
    sub_group_commit_read_pipe(p, id);
  }
  dst[get_global_id(0)] = v;
}
kernel void counts(__read_only pipe int p, global uint* out) {
  out[0] = get_pipe_num_packets(p);
  out[1] = get_pipe_max_packets(p);
}
kernel void read_outside(__read_only pipe int p, global int* dst) {
  reserve_id_t id = reserve_read_pipe(p, 1);
  if (is_valid_reserve_id(id)) {
    read_pipe(p, id, 1, &dst[0]);
    commit_read_pipe(p, id);
  }
}
kernel void commit_twice(__write_only pipe int p) {
  reserve_id_t id = reserve_write_pipe(p, 1);
  int v = 5;
  write_pipe(p, id, 0, &v);
  commit_write_pipe(p, id);
  commit_write_pipe(p, id);
}
kernel void unchecked(__read_only pipe int p, global int* dst) {
  reserve_id_t id = reserve_read_pipe(p, 4);
  read_pipe(p, id, 0, &dst[0]);
}
kernel void unwritten(__write_only pipe int p) {
  reserve_id_t id = reserve_write_pipe(p, 3);
  int v = 5;
  write_pipe(p, id, 0, &v);
  commit_write_pipe(p, id);
}
kernel void uncommitted(__write_only pipe int p) {
  reserve_id_t id = reserve_write_pipe(p, 1);
  int v = 1;
  write_pipe(p, id, 0, &v);
}
kernel void sg_partial(__write_only pipe int p) {
  if (get_sub_group_local_id() < 2) {
    reserve_id_t id = sub_group_reserve_write_pipe(p, 2);
  }
}
)";

const char* kLevels[] = {"-cl-std=CL2.0 -O0", "-cl-std=CL2.0 -O2"};

class Pipes : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override { program_ = Program::load(testing::compileOpenCL(kSource, GetParam())); }
  LaunchResult launch(const std::string& kernel, uint64_t global, uint64_t local,
                      std::vector<ArgBinding> args, uint32_t sgSize = 8) {
    NDRange range;
    range.global[0] = global;
    range.local[0] = local;
    range.localGiven = true;
    LaunchOptions options;
    options.subGroupSize = sgSize;
    return program_->launch(kernel, range, args, options);
  }
  std::shared_ptr<Program> program_;
};

std::vector<int> packetsOf(PipeStorage& pipe) {
  std::vector<uint8_t> bytes = pipe.contents();
  std::vector<int> out(bytes.size() / 4);
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

size_t countKind(const LaunchResult& r, DiagnosticKind kind) {
  return std::count_if(r.diagnostics.begin(), r.diagnostics.end(),
                       [&](const Diagnostic& d) { return d.kind == kind; });
}

std::vector<int> sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST_P(Pipes, ConsumerReceivesExactlyThePacketsWrittenInAnEarlierLaunch) {
  PipeStorage pipe(4, 64);
  std::vector<int> src(48), status(48, 9), dst(48), readStatus(48, 9);
  for (int i = 0; i < 48; ++i) src[i] = 1000 + 7 * i;
  auto r = launch("produce", 48, 16, {ArgBinding::ofPipe(&pipe), bufferOf(src), bufferOf(status)});
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(status, std::vector<int>(48, 0));
  EXPECT_EQ(pipe.packets(), 48u);
  r = launch("consume", 48, 16, {ArgBinding::ofPipe(&pipe), bufferOf(dst), bufferOf(readStatus)});
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(readStatus, std::vector<int>(48, 0));
  EXPECT_EQ(sorted(dst), sorted(src));
  EXPECT_EQ(pipe.packets(), 0u);
  // Now empty: every read fails (negative) and leaves its destination alone.
  r = launch("consume", 8, 8, {ArgBinding::ofPipe(&pipe), bufferOf(dst), bufferOf(readStatus)});
  for (int i = 0; i < 8; ++i) {
    EXPECT_LT(readStatus[i], 0);
    EXPECT_EQ(dst[i], -7);
  }
}

TEST_P(Pipes, WritesToAFullPipeFail) {
  PipeStorage pipe(4, 10);
  std::vector<int> src(16), status(16, 9);
  for (int i = 0; i < 16; ++i) src[i] = 50 + i;
  launch("produce", 16, 16, {ArgBinding::ofPipe(&pipe), bufferOf(src), bufferOf(status)});
  std::vector<int> written;
  for (int i = 0; i < 16; ++i) {
    EXPECT_TRUE(status[i] == 0 || status[i] < 0) << status[i];
    if (status[i] == 0) written.push_back(src[i]);
  }
  EXPECT_EQ(written.size(), 10u);
  EXPECT_EQ(sorted(packetsOf(pipe)), sorted(written));
}

TEST_P(Pipes, PacketsOfAReservationKeepTheirIndices) {
  PipeStorage pipe(4, 40);
  std::vector<int> status(24, 9);
  launch("produce_pairs", 24, 8, {ArgBinding::ofPipe(&pipe), bufferOf(status)});
  // 40 packets hold 20 reservations of 2: the other 4 fail.
  EXPECT_EQ(std::count(status.begin(), status.end(), 0), 20);
  std::vector<int> dst(48, 0);
  auto r = launch("consume_pairs", 24, 8, {ArgBinding::ofPipe(&pipe), bufferOf(dst)});
  EXPECT_TRUE(r.diagnostics.empty());
  std::vector<int> firsts;
  for (int i = 0; i < 24; ++i) {
    const int a = dst[2 * i], b = dst[2 * i + 1];
    if (a == -1) continue;
    EXPECT_EQ(a % 2, 0);
    EXPECT_EQ(b, a + 1);  // index 0 then index 1 of one writer's reservation
    EXPECT_EQ(status[a / 2], 0);
    firsts.push_back(a);
  }
  EXPECT_EQ(firsts.size(), 20u);
  std::sort(firsts.begin(), firsts.end());
  EXPECT_EQ(std::unique(firsts.begin(), firsts.end()), firsts.end());
}

TEST_P(Pipes, WorkGroupReservations) {
  PipeStorage pipe(4, 48);
  std::vector<int> valid(64, 9), dst(64, 0);
  launch("wg_produce", 64, 16, {ArgBinding::ofPipe(&pipe), bufferOf(valid)});
  // Three of the four work-groups fit; each group's id is the same for all its items.
  int groups = 0;
  for (int g = 0; g < 4; ++g) {
    for (int i = 1; i < 16; ++i) EXPECT_EQ(valid[16 * g + i], valid[16 * g]);
    groups += valid[16 * g];
  }
  EXPECT_EQ(groups, 3);
  auto r = launch("wg_consume", 64, 16, {ArgBinding::ofPipe(&pipe), bufferOf(dst)});
  EXPECT_TRUE(r.diagnostics.empty());
  int received = 0;
  for (int g = 0; g < 4; ++g) {
    if (dst[16 * g] == -1) continue;
    ++received;
    const int base = dst[16 * g];
    EXPECT_EQ(base % 16, 0);
    EXPECT_EQ(valid[base], 1);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(dst[16 * g + i], base + i);
  }
  EXPECT_EQ(received, 3);
}

TEST_P(Pipes, SubGroupReservations) {
  PipeStorage pipe(4, 64);
  std::vector<int> dst(36, 0);
  // 36 work-items in groups of 12 with sub-groups of 8: sub-groups of 8 and 4.
  auto r = launch("sg_produce", 36, 12, {ArgBinding::ofPipe(&pipe)});
  EXPECT_TRUE(r.diagnostics.empty());
  std::vector<int> all(36);
  for (int i = 0; i < 36; ++i) all[i] = i;
  EXPECT_EQ(sorted(packetsOf(pipe)), all);
  r = launch("sg_consume", 36, 12, {ArgBinding::ofPipe(&pipe), bufferOf(dst)});
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(sorted(dst), all);
  // Each consumer sub-group of 8 gets a writer sub-group of 8's packets, in lane order.
  for (int g = 0; g < 3; ++g) {
    const int base = dst[12 * g];
    EXPECT_EQ(base % 12, 0);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(dst[12 * g + i], base + i);
  }
}

TEST_P(Pipes, CountsAndCapacity) {
  PipeStorage pipe(4, 12);
  const int init[5] = {1, 2, 3, 4, 5};
  ASSERT_TRUE(pipe.fill(reinterpret_cast<const uint8_t*>(init), 5));
  std::vector<uint32_t> out(2, 0);
  launch("counts", 1, 1, {ArgBinding::ofPipe(&pipe), bufferOf(out)});
  EXPECT_EQ(out, (std::vector<uint32_t>{5, 12}));
}

TEST_P(Pipes, MisuseIsReported) {
  PipeStorage full(4, 8);
  const int init[4] = {1, 2, 3, 4};
  ASSERT_TRUE(full.fill(reinterpret_cast<const uint8_t*>(init), 4));
  std::vector<int> dst(4, 0);
  auto r = launch("read_outside", 1, 1, {ArgBinding::ofPipe(&full), bufferOf(dst)});
  EXPECT_EQ(countKind(r, DiagnosticKind::InvalidReserveId), 1u);
  PipeStorage pipe(4, 8);
  r = launch("commit_twice", 1, 1, {ArgBinding::ofPipe(&pipe)});
  EXPECT_EQ(countKind(r, DiagnosticKind::InvalidReserveId), 1u);
  EXPECT_EQ(packetsOf(pipe), std::vector<int>{5});
  PipeStorage empty(4, 8);
  r = launch("unchecked", 1, 1, {ArgBinding::ofPipe(&empty), bufferOf(dst)});
  EXPECT_EQ(countKind(r, DiagnosticKind::InvalidReserveId), 1u);
  r = launch("unwritten", 1, 1, {ArgBinding::ofPipe(&empty)});
  EXPECT_EQ(countKind(r, DiagnosticKind::PipeMisuse), 1u);
  r = launch("sg_partial", 8, 8, {ArgBinding::ofPipe(&empty)});
  EXPECT_EQ(countKind(r, DiagnosticKind::NonUniformCollective), 1u);
  // Never committed: a warning after the launch, and the packet never becomes readable.
  PipeStorage held(4, 8);
  r = launch("uncommitted", 1, 1, {ArgBinding::ofPipe(&held)});
  ASSERT_EQ(countKind(r, DiagnosticKind::PipeMisuse), 1u);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::Warning);
  EXPECT_EQ(held.packets(), 0u);
}

TEST_P(Pipes, ArgumentChecks) {
  PipeStorage wide(8, 4);
  std::vector<int> src(1), status(1);
  // With kernel argument type names ("int") the argument check refuses the pipe; without
  // them (this test's compiler keeps none) write_pipe reports the packet size it sees.
  if (program_->kernel("produce").signature().params[0].typeName == "int") {
    EXPECT_THROW(
        launch("produce", 1, 1, {ArgBinding::ofPipe(&wide), bufferOf(src), bufferOf(status)}),
        Error);
  } else {
    auto r = launch("produce", 1, 1, {ArgBinding::ofPipe(&wide), bufferOf(src), bufferOf(status)});
    EXPECT_EQ(countKind(r, DiagnosticKind::PipeMisuse), 1u);
    EXPECT_EQ(wide.packets(), 0u);
  }
  EXPECT_THROW(launch("produce", 1, 1, {bufferOf(src), bufferOf(src), bufferOf(status)}), Error);
}

// The access qualifier of the pipe's type decides which built-ins may use it; the
// validator lets a read of a write_only pipe through, lowering refuses it.
TEST(PipeModule, ReadOfAWriteOnlyPipeIsAnInvalidModule) {
  auto program = Program::load(spirv::assemble(R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Pipes
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%uint_4 = OpConstant %uint 4
%pw = OpTypePipe WriteOnly
%ptr = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %pw %ptr
%k = OpFunction %void None %fn
%p = OpFunctionParameter %pw
%b = OpFunctionParameter %ptr
%l = OpLabel
%r = OpReadPipe %uint %p %b %uint_4 %uint_4
OpReturn
OpFunctionEnd
)"));
  PipeStorage pipe(4, 4);
  std::vector<int> out(1);
  NDRange range;
  try {
    program->launch("k", range, {ArgBinding::ofPipe(&pipe), bufferOf(out)});
    FAIL() << "expected an invalid module";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::InvalidModule);
    EXPECT_NE(std::string(e.what()).find("reads from a write_only pipe"), std::string::npos)
        << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Levels, Pipes, ::testing::ValuesIn(kLevels));

}  // namespace
}  // namespace spvsim
