#include "tools/dap_command.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "spirv/error.h"
#include "tools/dap_adapter.h"
#include "tools/dap_protocol.h"

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
  // The engine's interrupt flag: a `pause` (or disconnect) sets it while `continue` runs
  // on the main thread, which polls it between instructions.
  volatile std::sig_atomic_t interrupt = 0;

  void push(Incoming item) {
    {
      const std::lock_guard lock(mutex);
      queue.push_back(std::move(item));
    }
    ready.notify_one();
  }
  Incoming pop() {
    std::unique_lock lock(mutex);
    ready.wait(lock, [&] { return !queue.empty(); });
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
    if (n <= 0) return channel->push({{}, true});
    reader.feed(std::string_view(buffer, static_cast<size_t>(n)));
    for (dap::Frame f = reader.next(); f.kind != dap::Frame::Kind::NeedMore; f = reader.next()) {
      if (f.kind == dap::Frame::Kind::Message && interrupts(f.body)) channel->interrupt = 1;
      channel->push({std::move(f), false});
    }
  }
}

bool writeAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Listens on 127.0.0.1:`port` and accepts one client; its socket.
int acceptClient(int port, std::ostream& err) {
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  if (listener < 0) throw Error(DiagnosticKind::Input, "spvsim dap: cannot create a socket");
  const int yes = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      listen(listener, 1) != 0) {
    const std::string why = std::strerror(errno);
    close(listener);
    throw Error(DiagnosticKind::Input,
                fmt::format("spvsim dap: cannot listen on 127.0.0.1:{}: {}", port, why));
  }
  err << fmt::format("spvsim dap: listening on 127.0.0.1:{}\n", port) << std::flush;
  const int client = accept(listener, nullptr, nullptr);
  close(listener);
  if (client < 0) throw Error(DiagnosticKind::Input, "spvsim dap: accept failed");
  return client;
}

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

int serve(int inFd, int outFd) {
  signal(SIGPIPE, SIG_IGN);  // a client gone: write() fails and the loop ends
  auto channel = std::make_shared<Channel>();
  std::thread(readMessages, inFd, channel).detach();  // may stay blocked in read() at exit
  bool writable = true;
  dap::Adapter adapter(
      [&](const JsonValue& m) { writable = writable && writeAll(outFd, dap::frame(writeJson(m))); },
      &channel->interrupt);
  while (writable) {
    Incoming in = channel->pop();
    if (in.end) break;
    if (in.frame.kind == dap::Frame::Kind::Error)
      adapter.protocolError(in.frame.body);
    else if (!adapter.handle(in.frame.body))
      break;
  }
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
  if (!port) return serve(STDIN_FILENO, STDOUT_FILENO);
  const int client = acceptClient(port, err);
  const int status = serve(client, client);
  shutdown(client, SHUT_RDWR);  // wakes the reader thread's read()
  return status;
}

}  // namespace spvsim::tools
