#pragma once
// The job engine: what an experiment gets from rbmix/jobs/, and all it may rely on. The engine knows no experiment
// (no file here includes rbmix/experiments/; tests/docs/check-folder-includes.sh fails on one), so an experiment is
// written against this list alone:
//   phases      run_jobs(runner, JobPhase{p}, count, job) runs jobs 0..count−1 of phase p and returns their results
//               in index order, whatever the threads, shards or ranks (job_runner.hpp); a later phase may use every
//               result of an earlier one. A job depends only on its index and read-only inputs.
//   grids       the JobRunner a front-end hands the experiment may carry a JobGrid (job_grid.hpp): every finished
//               job journaled (job_journal.hpp), resumed, run as one shard of several (job_shard.hpp) or spread over
//               MPI ranks (mpi_job_backend.hpp). The experiment sees none of it: the same run_jobs call.
//   results     a job's result is GridSerializable (to_grid_json / from_grid_json restore every bit), so the grid
//               can journal it and send it between ranks.
//   part done   a phase, and so the experiment, may give back PartDone instead of its result (part_done.hpp): this
//               process's share is done while the whole is not; the experiment returns it untouched.
//   progress    a job that takes a JobProgress reports its stage and fraction on the grid's line (job_progress.hpp).
//   seeds       every random stream from (experiment seed, job, purpose): trial_seed and purpose_seed
//               (trial_seed.hpp), so results do not depend on the thread count.
//   scales      Scale::smoke and Scale::paper, the --scale of every experiment (experiment_scale.hpp).
//   outputs     a ResultDirectory writes the experiment's CSV, SVG and PNG files and run.json (result_directory.hpp).
// The experiment interface itself (options, run, report) is rbmix/experiments/experiment.hpp; adding one is
// docs/extending.md.
#include "rbmix/jobs/experiment_scale.hpp"
#include "rbmix/jobs/job_grid.hpp"
#include "rbmix/jobs/job_progress.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/part_done.hpp"
#include "rbmix/jobs/result_directory.hpp"
#include "rbmix/jobs/trial_seed.hpp"
