#include "tools/dap/dap_command.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "spirv/error.h"
#include "tools/dap/dap_adapter.h"
#include "tools/dap/dap_protocol.h"

namespace spvsim::tools {
namespace {

// What the reader thread hands the main thread, in arrival order.
struct Incoming {
  dap::Frame frame;
  bool end = false;  // the client closed the stream
};

// Shared by the two threads (and kept alive by the reader, which may outlive the main
// loop while blocked in read()).
struct Channel {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<Incoming> queue;
  // The engine's interrupt flag: a `pause` (or disconnect, or the end of the stream) sets
  // it while `continue` runs on the main thread, which polls it between instructions.
  volatile std::sig_atomic_t interrupt = 0;
  // The client closed the stream: the requests still queued are not answered.
  std::atomic<bool> ended = false;

  void push(Incoming item) {
    {
      const std::lock_guard lock(mutex);
      queue.push_back(std::move(item));
    }
    ready.notify_one();
  }
  // The next item; none once `deadline` (when given) has passed without one.
  std::optional<Incoming> pop(std::optional<std::chrono::steady_clock::time_point> deadline) {
    std::unique_lock lock(mutex);
    const auto arrived = [&] { return !queue.empty(); };
    if (!deadline)
      ready.wait(lock, arrived);
    else if (!ready.wait_until(lock, *deadline, arrived))
      return std::nullopt;
    Incoming item = std::move(queue.front());
    queue.pop_front();
    return item;
  }
};

bool interrupts(const std::string& body) {
  try {
    const JsonValue message = parseJson(body, "DAP message");
    const JsonValue* command = message.find("command");
    return command && (command->text == "pause" || command->text == "disconnect" ||
                       command->text == "terminate");
  } catch (const std::exception&) {
    return false;  // answered as malformed by the main thread
  }
}

void readMessages(int fd, const std::shared_ptr<Channel>& channel) {
  dap::MessageReader reader;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      // The client has gone: a run in progress stops, and the adapter ends.
      channel->ended = true;
      channel->interrupt = 1;
      return channel->push({{}, true});
    }
    reader.feed(std::string_view(buffer, static_cast<size_t>(n)));
    for (dap::Frame f = reader.next(); f.kind != dap::Frame::Kind::NeedMore; f = reader.next()) {
      if (f.kind == dap::Frame::Kind::Message && interrupts(f.body)) channel->interrupt = 1;
      channel->push({std::move(f), false});
    }
  }
}

// Writes `text`; false once the client cannot take it. `wait`: block while the client
// reads; else (a socket's client not admitted yet) fail rather than wait for it.
bool writeAll(int fd, const std::string& text, bool wait) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n =
        wait ? write(fd, text.data() + done, text.size() - done)
             : send(fd, text.data() + done, text.size() - done, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// The listening socket on 127.0.0.1:`port`; clients are accepted one at a time.
class Listener {
 public:
  explicit Listener(int port) : fd_(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    if (fd_ < 0) throw Error(DiagnosticKind::Input, "spvsim dap: cannot create a socket");
    const int yes = 1;
    setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        listen(fd_, 1) != 0) {
      const std::string why = std::strerror(errno);
      close(fd_);
      throw Error(DiagnosticKind::Input,
                  fmt::format("spvsim dap: cannot listen on 127.0.0.1:{}: {}", port, why));
    }
  }
  ~Listener() { close(fd_); }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  // The next client's socket.
  int accept() {
    for (;;) {
      const int client = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client >= 0) return client;
      if (errno != EINTR && errno != ECONNABORTED)
        throw Error(DiagnosticKind::Input,
                    fmt::format("spvsim dap: accept failed: {}", std::strerror(errno)));
    }
  }

 private:
  int fd_;
};

int parsePort(const std::string& text) {
  size_t used = 0;
  int port = -1;
  try {
    port = std::stoi(text, &used);
  } catch (const std::exception&) {
  }
  if (used != text.size() || port < 1 || port > 65535)
    throw Error(DiagnosticKind::Usage, fmt::format("--port wants 1 to 65535, not '{}'", text));
  return port;
}

// How long a --port client has to give the token: the listener takes one client at a
// time, so one that connects and says nothing must not keep the user's IDE out.
constexpr std::chrono::seconds kAdmissionTime{10};

// Answers the requests on `channel` until the client disconnects, goes away, is refused
// or lets kAdmissionTime pass without giving the token; whether it was admitted
// (dap_adapter.h).
bool answer(Channel& channel, int outFd, const std::optional<std::string>& token) {
  bool writable = true;
  // The sender is called only once `adapter` is constructed. A client not admitted yet
  // that sends requests and reads no answers must not block the adapter in write() either.
  dap::Adapter adapter(
      [&](const JsonValue& m) {
        writable = writable && writeAll(outFd, dap::frame(writeJson(m)), adapter.admitted());
      },
      &channel.interrupt, token);
  const auto admissionDeadline = std::chrono::steady_clock::now() + kAdmissionTime;
  while (writable) {
    const std::optional<Incoming> in =
        channel.pop(adapter.admitted() ? std::nullopt : std::optional(admissionDeadline));
    if (!in || in->end || channel.ended) break;
    if (in->frame.kind == dap::Frame::Kind::Error)
      adapter.protocolError(in->frame.body);
    else if (!adapter.handle(in->frame.body))
      break;
  }
  return adapter.admitted();
}

// stdin/stdout: the client started us, so it needs no token. The reader may stay blocked
// in read() at exit (the client may keep its end open after `disconnect`).
int serveStdio() {
  auto channel = std::make_shared<Channel>();
  std::thread(readMessages, STDIN_FILENO, channel).detach();
  answer(*channel, STDOUT_FILENO, std::nullopt);
  return 0;
}

// One client of the listener; whether it gave the token. Its socket is closed once its
// reader thread has returned, so that the descriptor cannot be reused under that thread.
bool serveSocket(int client, const std::string& token) {
  auto channel = std::make_shared<Channel>();
  std::thread reader(readMessages, client, channel);
  const bool admitted = answer(*channel, client, token);
  shutdown(client, SHUT_RDWR);  // wakes the reader's read()
  reader.join();
  close(client);
  return admitted;
}

// --port: clients without the token are refused and the listener waits for the next one;
// the run ends with the first admitted client's session.
int servePort(int port, std::ostream& err) {
  Listener listener(port);
  const std::string token = dap::randomToken();
  err << fmt::format("token={}\n", token)
      << fmt::format("spvsim dap: listening on 127.0.0.1:{}\n", port) << std::flush;
  while (!serveSocket(listener.accept(), token))
    err << "spvsim dap: the client gave no valid token; listening again\n" << std::flush;
  return 0;
}

}  // namespace

std::string dapHelp() {
  return R"(Usage: spvsim dap [--port N]

Speaks the Debug Adapter Protocol (DAP) on stdin/stdout, or with --port N on one TCP
connection accepted on 127.0.0.1:N, so that IDEs (VS Code) and other DAP clients debug a
kernel with the engine of `spvsim debug`. The `launch` request's arguments:
  "program": the kernel (.cl, .spv, .spvasm), an Oclgrind .sim file or a capture bundle
  "args": the other arguments `spvsim debug` takes, e.g. ["--global", "8", "--arg", "buffer:int[8]"]
  "stopOnEntry": stop at the kernel's entry (default: run to the first breakpoint)
  "cwd": the directory relative paths are read from
  "token": with --port, the token it printed on stderr (token=...)
With --port, a client must give the token in its `launch` (or `attach`) within 10 seconds;
one that does not is refused and disconnected, and the listener waits for the next. The
run ends with the admitted client's session, or when the client (or stdin) goes away.
--build-options in "args" take OpenCL build options only (-D, -I, -cl-*, -O0..-O3, -g, -w,
-Werror, -W<warning>): anything that would load code into clang is refused.
Threads are the sub-groups of the current work-group; each variable's value is shown per
lane (its children [0], [1]...); scopes: Locals, Lanes (active mask), SIMT (reconvergence
stack). Breakpoint conditions and `evaluate` take debugger expressions.
)";
}

int dapCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  int port = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      out << dapHelp();
      return 0;
    }
    if (args[i] == "--port" && i + 1 < args.size()) {
      port = parsePort(args[++i]);
    } else if (args[i].rfind("--port=", 0) == 0) {
      port = parsePort(args[i].substr(7));
    } else {
      throw Error(DiagnosticKind::Usage, fmt::format("spvsim dap: unknown argument '{}'", args[i]));
    }
  }
  signal(SIGPIPE, SIG_IGN);  // a client gone: write() fails and its session ends
  return port ? servePort(port, err) : serveStdio();
}

}  // namespace spvsim::tools
