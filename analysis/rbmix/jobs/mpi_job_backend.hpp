#pragma once
// The MPI backend of the job runner: under `mpirun -np N`, rank 0 hands out job indices one at a time to whichever
// worker thread asks next (jobs differ in cost, so a static split would leave ranks idle), receives each result as
// serialized text and alone journals it and writes the outputs; ranks 1..N−1 run the jobs, each on its own threads.
// Built only with RBMIX_MPI; without it (or outside mpirun, or with one rank) no world is active and the runner
// keeps to the threads of one process.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "rbmix/jobs/job_journal.hpp"

namespace rbmix::experiments {

// Starts MPI when this process was launched by mpirun with more than one rank, and gathers the ranks' host names
// on rank 0; true then. Idempotent; MPI is finalized when the program exits.
bool start_mpi_world();
bool mpi_world_active();
int mpi_rank();  // 0 when no world is active
int mpi_size();  // 1 when no world is active
// On rank 0, the host of every rank, in rank order; empty elsewhere and without a world.
std::vector<std::string> mpi_hosts();

// Rank 0: hands out `todo` and calls finished(job, outcome) (on rank 0, one call at a time) as results arrive;
// returns when every worker thread has been told to stop. Other ranks: run `job` for the indices handed out, on
// `threads` threads (≤ 0: OpenMP's default), until told to stop. Every rank must call it once per world.
void run_mpi_jobs(const std::vector<std::size_t>& todo, int threads,
                  const std::function<JobOutcome(std::size_t job)>& job,
                  const std::function<void(std::size_t job, const JobOutcome& outcome)>& finished);

// Collective: rank 0's `texts` (when `proceed` there) reach every rank. Returns rank 0's `proceed`; where it is false
// the other ranks' texts are left alone.
bool share_mpi_texts(std::vector<std::string>& texts, bool proceed);

}  // namespace rbmix::experiments
