#include "rbmix/experiments/table2_rbms.hpp"

#include "rbmix/jobs/job_progress.hpp"
#include "rbmix/training/trainer.hpp"
#include "rbmix/training/training_options.hpp"

namespace rbmix::experiments {

nlohmann::json to_json(const Table2Setting& setting) {
  return {{"name", setting.name},
          {"rows", setting.data.rows()},
          {"hidden", setting.hidden},
          {"batch", setting.batch},
          {"updates", setting.updates},
          {"trials", setting.trials},
          {"steps", setting.steps},
          {"training", "20-PT10, Gibbs sweeps, sampled in float, parameters in double"}};
}

Rbm train_table2_rbm(const Table2Setting& setting, double learning_rate, const ParameterInitialisation& initialisation,
                     std::uint64_t seed, const JobProgress& progress) {
  TrainingOptions training;
  training.negative_phase = NegativePhaseKind::parallel_tempering;
  training.replicas = 20;
  training.sampling_steps = 10;
  training.learning_rate = learning_rate;
  training.batch_size = setting.batch;
  training.updates = setting.updates;
  training.evaluation_interval = 0;
  training.seed = seed;
  // The sweeps and statistics in float halve the products that are the update's cost (docs/performance.md,
  // "Parallel tempering"); the parameters and the gradient's sum stay double. The τ measured afterwards is of the
  // trained model's own chains, recorded in double.
  training.sample_in_float = true;
  apply(initialisation, training);
  Trainer trainer(training, setting.data, MatrixD(0, setting.data.cols()), setting.hidden);
  TrainingHooks hooks;
  hooks.on_update = progress.training(setting.updates);
  trainer.run(hooks);
  return trainer.model();
}

std::function<void(Eigen::Index)> chain_progress(const UnitRule& rule, Eigen::Index sweeps,
                                                 const JobProgress& progress) {
  progress.stage(to_string(rule) + " chain");
  return [progress, sweeps](Eigen::Index done) {
    progress.fraction(static_cast<double>(done) / static_cast<double>(sweeps));
  };
}

}  // namespace rbmix::experiments
