// OpenCL 2.0 pipes as a launch sees them: one PipeStorage per pipe object, owned by the
// front end (the ICD's cl_mem from clCreatePipe, the CLI's pipe:TYPE[N]=INIT argument)
// and bound to a kernel's pipe parameter through ArgBinding::Kind::Pipe. The contents
// persist between launches, so a producer kernel and a consumer launched after it share
// the packets. See src/DESIGN.md, "Pipes".
//
// The model: a ring of `maxPackets` slots taken in order. A write reservation takes the
// next free slots at the write head, a read reservation the next committed slots at the
// read head; a reservation's packets become readable (write) or free (read) when it is
// committed. The plain read_pipe/write_pipe are a one-packet reservation committed at
// once. Work-groups run on several host threads: every operation takes the mutex.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace spvsim {

// Who made a reservation: reserve_* (one work-item), sub_group_reserve_*,
// work_group_reserve_*. The commit must be the matching built-in.
enum class PipeScope : uint8_t { WorkItem, Subgroup, Workgroup };

// What a reserved access or commit found wrong with its reserve id.
enum class ReserveUse : uint8_t {
  Ok,
  Unknown,     // never returned by this pipe's reserve
  Committed,   // already committed
  WrongSide,   // a read reservation used to write, or the reverse
  WrongScope,  // committed by a built-in of another scope
  OutOfRange,  // index >= the reservation's packets
};

class PipeStorage {
 public:
  PipeStorage(uint32_t packetSize, uint32_t maxPackets);

  const uint32_t packetSize;
  const uint32_t maxPackets;

  // read_pipe / write_pipe (2 arguments): false when the pipe is empty / full.
  bool read(uint8_t* packet);
  bool write(const uint8_t* packet);

  // reserve_*: a reservation of n packets, or 0 (not enough packets or room; n == 0).
  uint64_t reserve(bool write, uint32_t n, PipeScope scope);
  // read_pipe / write_pipe with a reserve id (4 arguments).
  ReserveUse readReserved(uint64_t id, uint32_t index, uint8_t* packet);
  ReserveUse writeReserved(uint64_t id, uint32_t index, const uint8_t* packet);
  // commit_*: `unwritten` is set to the packets of a write reservation never written
  // (the reader would receive undefined packets).
  ReserveUse commit(uint64_t id, bool write, PipeScope scope, uint32_t& unwritten);

  // get_num_pipe_packets: committed packets not yet reserved for reading.
  uint32_t packets();
  // Committed packets in read order, for dumps and tests.
  std::vector<uint8_t> contents();
  // Reservations made and not committed (a launch that ends with some is reported).
  size_t openReservations();
  // The host's initial packets (command line pipe arguments): false if they do not fit.
  bool fill(const uint8_t* data, uint64_t count);

 private:
  enum class Slot : uint8_t { Free, Writing, Full, Reading };
  struct Reservation {
    bool write = false;
    PipeScope scope = PipeScope::WorkItem;
    uint64_t first = 0;  // absolute packet number of its first slot
    uint32_t count = 0;
    std::vector<bool> written;  // write reservations: which packets were written
  };

  ReserveUse find(uint64_t id, bool write, Reservation*& out);
  uint64_t reserveLocked(bool write, uint32_t n, PipeScope scope);
  void commitLocked(uint64_t id);
  uint8_t* slotBytes(uint64_t packet) { return ring_.data() + (packet % maxPackets) * packetSize; }

  std::mutex mutex_;
  std::vector<uint8_t> ring_;
  std::vector<Slot> slots_;
  uint64_t readHead_ = 0;   // next packet a read reservation takes
  uint64_t writeHead_ = 0;  // next packet a write reservation takes
  uint32_t full_ = 0;       // committed, not reserved for reading
  uint64_t nextId_ = 1;
  std::map<uint64_t, Reservation> open_;
};

// Reserve id values in registers: the pipe's handle (1 + its index in the launch's pipe
// table) in the high bits, the pipe's reservation number in the low 40; 0 is the
// invalid reserve id (CLK_NULL_RESERVE_ID).
inline constexpr uint32_t kReserveIdBits = 40;
inline uint64_t makeReserveId(uint64_t handle, uint64_t id) {
  return id ? (handle << kReserveIdBits) | id : 0;
}
inline uint64_t reserveIdHandle(uint64_t rid) { return rid >> kReserveIdBits; }
inline uint64_t reserveIdNumber(uint64_t rid) {
  return rid & ((uint64_t{1} << kReserveIdBits) - 1);
}

}  // namespace spvsim
