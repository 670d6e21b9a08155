#include "rbmix/sampling/sampling_process.hpp"

#include <cmath>

#include "rbmix/core/error.hpp"
#include "rbmix/core/thread_count_tuner.hpp"

namespace rbmix {
namespace {

// Multiply-adds per emitted sample over all chains below which the chains advance on one thread (about 100 µs).
constexpr Eigen::Index kParallelWork = Eigen::Index{1} << 18;

struct SamplerName {
  SamplerKind kind;
  std::string_view name;
};
constexpr SamplerName kSamplerNames[] = {{SamplerKind::gibbs, "gibbs"},
                                         {SamplerKind::rates_fpcd, "rates-fpcd"},
                                         {SamplerKind::rates_herding, "rates-herding"},
                                         {SamplerKind::herding, "herding"},
                                         {SamplerKind::sample_penalization, "sp"}};

void require_shapes(const SufficientStatistics& statistics, const Rbm& rbm, const std::string& what) {
  require(statistics.weights.rows() == rbm.n_hidden() && statistics.weights.cols() == rbm.n_visible() &&
              statistics.visible.size() == rbm.n_visible() && statistics.hidden.size() == rbm.n_hidden(),
          what + ": shapes do not match the model's " + std::to_string(rbm.n_visible()) + " visible and " +
              std::to_string(rbm.n_hidden()) + " hidden units");
  require(statistics.weights.allFinite() && statistics.visible.allFinite() && statistics.hidden.allFinite(),
          what + ": contains NaN or Inf");
}

}  // namespace

SamplerKind parse_sampler_kind(std::string_view text) {
  for (const auto& [kind, name] : kSamplerNames)
    if (text == name) return kind;
  throw InputError("unknown sampler '" + std::string(text) +
                   "' (expected gibbs, rates-fpcd, rates-herding, herding or sp)");
}

std::string to_string(SamplerKind kind) {
  for (const auto& [known, name] : kSamplerNames)
    if (known == kind) return std::string(name);
  return "unknown";
}

bool has_fast_parameters(SamplerKind kind) { return kind != SamplerKind::gibbs; }
bool needs_rates(SamplerKind kind) {
  return kind == SamplerKind::rates_fpcd || kind == SamplerKind::rates_herding || kind == SamplerKind::herding;
}
std::string grey_sample_meaning(SamplerKind kind) {
  return is_zero_temperature(kind) ? "binary samples x (zero-temperature fixed points)"
                                   : "p(v = 1 | h) at h = E[h | x] of each binary sample x (white = 1)";
}

bool is_zero_temperature(SamplerKind kind) {
  return kind == SamplerKind::rates_herding || kind == SamplerKind::herding;
}

void validate(const SamplerSettings& settings, const SamplerSettingNames& names) {
  const std::string sampler = "sampler " + to_string(settings.kind) + ": ";
  require(settings.sweeps_per_sample >= 1, sampler + names.sweeps_per_sample + " must be at least 1, got " +
                                               std::to_string(settings.sweeps_per_sample));
  require(std::isfinite(settings.fast_learning_rate) && settings.fast_learning_rate >= 0.0,
          sampler + names.fast_learning_rate + " must be finite and ≥ 0, got " +
              std::to_string(settings.fast_learning_rate));
  require(settings.fast_decay >= 0.0 && settings.fast_decay <= 1.0,
          sampler + names.fast_decay + " must lie in [0, 1], got " + std::to_string(settings.fast_decay));
  require(settings.fixed_point_cap >= 1, sampler + names.fixed_point_cap + " must be at least 1, got " +
                                             std::to_string(settings.fixed_point_cap));
  if (settings.kind == SamplerKind::gibbs)
    require(settings.fast_learning_rate == 0.0,
            sampler + "gibbs has no fast parameters (" + names.fast_learning_rate + " must be 0)");
  if (settings.kind == SamplerKind::herding)
    require(settings.fast_learning_rate == kHerdingLearningRate && settings.fast_decay == kHerdingDecay,
            sampler + "herding is rates-herding with ε_F = 1 and α = 1");
}

SamplingProcess::SamplingProcess(const Rbm& rbm, const SamplerSettings& settings,
                                 std::optional<SufficientStatistics> rates, Eigen::Index chains, std::uint64_t seed,
                                 std::uint64_t first_stream)
    : rbm_(rbm), settings_(settings), rates_(SufficientStatistics::zero(rbm.n_visible(), rbm.n_hidden())) {
  rbm_.validate("sampling process: model");
  validate(settings_);
  require(chains >= 1, "sampling process: the number of chains must be at least 1");
  if (needs_rates(settings_.kind)) {
    require(rates.has_value(), "sampler " + to_string(settings_.kind) + " needs the rates R");
    require_shapes(*rates, rbm_, "sampling process: rates");
    rates_ = std::move(*rates);
  } else {
    require(!rates.has_value(), "sampler " + to_string(settings_.kind) + " takes no rates (" +
                                    (settings_.kind == SamplerKind::sample_penalization ? "SP uses R = 0" : "no θ_F") +
                                    ")");
  }
  chains_.reserve(static_cast<std::size_t>(chains));
  const bool fast = has_fast_parameters(settings_.kind);  // gibbs keeps no θ⁻ or θ_F per chain
  for (Eigen::Index chain = 0; chain < chains; ++chain)
    chains_.push_back(
        Chain{BatchedChains<double>(1, rbm_.n_visible(), rbm_.n_hidden(), seed,
                                    first_stream + static_cast<std::uint64_t>(chain)),
              fast ? rbm_ : Rbm(),
              fast ? SufficientStatistics::zero(rbm_.n_visible(), rbm_.n_hidden()) : SufficientStatistics{},
              false,
              {}});
}

void SamplingProcess::set_visible(const BinaryMatrix& starts) {
  require(starts.rows() == chains() && starts.cols() == rbm_.n_visible(),
          "sampling process: the start states must be " + std::to_string(chains()) + "×" +
              std::to_string(rbm_.n_visible()) + " (chains × visible units)");
  require((starts.array() <= 1).all(), "sampling process: the start states must be binary (0 or 1)");
  for (Eigen::Index chain = 0; chain < chains(); ++chain) {
    Chain& state = chains_[static_cast<std::size_t>(chain)];
    state.state.set_visible(starts.row(chain));
    state.started = true;
  }
}

void SamplingProcess::advance(Chain& chain, Eigen::Index row, EmittedSamples& out) {
  const bool fast = has_fast_parameters(settings_.kind);
  const Rbm& parameters = fast ? chain.sampling : rbm_;  // θ⁻ = θ + θ_F, or θ for gibbs
  BatchedChains<double>& state = chain.state;
  if (!chain.started) {
    RandomStream& stream = state.streams()[0];
    for (Eigen::Index unit = 0; unit < rbm_.n_visible(); ++unit)
      state.visible()(0, unit) = stream.uniform() < 0.5 ? 1.0 : 0.0;
    chain.started = true;
  }

  RowVector<double> hidden_statistic;  // h⁻
  if (is_zero_temperature(settings_.kind)) {
    const FixedPointSearch search =
        descend_to_fixed_point(parameters, state.visible().row(0), state.hidden().row(0), settings_.fixed_point_cap);
    ++chain.fixed_points.searches;
    chain.fixed_points.iterations += search.iterations;
    if (!search.reached) ++chain.fixed_points.cap_hits;
    hidden_statistic = state.hidden().row(0);
    out.grey.row(row) = state.visible().row(0).cast<float>();
  } else {
    for (Eigen::Index sweep = 0; sweep < settings_.sweeps_per_sample; ++sweep) state.sweep(parameters, settings_.rule);
    hidden_statistic = parameters.hidden_probabilities(state.visible()).row(0);
    out.grey.row(row) = parameters.visible_probabilities(hidden_statistic).row(0).cast<float>();
  }
  const auto visible = state.visible().row(0);
  out.binary.row(row) = visible.cast<std::uint8_t>();

  if (!fast) return;
  // θ_F ← α θ_F + ε_F (R − s(x⁻, h⁻)) and θ⁻ = θ + θ_F, fused row by row so that each entry is read once.
  const double alpha = settings_.fast_decay;
  const double epsilon = settings_.fast_learning_rate;
  SufficientStatistics& theta_f = chain.fast;
  for (Eigen::Index i = 0; i < rbm_.n_hidden(); ++i) {
    theta_f.weights.row(i) =
        alpha * theta_f.weights.row(i) + epsilon * (rates_.weights.row(i) - hidden_statistic[i] * visible);
    chain.sampling.weights.row(i) = rbm_.weights.row(i) + theta_f.weights.row(i);
  }
  theta_f.visible = alpha * theta_f.visible + epsilon * (rates_.visible - visible.transpose());
  theta_f.hidden = alpha * theta_f.hidden + epsilon * (rates_.hidden - hidden_statistic.transpose());
  chain.sampling.visible_bias = rbm_.visible_bias + theta_f.visible;
  chain.sampling.hidden_bias = rbm_.hidden_bias + theta_f.hidden;
}

void SamplingProcess::emit_into(EmittedSamples& out, Eigen::Index first_row) {
  require(out.binary.cols() == rbm_.n_visible() && out.grey.cols() == rbm_.n_visible() &&
              out.binary.rows() == out.grey.rows() && first_row >= 0 && first_row + chains() <= out.binary.rows(),
          "sampling process: the output has no room for the next samples");
  // Chains are independent and each draws only from its own stream: any schedule gives the same numbers. Small
  // work runs on one thread, where starting a thread team per sample would cost more than the sample.
  const Eigen::Index steps = is_zero_temperature(settings_.kind) ? 2 : settings_.sweeps_per_sample + 1;
  const Eigen::Index work = chains() * steps * rbm_.n_visible() * rbm_.n_hidden();
#pragma omp parallel for schedule(dynamic) if (work >= kParallelWork)
  for (Eigen::Index chain = 0; chain < chains(); ++chain)
    advance(chains_[static_cast<std::size_t>(chain)], first_row + chain, out);
}

EmittedSamples SamplingProcess::run(Eigen::Index samples_per_chain) {
  require(samples_per_chain >= 1, "sampling process: the number of samples per chain must be at least 1");
  EmittedSamples out{BinaryMatrix(samples_per_chain * chains(), rbm_.n_visible()),
                     MatrixF(samples_per_chain * chains(), rbm_.n_visible())};
  // Each sample runs on the team that a ThreadCountTuner picks by timing the samples, as training's updates do
  // (thread_count_tuner.hpp); the chains' numbers do not depend on the team.
  ThreadCountTuner tuner;
  for (Eigen::Index sample = 0; sample < samples_per_chain; ++sample)
    tuner.run([&] { emit_into(out, sample * chains()); });
  return out;
}

FixedPointStatistics SamplingProcess::fixed_points() const {
  FixedPointStatistics total;
  for (const Chain& chain : chains_) {
    total.searches += chain.fixed_points.searches;
    total.cap_hits += chain.fixed_points.cap_hits;
    total.iterations += chain.fixed_points.iterations;
  }
  return total;
}

const SufficientStatistics& SamplingProcess::fast_parameters(Eigen::Index chain) const {
  require(has_fast_parameters(settings_.kind), "sampler gibbs has no fast parameters");
  require(chain >= 0 && chain < chains(), "sampling process: no chain " + std::to_string(chain));
  return chains_[static_cast<std::size_t>(chain)].fast;
}

const Rbm& SamplingProcess::sampling_parameters(Eigen::Index chain) const {
  require(chain >= 0 && chain < chains(), "sampling process: no chain " + std::to_string(chain));
  return has_fast_parameters(settings_.kind) ? chains_[static_cast<std::size_t>(chain)].sampling : rbm_;
}

}  // namespace rbmix
