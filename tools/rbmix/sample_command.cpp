// rbmix sample: draws a sequence of samples from a trained model with one of 001's sampling processes (gibbs,
// rates-fpcd, rates-herding, herding, sp; docs/algorithms/estimation.md §4). Writes to --out DIR: samples.npy (binary,
// uint8), grey.npy (grey levels, float32), both in emission order (row t·C + c is chain c's t-th sample), for image
// data samples.png (the first --picture-samples grey samples in a grid; its Description text chunk and run.json's
// "samples_png" say what a tile shows), and run.json.
// With --ptt TRAJECTORY (or --temperature-ladder) it samples by parallel tempering along the training trajectory
// (docs/algorithms/tempering-along-trajectory.md): --chains ladders, the top rung's visible states after every ladder
// step are the samples, and ladder.csv and run.json report the rungs, the acceptance per link and the round trips.
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "rbmix/analysis/convergence_bound.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/io/npy.hpp"
#include "rbmix/io/output_directory_lock.hpp"
#include "rbmix/ladder_option.hpp"
#include "rbmix/operator_option.hpp"
#include "rbmix/option_checks.hpp"
#include "rbmix/picture_output.hpp"
#include "rbmix/progress_option.hpp"
#include "rbmix/report/png_image.hpp"
#include "rbmix/report/run_record.hpp"
#include "rbmix/sampling/rates.hpp"
#include "rbmix/sampling/sampling_process.hpp"

namespace rbmix::cli::sample_command {
namespace {

struct SampleArguments {
  ProgressFlags progress;
  std::string model;
  std::string sampler;
  std::string rule = "gibbs";
  std::string rates_data;
  Eigen::Index samples = 1000;
  Eigen::Index sweeps = 1;
  double fast_learning_rate = 0.0;
  double fast_decay = 1.0;
  Eigen::Index fixed_point_cap = 1000;
  Eigen::Index chains = 1;
  std::uint64_t seed = 1;
  std::string out;
  std::string image_shape;
  Eigen::Index picture_samples = 100;
  Eigen::Index picture_columns = 10;
  bool single_precision = false;  // a ladder's chains in float
  // --particle-metropolis: chains of particle independent Metropolis–Hastings along the ladder's path.
  bool particle_metropolis = false;
  PathMetropolisOptions proposals;
  Eigen::Index burn_in = 0;  // proposals before the first sample
};

// Which options the user gave, to refuse those the chosen sampler does not use.
struct GivenOptions {
  bool rule = false;
  bool rates_data = false;
  bool sweeps = false;
  bool fast_learning_rate = false;
  bool fast_decay = false;
  bool fixed_point_cap = false;
  bool single_precision = false;
};

void refuse_unused(bool given, const std::string& option, const std::string& sampler, const std::string& why) {
  require(!given, option + " does not apply to --sampler " + sampler + " (" + why + ")");
}

SamplerSettings settings_from(const SampleArguments& arguments, const GivenOptions& given) {
  SamplerSettings settings;
  settings.kind = parse_sampler_kind(arguments.sampler);
  const std::string name = arguments.sampler;
  if (is_zero_temperature(settings.kind)) {
    refuse_unused(given.rule, "--operator", name, "its sweeps are the deterministic zero-temperature map");
    refuse_unused(given.sweeps, "--k", name, "it iterates the map to a fixed point; see --fixed-point-cap");
  } else {
    refuse_unused(given.fixed_point_cap, "--fixed-point-cap", name, "only the herding samplers search fixed points");
  }
  switch (settings.kind) {
    case SamplerKind::gibbs:
      refuse_unused(given.fast_learning_rate, "--fast-lr", name, "gibbs has no fast parameters");
      refuse_unused(given.fast_decay, "--fast-decay", name, "gibbs has no fast parameters");
      refuse_unused(given.rates_data, "--rates-data", name, "gibbs uses no rates");
      break;
    case SamplerKind::herding:
      refuse_unused(given.fast_learning_rate, "--fast-lr", name, "herding's step is fixed at 1; use rates-herding");
      refuse_unused(given.fast_decay, "--fast-decay", name, "herding's decay is fixed at 1; use rates-herding");
      settings.fast_learning_rate = kHerdingLearningRate;
      settings.fast_decay = kHerdingDecay;
      break;
    case SamplerKind::sample_penalization:
      refuse_unused(given.rates_data, "--rates-data", name, "SP uses R = 0");
      [[fallthrough]];
    default:
      require(given.fast_learning_rate, "--sampler " + name + " needs --fast-lr (the fast step ε_F)");
      settings.fast_learning_rate = arguments.fast_learning_rate;
      settings.fast_decay = arguments.fast_decay;
  }
  if (needs_rates(settings.kind))
    require(given.rates_data, "--sampler " + name + " needs --rates-data (the training set that gives the rates R)");
  refuse_unused(given.single_precision, "--float", name, "001's samplers run in double; --float is for a ladder");
  settings.rule = parse_unit_rule(arguments.rule);
  settings.sweeps_per_sample = arguments.sweeps;
  settings.fixed_point_cap = arguments.fixed_point_cap;
  // The values themselves (k, ε_F, α, the cap) are SamplerSettings' own rules, named by their options here.
  validate(settings, {"--k", "--fast-lr", "--fast-decay", "--fixed-point-cap"});
  return settings;
}

void run_sample(const SampleArguments& arguments, const GivenOptions& given) {
  const SamplerSettings settings = settings_from(arguments, given);
  if (settings.kind == SamplerKind::sample_penalization && settings.fast_decay == 1.0)
    std::cerr << "rbmix: warning: sp with --fast-decay 1 never forgets a penalty: the samples leave the model and "
                 "collapse onto the all-off state; choose α < 1\n";

  const LoadedRbm loaded = load_rbm(arguments.model);
  const auto shape = image_shape(arguments.image_shape, loaded.rbm.n_visible());
  std::optional<SufficientStatistics> rates;
  if (needs_rates(settings.kind))
    rates = compute_rates(loaded.rbm, load_binary_matrix(arguments.rates_data), arguments.rates_data);
  const OutputDirectoryLock lock(arguments.out);
  const std::filesystem::path& out = lock.directory();

  SamplingProcess process(loaded.rbm, settings, std::move(rates), arguments.chains, arguments.seed);
  const auto start = std::chrono::steady_clock::now();
  // The loop of SamplingProcess::run, with a progress line between samples.
  EmittedSamples samples{BinaryMatrix(arguments.samples * arguments.chains, loaded.rbm.n_visible()),
                         MatrixF(arguments.samples * arguments.chains, loaded.rbm.n_visible())};
  ProgressReporter progress("sample", "sample", arguments.samples, arguments.progress.mode());
  for (Eigen::Index sample = 0; sample < arguments.samples; ++sample) {
    process.emit_into(samples, sample * arguments.chains);
    progress.update(sample + 1);
  }
  progress.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  save_binary_matrix(out / "samples.npy", samples.binary);
  write_npy(out / "grey.npy", matrix_to_npy(samples.grey));
  const Eigen::Index pictured = std::min(arguments.picture_samples, samples.grey.rows());
  const std::string picture_caption = "the first " + std::to_string(pictured) +
                                      " samples in emission order, one per tile: " +
                                      grey_sample_meaning(settings.kind);
  if (shape && pictured > 0)
    write_png(out / "samples.png",
              tile_images(samples.grey.topRows(pictured), shape->first, shape->second, {arguments.picture_columns}),
              {{"Description", picture_caption}, {"Source", arguments.model}});

  nlohmann::json configuration = {{"model", arguments.model},
                                  {"sampler", to_string(settings.kind)},
                                  {"samples_per_chain", arguments.samples},
                                  {"chains", arguments.chains},
                                  {"start", "visible units uniform at random"},
                                  {"order", "row t*chains + c is chain c's t-th sample"}};
  if (!is_zero_temperature(settings.kind)) {
    configuration["operator"] = to_string(settings.rule);
    configuration["k"] = settings.sweeps_per_sample;
  } else {
    configuration["fixed_point_cap"] = settings.fixed_point_cap;
  }
  if (has_fast_parameters(settings.kind)) {
    configuration["fast_lr"] = settings.fast_learning_rate;
    configuration["fast_decay"] = settings.fast_decay;
    configuration["fast_parameters"] = "one θ_F per chain";
  }
  if (needs_rates(settings.kind)) configuration["rates_data"] = arguments.rates_data;
  if (shape) configuration["image_shape"] = {shape->first, shape->second};
  nlohmann::json record = make_run_record("sample", configuration, arguments.seed);
  if (shape && pictured > 0) record["samples_png"] = picture_caption;
  record["seconds"] = seconds;
  record["samples_per_second"] = static_cast<double>(samples.binary.rows()) / seconds;
  record["mean_of_samples"] = samples.binary.cast<double>().mean();
  if (is_zero_temperature(settings.kind)) {
    const FixedPointStatistics fixed_points = process.fixed_points();
    record["fixed_point_searches"] = fixed_points.searches;
    record["fixed_point_cap_hits"] = fixed_points.cap_hits;
    record["fixed_point_mean_iterations"] =
        static_cast<double>(fixed_points.iterations) / static_cast<double>(fixed_points.searches);
    if (fixed_points.cap_hits > 0)
      std::cerr << "rbmix: warning: " << fixed_points.cap_hits << " of " << fixed_points.searches
                << " fixed-point searches stopped at the cap of " << settings.fixed_point_cap << " iterations\n";
  }
  std::vector<std::string> files{"samples.npy", "grey.npy"};
  if (shape && pictured > 0) files.emplace_back("samples.png");
  write_run_record(out, record, files);
  std::cout << to_string(settings.kind) << ": " << samples.binary.rows() << " samples (" << arguments.chains
            << " chain(s) × " << arguments.samples << ") in " << seconds << " s\n"
            << "wrote " << arguments.out << "/samples.npy, grey.npy" << (shape && pictured > 0 ? ", samples.png" : "")
            << ", run.json\n";
}

// `steps` ladder steps of `ladders` ladders in Scalar, each step's top rung into its rows of `samples`.
template <typename Scalar>
LadderStatistics draw_from_ladder(const BuiltLadder& ladder, const LadderOptions& options, Eigen::Index ladders,
                                  Eigen::Index steps, std::uint64_t seed, const ProgressFlags& progress_flags,
                                  BinaryMatrix& samples) {
  LadderChains<Scalar> chains(ladder.rungs, ladders, options, seed);
  ProgressReporter progress("sample", "ladder step", steps, progress_flags.mode());
  for (Eigen::Index step = 0; step < steps; ++step) {
    chains.step();
    samples.middleRows(step * ladders, ladders) = chains.top_visible().template cast<std::uint8_t>();
    progress.update(step + 1);
  }
  progress.finish();
  return chains.statistics();
}

// Parallel tempering along a path of models: --chains ladders, one sample per ladder and ladder step from the top rung.
void run_ladder_sample(const SampleArguments& arguments, const LadderArguments& ladder_arguments,
                       const GivenOptions& given) {
  refuse_unused(given.rates_data || given.fast_learning_rate || given.fast_decay || given.fixed_point_cap,
                "--rates-data, --fast-lr, --fast-decay and --fixed-point-cap", "a ladder",
                "tempering moves every rung by --operator");
  refuse_unused(given.sweeps, "--k", "a ladder", "a sample is one ladder step; --swap-interval sets its sweeps");
  const UnitRule rule = parse_unit_rule(arguments.rule);
  const BuiltLadder ladder =
      build_ladder(ladder_arguments, arguments.model, rule, arguments.seed, arguments.single_precision, true);
  const auto shape = image_shape(arguments.image_shape, ladder.n_visible);
  const OutputDirectoryLock lock(arguments.out);
  const std::filesystem::path& out = lock.directory();

  const LadderOptions options{rule, ladder_arguments.swap_interval};
  const auto start = std::chrono::steady_clock::now();
  BinaryMatrix samples(arguments.samples * arguments.chains, ladder.n_visible);
  const LadderStatistics statistics =
      arguments.single_precision
          ? draw_from_ladder<float>(ladder, options, arguments.chains, arguments.samples, arguments.seed,
                                    arguments.progress, samples)
          : draw_from_ladder<double>(ladder, options, arguments.chains, arguments.samples, arguments.seed,
                                     arguments.progress, samples);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  save_binary_matrix(out / "samples.npy", samples);
  write_ladder_csv(out / "ladder.csv", ladder, statistics);
  std::vector<std::string> files{"samples.npy", "ladder.csv"};
  const Eigen::Index pictured = std::min(arguments.picture_samples, samples.rows());
  const std::string picture_caption = "the first " + std::to_string(pictured) +
                                      " samples of the top rung in emission order, one per tile (binary states)";
  if (shape && pictured > 0) {
    write_png(out / "samples.png",
              tile_images(samples.topRows(pictured).cast<float>(), shape->first, shape->second,
                          {arguments.picture_columns}),
              {{"Description", picture_caption}, {"Source", ladder.source}});
    files.emplace_back("samples.png");
  }
  nlohmann::json configuration = {{"sampler", "tempering ladder"},
                                  {"operator", to_string(rule)},
                                  {"samples_per_chain", arguments.samples},
                                  {"chains", arguments.chains},
                                  {"start", "every rung's states zero; rung 0 drawn exactly at the first sweep"},
                                  {"order", "row t*chains + c is ladder c's top rung after its (t+1)-th step"},
                                  {"float", arguments.single_precision}};
  nlohmann::json record = make_run_record("sample", configuration, arguments.seed);
  record["ladder"] = ladder_record(ladder_arguments, ladder, statistics);
  record["seconds"] = seconds;
  if (shape && pictured > 0) record["samples_png"] = picture_caption;
  write_run_record(out, record, files);
  print_ladder_summary(std::cout, ladder, statistics);
  std::cout << "tempering ladder: " << samples.rows() << " samples (" << arguments.chains << " ladder(s) × "
            << arguments.samples << " steps) in " << seconds << " s\nwrote " << arguments.out
            << "/samples.npy, ladder.csv" << (shape && pictured > 0 ? ", samples.png" : "") << ", run.json\n";
}

// Particle independent Metropolis–Hastings along a path (docs/algorithms/tempering-along-trajectory.md §10.7):
// --chains chains, chain c drawing from RandomStream(seed, c, tempering); each starts at a proposal, takes --burn-in
// proposals unrecorded, then records its state after each of --samples more.
void run_path_metropolis_sample(const SampleArguments& arguments, const LadderArguments& ladder_arguments,
                                const GivenOptions& given) {
  refuse_unused(given.rates_data || given.fast_learning_rate || given.fast_decay || given.fixed_point_cap,
                "--rates-data, --fast-lr, --fast-decay and --fixed-point-cap", "particle Metropolis",
                "its proposals move their particles by --operator");
  refuse_unused(given.sweeps, "--k", "particle Metropolis",
                "a sample is one proposal; --smc-steps and --sweeps-per-step set its sweeps");
  PathMetropolisOptions options = arguments.proposals;
  options.rule = parse_unit_rule(arguments.rule);
  options.single_precision = arguments.single_precision;
  std::string source;
  const ModelPath path = ladder_path(ladder_arguments, arguments.model, source);
  const PathProposals proposals(path, options);
  const auto shape = image_shape(arguments.image_shape, path.n_visible());
  const OutputDirectoryLock lock(arguments.out);
  const std::filesystem::path& out = lock.directory();

  const auto start = std::chrono::steady_clock::now();
  BinaryMatrix samples(arguments.samples * arguments.chains, path.n_visible());
  ProgressReporter progress("sample", "proposal", (1 + arguments.burn_in + arguments.samples) * arguments.chains,
                            arguments.progress.mode());
  const PathMetropolisSampling run = sample_path_metropolis(
      proposals, arguments.chains, arguments.burn_in, arguments.samples, arguments.seed,
      [&](Eigen::Index sample, Eigen::Index chain, const VectorD& visible) {
        samples.row(sample * arguments.chains + chain) = visible.transpose().cast<std::uint8_t>();
      },
      [&](Eigen::Index done) { progress.update(done); });
  progress.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  save_binary_matrix(out / "samples.npy", samples);
  std::vector<std::string> files{"samples.npy"};
  const Eigen::Index pictured = std::min(arguments.picture_samples, samples.rows());
  const std::string picture_caption =
      "the first " + std::to_string(pictured) + " samples in emission order, one per tile (binary states)";
  if (shape && pictured > 0) {
    write_png(out / "samples.png",
              tile_images(samples.topRows(pictured).cast<float>(), shape->first, shape->second,
                          {arguments.picture_columns}),
              {{"Description", picture_caption}, {"Source", source}});
    files.emplace_back("samples.png");
  }
  nlohmann::json configuration = {{"sampler", "particle independent Metropolis-Hastings"},
                                  {"operator", to_string(options.rule)},
                                  {"path", source},
                                  {"path_start", path_start(ladder_arguments)},
                                  {"samples_per_chain", arguments.samples},
                                  {"burn_in", arguments.burn_in},
                                  {"chains", arguments.chains},
                                  {"particles", options.particles},
                                  {"smc_steps", static_cast<Eigen::Index>(proposals.positions().size()) - 1},
                                  {"sweeps_per_step", options.sweeps_per_step},
                                  {"resampling_threshold", options.resampling_threshold},
                                  {"start", "each chain at a proposal of its own"},
                                  {"order", "row t*chains + c is chain c's state after its (burn_in + t + 1)-th "
                                            "proposal"},
                                  {"float", arguments.single_precision}};
  nlohmann::json record = make_run_record("sample", configuration, arguments.seed);
  record["accepted"] = run.accepted;
  record["proposals_after_start"] = run.proposals_after_start;
  record["proposal_log_partitions"] = run.proposal_log_partitions;
  // The mass check of rbmix convergence --particle-metropolis (docs/algorithms/tempering-along-trajectory.md §10.7) on
  // these chains' proposals: a burn-in certified by a bound whose run passed it is meaningful; if these proposals
  // fail it, the samples come from a small part of the model whatever the burn-in.
  const analysis::ProposalMassCheck mass = analysis::check_path_proposal_mass(
      path, run.proposal_log_partitions, analysis::PathMetropolisBoundOptions{}.allowed_mass_gap);
  record["mass_check"] = mass_check_record(mass);
  record["seconds"] = seconds;
  if (shape && pictured > 0) record["samples_png"] = picture_caption;
  write_run_record(out, record, files);
  std::cout << "particle Metropolis along " << source << ": " << samples.rows() << " samples (" << arguments.chains
            << " chain(s) × " << arguments.samples << " after " << arguments.burn_in << " proposals of burn-in); "
            << run.accepted << " of " << run.proposals_after_start << " proposals accepted, in " << seconds
            << " s\n";
  if (!mass.passed())
    std::cout << "warning: these samples are not the model's: " << mass.failure()
              << "; see docs/algorithms/tempering-along-trajectory.md §10.7\n";
  std::cout << "wrote " << arguments.out << "/samples.npy" << (shape && pictured > 0 ? ", samples.png" : "")
            << ", run.json\n";
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<SampleArguments>();
  auto ladder = std::make_shared<LadderArguments>();
  auto given = std::make_shared<GivenOptions>();
  CLI::App* command = parent.add_subcommand("sample", "Draw samples from a model with 001's samplers");
  command->add_option("--model", arguments->model, "model file (.npz)");
  auto* sampler = command->add_option("--sampler", arguments->sampler, "gibbs|rates-fpcd|rates-herding|herding|sp");
  auto* rule = command->add_option("--operator", arguments->rule, operator_help("unit rule of the stochastic samplers"))
                   ->capture_default_str();
  auto* rates =
      command->add_option("--rates-data", arguments->rates_data,
                          "binary training set (.npy) giving the rates R (rates-fpcd, rates-herding, herding)");
  command->add_option("--samples", arguments->samples, "samples per chain")
      ->capture_default_str()
      ->check(positive_count);
  auto* sweeps = command->add_option("--k", arguments->sweeps, "sweeps between samples (stochastic samplers)")
                     ->capture_default_str();
  auto* fast_lr = command->add_option("--fast-lr", arguments->fast_learning_rate, "fast step ε_F");
  auto* fast_decay =
      command->add_option("--fast-decay", arguments->fast_decay, "fast decay α in [0, 1]")->capture_default_str();
  auto* cap = command
                  ->add_option("--fixed-point-cap", arguments->fixed_point_cap,
                               "iteration cap of the herding samplers' fixed-point search")
                  ->capture_default_str();
  command->add_option("--chains", arguments->chains, "independent chains, each with its own fast parameters")
      ->capture_default_str()
      ->check(positive_count);
  command->add_option("--seed", arguments->seed, "random seed")->capture_default_str();
  command->add_option("--out", arguments->out, "output directory")->required();
  command->add_option("--image-shape", arguments->image_shape, "HxW of the picture (default: square when m is)");
  command->add_option("--picture-samples", arguments->picture_samples, "samples drawn in samples.png")
      ->capture_default_str()
      ->check(non_negative_count);
  command->add_option("--picture-columns", arguments->picture_columns, "tiles per row of samples.png")
      ->capture_default_str()
      ->check(positive_count);
  auto* single_precision = command->add_flag("--float", arguments->single_precision,
                                             "run a ladder's chains in float (--ptt, --temperature-ladder)");
  add_progress_options(*command, arguments->progress);
  add_ladder_options(*command, *ladder);
  add_particle_metropolis_options(*command, arguments->particle_metropolis, arguments->proposals,
                                  "a sample is the chain's state after one proposal");
  auto* burn_in = command
      ->add_option("--burn-in", arguments->burn_in,
                   "with --particle-metropolis: proposals before the first sample (rbmix convergence "
                   "--particle-metropolis bounds how many are needed)")
      ->capture_default_str();
  sampler->excludes(ladder->ptt_option)->excludes(ladder->temperature_option);
  command->callback([=] {
    *given = {rule->count() > 0,    rates->count() > 0,      sweeps->count() > 0,
              fast_lr->count() > 0, fast_decay->count() > 0, cap->count() > 0, single_precision->count() > 0};
    if (arguments->particle_metropolis) {
      require(ladder->given(), "--particle-metropolis needs a path: --ptt TRAJECTORY or --temperature-ladder");
      return run_path_metropolis_sample(*arguments, *ladder, *given);
    }
    require(burn_in->count() == 0, "--burn-in is for --particle-metropolis; the other samplers record from the "
                                   "start (a ladder from its first step)");
    if (ladder->given()) return run_ladder_sample(*arguments, *ladder, *given);
    require(!arguments->model.empty(), "--model is required (or --ptt TRAJECTORY)");
    require(!arguments->sampler.empty(), "--sampler is required (or --ptt / --temperature-ladder)");
    run_sample(*arguments, *given);
  });
}

}  // namespace
}  // namespace rbmix::cli::sample_command

RBMIX_REGISTER_COMMAND("", rbmix::cli::sample_command::attach)
