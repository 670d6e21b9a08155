#include "rbmix/jobs/mpi_job_backend.hpp"

#ifdef RBMIX_HAVE_MPI

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <thread>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {
namespace {

enum Tag : int { hello_tag = 1, request_tag = 2, assign_tag = 3 };
constexpr std::int64_t stop_signal = -1;
// Short next to any job, long enough that a waiting rank 0 costs next to no CPU.
constexpr std::chrono::microseconds coordinator_poll_interval{500};

struct World {
  bool active = false;
  int rank = 0;
  int size = 1;
  bool threads_may_call = false;  // MPI_THREAD_SERIALIZED granted: one thread at a time may call MPI
  std::vector<std::string> hosts;
  ~World() {
    int finalized = 0;
    if (active && (MPI_Finalized(&finalized), !finalized)) MPI_Finalize();
  }
};

World& world() {
  static World instance;
  return instance;
}

// A worker's message: the job just finished (or −1 on a thread's first request), whether it succeeded, its text.
std::string encode(std::int64_t job, const JobOutcome& outcome) {
  std::string message(sizeof job + 1, '\0');
  std::memcpy(message.data(), &job, sizeof job);
  message[sizeof job] = outcome.succeeded ? 1 : 0;
  return message + outcome.text;
}

void serve(const std::vector<std::size_t>& todo,
           const std::function<void(std::size_t job, const JobOutcome& outcome)>& finished) {
  long long requesters = 0;
  for (int rank = 1; rank < world().size; ++rank) {
    int threads = 0;
    MPI_Recv(&threads, 1, MPI_INT, rank, hello_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    requesters += threads;
  }
  std::size_t next = 0;
  for (long long stopped = 0; stopped < requesters;) {
    MPI_Status status;
    // Polled with pauses: a blocking probe spins, and rank 0 would take a core from the workers beside it.
    for (int arrived = 0;;) {
      MPI_Iprobe(MPI_ANY_SOURCE, request_tag, MPI_COMM_WORLD, &arrived, &status);
      if (arrived) break;
      std::this_thread::sleep_for(coordinator_poll_interval);
    }
    int bytes = 0;
    MPI_Get_count(&status, MPI_CHAR, &bytes);
    std::string message(static_cast<std::size_t>(bytes), '\0');
    MPI_Recv(message.data(), bytes, MPI_CHAR, status.MPI_SOURCE, request_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    std::int64_t job = stop_signal;
    std::memcpy(&job, message.data(), sizeof job);
    if (job != stop_signal)
      finished(static_cast<std::size_t>(job), {message[sizeof job] != 0, message.substr(sizeof job + 1)});
    std::int64_t assignment = stop_signal;
    if (next < todo.size())
      assignment = static_cast<std::int64_t>(todo[next++]);
    else
      ++stopped;
    MPI_Send(&assignment, 1, MPI_INT64_T, status.MPI_SOURCE, assign_tag, MPI_COMM_WORLD);
  }
}

void work(int threads, const std::function<JobOutcome(std::size_t job)>& job) {
  int team = threads > 0 ? threads : omp_get_max_threads();
  if (!world().threads_may_call) team = 1;
  MPI_Send(&team, 1, MPI_INT, 0, hello_tag, MPI_COMM_WORLD);
#pragma omp parallel num_threads(team)
  {
    // As in the threads backend: the jobs are the parallelism, their own OpenMP regions run serially.
    omp_set_num_threads(1);
    std::string message = encode(stop_signal, {});
    for (;;) {
      std::int64_t assignment = stop_signal;
      // One thread at a time sends its result and receives its next job, so each reply reaches its asker.
#pragma omp critical(rbmix_mpi_jobs)
      {
        MPI_Send(message.data(), static_cast<int>(message.size()), MPI_CHAR, 0, request_tag, MPI_COMM_WORLD);
        MPI_Recv(&assignment, 1, MPI_INT64_T, 0, assign_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      if (assignment == stop_signal) break;
      message = encode(assignment, job(static_cast<std::size_t>(assignment)));
    }
  }
}

}  // namespace

bool start_mpi_world() {
  World& state = world();
  if (state.active) return true;
  // Launched by mpirun (Open MPI, or any PMI-based launcher) with more than one rank.
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (size == nullptr) size = std::getenv("PMI_SIZE");
  if (size == nullptr || std::atoi(size) <= 1) return false;
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
  state.active = true;
  state.threads_may_call = provided >= MPI_THREAD_SERIALIZED;
  MPI_Comm_rank(MPI_COMM_WORLD, &state.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &state.size);
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(host, &length);
  std::vector<char> hosts(state.rank == 0 ? static_cast<std::size_t>(state.size) * MPI_MAX_PROCESSOR_NAME : 1);
  MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (state.rank == 0)
    for (int rank = 0; rank < state.size; ++rank)
      state.hosts.emplace_back(hosts.data() + static_cast<std::size_t>(rank) * MPI_MAX_PROCESSOR_NAME);
  return true;
}

bool share_mpi_texts(std::vector<std::string>& texts, bool proceed) {
  require(world().active, "share_mpi_texts: no MPI world is active");
  int go_on = proceed ? 1 : 0;
  MPI_Bcast(&go_on, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (go_on == 0) return false;
  std::int64_t count = static_cast<std::int64_t>(texts.size());
  MPI_Bcast(&count, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  std::vector<std::int64_t> lengths(static_cast<std::size_t>(count));
  std::string joined;
  if (world().rank == 0)
    for (std::size_t k = 0; k < texts.size(); ++k) {
      lengths[k] = static_cast<std::int64_t>(texts[k].size());
      joined += texts[k];
    }
  MPI_Bcast(lengths.data(), static_cast<int>(count), MPI_INT64_T, 0, MPI_COMM_WORLD);
  std::int64_t total = static_cast<std::int64_t>(joined.size());
  MPI_Bcast(&total, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  joined.resize(static_cast<std::size_t>(total));
  // In pieces: one MPI call counts at most INT_MAX elements.
  constexpr std::int64_t piece = 1 << 30;
  for (std::int64_t offset = 0; offset < total; offset += piece)
    MPI_Bcast(joined.data() + offset, static_cast<int>(std::min(piece, total - offset)), MPI_CHAR, 0, MPI_COMM_WORLD);
  if (world().rank != 0) {
    texts.clear();
    std::size_t offset = 0;
    for (const std::int64_t length : lengths) {
      texts.push_back(joined.substr(offset, static_cast<std::size_t>(length)));
      offset += static_cast<std::size_t>(length);
    }
  }
  return true;
}

bool mpi_world_active() { return world().active; }
int mpi_rank() { return world().rank; }
int mpi_size() { return world().size; }
std::vector<std::string> mpi_hosts() { return world().hosts; }

void run_mpi_jobs(const std::vector<std::size_t>& todo, int threads,
                  const std::function<JobOutcome(std::size_t job)>& job,
                  const std::function<void(std::size_t job, const JobOutcome& outcome)>& finished) {
  require(world().active, "run_mpi_jobs: no MPI world is active");
  if (world().rank == 0)
    serve(todo, finished);
  else
    work(threads, job);
}

}  // namespace rbmix::experiments

#else  // built without MPI: no world is ever active

#include <cstdlib>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {

bool start_mpi_world() {
  // Every rank of an mpirun would otherwise run the whole grid and write the same files.
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (size == nullptr) size = std::getenv("PMI_SIZE");
  require(size == nullptr || std::atoi(size) <= 1,
          "launched by mpirun with several ranks, but this rbmix was built without MPI (RBMIX_MPI=OFF)");
  return false;
}
bool mpi_world_active() { return false; }
int mpi_rank() { return 0; }
int mpi_size() { return 1; }
std::vector<std::string> mpi_hosts() { return {}; }

bool share_mpi_texts(std::vector<std::string>&, bool) {
  throw InputError("this rbmix was built without MPI (RBMIX_MPI=OFF)");
}

void run_mpi_jobs(const std::vector<std::size_t>&, int, const std::function<JobOutcome(std::size_t job)>&,
                  const std::function<void(std::size_t job, const JobOutcome& outcome)>&) {
  throw InputError("this rbmix was built without MPI (RBMIX_MPI=OFF)");
}

}  // namespace rbmix::experiments

#endif
