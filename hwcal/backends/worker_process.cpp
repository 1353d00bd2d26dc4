#include "hwcal/backends/worker_process.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace dse {
namespace {

using Clock = std::chrono::steady_clock;

struct Worker {
  pid_t pid = -1;
  int out = -1, err = -1;
  Clock::time_point start;
  bool done = false;
  WorkerRun run;
};

// Reads what is there; false at end of file (or an error other than "try again").
bool drain(int fd, std::string& into) {
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      into.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return true;
    return false;
  }
}

Worker start(const std::string& program, const std::vector<std::string>& args, const std::string& request) {
  Worker w;
  w.start = Clock::now();
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0 || ::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
    w.run.exit_code = -1;
    w.run.err = std::string("cannot make a pipe: ") + std::strerror(errno);
    w.done = true;
    return w;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const int spawned = ::posix_spawn(&w.pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (spawned != 0) {
    w.run.exit_code = -1;
    w.run.err = "cannot start " + program + ": " + std::strerror(spawned);
    w.done = true;
    ::close(in_pipe[1]);
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    return w;
  }
  // The request is one short line: it fits the pipe's buffer, so this write does not block. A
  // worker that exits without reading it (--info, a crash) would raise SIGPIPE here: it is blocked
  // for this thread during the write, and one left pending is taken before the mask is restored.
  const std::string line = request + "\n";
  sigset_t pipe_signal, previous;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
  [[maybe_unused]] const ssize_t written = ::write(in_pipe[1], line.data(), line.size());
  const timespec no_wait{0, 0};
  while (sigtimedwait(&pipe_signal, nullptr, &no_wait) > 0) {}
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  ::close(in_pipe[1]);
  w.out = out_pipe[0];
  w.err = err_pipe[0];
  ::fcntl(w.out, F_SETFL, O_NONBLOCK);
  ::fcntl(w.err, F_SETFL, O_NONBLOCK);
  return w;
}

// Collects what is left and the exit status; with `killed`, kills it first.
void finish(Worker& w, bool killed, int status = 0, bool reaped = false) {
  if (killed) ::kill(w.pid, SIGKILL);
  if (w.out >= 0) {
    drain(w.out, w.run.out);
    ::close(w.out);
  }
  if (w.err >= 0) {
    drain(w.err, w.run.err);
    ::close(w.err);
  }
  if (!reaped)
    while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {}
  w.run.timed_out = killed;
  w.run.exit_code = !killed && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  w.run.wall_s = std::chrono::duration<double>(Clock::now() - w.start).count();
  w.done = true;
}

}  // namespace

std::vector<WorkerRun> run_workers(const std::string& program, const std::vector<std::string>& args,
                                   const std::vector<std::string>& requests, double timeout_s) {
  std::vector<Worker> workers;
  for (const auto& request : requests) workers.push_back(start(program, args, request));
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  while (true) {
    // Reap those that exited; a worker is done when it has (its pipes are drained then).
    bool running = false;
    for (auto& w : workers) {
      if (w.done) continue;
      int status = 0;
      if (::waitpid(w.pid, &status, WNOHANG) == w.pid) {
        finish(w, false, status, true);
        continue;
      }
      running = true;
    }
    if (!running) break;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      for (auto& w : workers)
        if (!w.done) finish(w, true);
      break;
    }
    std::vector<pollfd> fds;
    std::vector<std::pair<std::size_t, bool>> owner;  // worker, stdout (else stderr)
    for (std::size_t i = 0; i < workers.size(); ++i) {
      if (workers[i].done) continue;
      if (workers[i].out >= 0) {
        fds.push_back({workers[i].out, POLLIN, 0});
        owner.emplace_back(i, true);
      }
      if (workers[i].err >= 0) {
        fds.push_back({workers[i].err, POLLIN, 0});
        owner.emplace_back(i, false);
      }
    }
    // At most 10 ms between checks for exits (a worker may exit with its pipes already closed).
    if (::poll(fds.data(), fds.size(), static_cast<int>(std::min<long long>(left, 10))) < 0 && errno != EINTR) break;
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Worker& w = workers[owner[k].first];
      int& fd = owner[k].second ? w.out : w.err;
      if (!drain(fd, owner[k].second ? w.run.out : w.run.err)) {
        ::close(fd);
        fd = -1;
      }
    }
  }
  std::vector<WorkerRun> runs;
  for (auto& w : workers) runs.push_back(std::move(w.run));
  return runs;
}

}  // namespace dse
