#include "src/exec/pipe.h"

#include <cstring>

namespace spvsim {

PipeStorage::PipeStorage(uint32_t size, uint32_t max)
    : packetSize(size), maxPackets(max), ring_(uint64_t(size) * max, 0), slots_(max, Slot::Free) {}

uint64_t PipeStorage::reserveLocked(bool write, uint32_t n, PipeScope scope) {
  if (n == 0 || n > maxPackets) return 0;
  uint64_t& head = write ? writeHead_ : readHead_;
  const Slot need = write ? Slot::Free : Slot::Full;
  for (uint64_t k = head; k < head + n; ++k)
    if (slots_[k % maxPackets] != need) return 0;
  Reservation r{write, scope, head, n, {}};
  if (write) r.written.assign(n, false);
  for (uint64_t k = head; k < head + n; ++k)
    slots_[k % maxPackets] = write ? Slot::Writing : Slot::Reading;
  if (!write) full_ -= n;
  head += n;
  const uint64_t id = nextId_++;
  open_.emplace(id, std::move(r));
  return id;
}

void PipeStorage::commitLocked(uint64_t id) {
  auto it = open_.find(id);
  const Reservation& r = it->second;
  for (uint64_t k = r.first; k < r.first + r.count; ++k)
    slots_[k % maxPackets] = r.write ? Slot::Full : Slot::Free;
  if (r.write) full_ += r.count;
  open_.erase(it);
}

ReserveUse PipeStorage::find(uint64_t id, bool write, Reservation*& out) {
  auto it = open_.find(id);
  if (it == open_.end())
    return id != 0 && id < nextId_ ? ReserveUse::Committed : ReserveUse::Unknown;
  if (it->second.write != write) return ReserveUse::WrongSide;
  out = &it->second;
  return ReserveUse::Ok;
}

bool PipeStorage::read(uint8_t* packet) {
  std::lock_guard lock(mutex_);
  const uint64_t id = reserveLocked(false, 1, PipeScope::WorkItem);
  if (!id) return false;
  std::memcpy(packet, slotBytes(open_[id].first), packetSize);
  commitLocked(id);
  return true;
}

bool PipeStorage::write(const uint8_t* packet) {
  std::lock_guard lock(mutex_);
  const uint64_t id = reserveLocked(true, 1, PipeScope::WorkItem);
  if (!id) return false;
  std::memcpy(slotBytes(open_[id].first), packet, packetSize);
  commitLocked(id);
  return true;
}

uint64_t PipeStorage::reserve(bool write, uint32_t n, PipeScope scope) {
  std::lock_guard lock(mutex_);
  return reserveLocked(write, n, scope);
}

ReserveUse PipeStorage::readReserved(uint64_t id, uint32_t index, uint8_t* packet) {
  std::lock_guard lock(mutex_);
  Reservation* r = nullptr;
  if (ReserveUse u = find(id, false, r); u != ReserveUse::Ok) return u;
  if (index >= r->count) return ReserveUse::OutOfRange;
  std::memcpy(packet, slotBytes(r->first + index), packetSize);
  return ReserveUse::Ok;
}

ReserveUse PipeStorage::writeReserved(uint64_t id, uint32_t index, const uint8_t* packet) {
  std::lock_guard lock(mutex_);
  Reservation* r = nullptr;
  if (ReserveUse u = find(id, true, r); u != ReserveUse::Ok) return u;
  if (index >= r->count) return ReserveUse::OutOfRange;
  std::memcpy(slotBytes(r->first + index), packet, packetSize);
  r->written[index] = true;
  return ReserveUse::Ok;
}

ReserveUse PipeStorage::commit(uint64_t id, bool write, PipeScope scope, uint32_t& unwritten) {
  std::lock_guard lock(mutex_);
  Reservation* r = nullptr;
  unwritten = 0;
  if (ReserveUse u = find(id, write, r); u != ReserveUse::Ok) return u;
  if (r->scope != scope) return ReserveUse::WrongScope;
  for (bool w : r->written) unwritten += w ? 0 : 1;
  commitLocked(id);
  return ReserveUse::Ok;
}

uint32_t PipeStorage::packets() {
  std::lock_guard lock(mutex_);
  return full_;
}

std::vector<uint8_t> PipeStorage::contents() {
  std::lock_guard lock(mutex_);
  std::vector<uint8_t> out;
  for (uint64_t k = readHead_; k < writeHead_; ++k)
    if (slots_[k % maxPackets] == Slot::Full)
      out.insert(out.end(), slotBytes(k), slotBytes(k) + packetSize);
  return out;
}

size_t PipeStorage::openReservations() {
  std::lock_guard lock(mutex_);
  return open_.size();
}

bool PipeStorage::fill(const uint8_t* data, uint64_t count) {
  std::lock_guard lock(mutex_);
  if (count > maxPackets - (writeHead_ - readHead_)) return false;
  for (uint64_t k = 0; k < count; ++k) {
    const uint64_t id = reserveLocked(true, 1, PipeScope::WorkItem);
    if (!id) return false;
    std::memcpy(slotBytes(open_[id].first), data + k * packetSize, packetSize);
    commitLocked(id);
  }
  return true;
}

}  // namespace spvsim
