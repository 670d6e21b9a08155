#pragma once
// The sampling processes of 001 (docs/algorithms/estimation.md §4) over a trained RBM θ, all run by one loop:
//   repeat: θ⁻ = θ + θ_F; advance the chain under θ⁻; h⁻ = the hidden statistic of x⁻;
//           θ_F ← α θ_F + ε_F (R − s(x⁻, h⁻)); emit x⁻ (binary) and a grey-level version of it.
// The samplers differ only in how the chain advances, in R, and in whether θ_F exists at all:
//   gibbs          k sweeps of any unit rule under θ (no θ_F): the baseline.
//   rates-fpcd     k sweeps of any unit rule under θ⁻, h⁻ = E[h | x⁻; θ⁻], R = the rates (001 §4, Algorithm 1).
//   rates-herding  the zero-temperature map iterated to a fixed point under θ⁻ (zero_temperature_map.hpp), h⁻ the
//                  fixed point's binary h, as in herding's own statistics (Welling 2009), R = the rates.
//   herding        rates-herding with ε_F = 1 and α = 1 (Welling 2009).
//   sp             rates-fpcd with R = 0: sample penalization (001 §4). Needs α < 1: with α = 1 the penalties
//                  pile up on the units that were on, so the samples leave the model; on 0/1 units they collapse
//                  onto the all-off state, whose s is zero (001 §4 says they become uniform; they do not).
// Grey levels: E[x | h⁻; θ⁻] = σ(b⁻ + W⁻ᵀ h⁻) for the stochastic samplers; the herding samplers emit x⁻ itself,
// the zero-temperature limit of that expectation (001 §4: herding gives only discrete samples).
//
// Each chain has its own θ_F: 001 runs one chain whose fast parameters unlearn that chain's own samples, and C
// chains here are C independent copies of that process (a shared θ_F would couple the chains and change what ε_F
// means). Chain c is a one-chain BatchedChains on RandomStream(seed, first_stream + c), and the chains advance in
// parallel, so the numbers are the same whatever the thread count.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/model/rbm.hpp"
#include "rbmix/sampling/batched_chains.hpp"
#include "rbmix/sampling/rates.hpp"
#include "rbmix/sampling/unit_rule.hpp"
#include "rbmix/sampling/zero_temperature_map.hpp"

namespace rbmix {

enum class SamplerKind { gibbs, rates_fpcd, rates_herding, herding, sample_penalization };

// "gibbs", "rates-fpcd", "rates-herding", "herding", "sp"; anything else is an InputError naming the text.
SamplerKind parse_sampler_kind(std::string_view text);
std::string to_string(SamplerKind kind);
bool has_fast_parameters(SamplerKind kind);  // all but gibbs
bool needs_rates(SamplerKind kind);          // rates-fpcd, rates-herding, herding
bool is_zero_temperature(SamplerKind kind);  // rates-herding, herding

struct SamplerSettings {
  SamplerKind kind = SamplerKind::gibbs;
  UnitRule rule = GibbsRule{};          // the stochastic samplers' unit rule
  Eigen::Index sweeps_per_sample = 1;   // k, for the stochastic samplers
  double fast_learning_rate = 0.0;      // ε_F
  double fast_decay = 1.0;              // α
  Eigen::Index fixed_point_cap = 1000;  // the herding samplers' iteration cap per sample
};

// Herding's fixed step and decay.
inline constexpr double kHerdingLearningRate = 1.0;
inline constexpr double kHerdingDecay = 1.0;

// How validate's errors name the settings: a front-end passes its own spelling ("--fast-lr").
struct SamplerSettingNames {
  std::string sweeps_per_sample = "k (sweeps per sample)";
  std::string fast_learning_rate = "the fast learning rate ε_F";
  std::string fast_decay = "the fast decay α";
  std::string fixed_point_cap = "the fixed-point iteration cap";
};

// Throws InputError unless k ≥ 1, ε_F is finite and ≥ 0, 0 ≤ α ≤ 1, the cap is ≥ 1, gibbs has ε_F = 0, and
// herding has ε_F = 1 and α = 1. SP with α = 1 is allowed (its collapse is a documented property, not an error).
void validate(const SamplerSettings& settings, const SamplerSettingNames& names = {});

// Samples in emission order: row t·C + c is chain c's t-th sample. `grey` is p(v = 1 | h) at h = E[h | x⁻] for
// the stochastic samplers, and the binary sample itself for the zero-temperature ones (grey_sample_meaning).
struct EmittedSamples {
  BinaryMatrix binary;
  MatrixF grey;
};

// What a sampler's grey samples are, in words for a picture's caption.
std::string grey_sample_meaning(SamplerKind kind);

// How the herding samplers' fixed-point searches went, summed over chains.
struct FixedPointStatistics {
  Eigen::Index searches = 0;
  Eigen::Index cap_hits = 0;  // searches stopped by the cap before a fixed point
  Eigen::Index iterations = 0;
};

class SamplingProcess {
 public:
  // `rates` must be given exactly when needs_rates(settings.kind), with the model's shapes.
  SamplingProcess(const Rbm& rbm, const SamplerSettings& settings, std::optional<SufficientStatistics> rates,
                  Eigen::Index chains, std::uint64_t seed, std::uint64_t first_stream = 0);

  Eigen::Index chains() const { return static_cast<Eigen::Index>(chains_.size()); }
  const SamplerSettings& settings() const { return settings_; }

  // Starts the chains at these visible states (chains × m, 0/1). Without it each chain starts with its visible
  // units uniform at random, drawn from its own stream when it first advances.
  void set_visible(const BinaryMatrix& starts);

  // Advances every chain to its next sample and writes the samples into rows first_row … first_row + C − 1.
  void emit_into(EmittedSamples& out, Eigen::Index first_row);
  // `samples_per_chain` samples of every chain, in emission order.
  EmittedSamples run(Eigen::Index samples_per_chain);

  FixedPointStatistics fixed_points() const;
  // θ_F and θ⁻ of one chain (θ itself for gibbs, which has no θ_F).
  const SufficientStatistics& fast_parameters(Eigen::Index chain) const;
  const Rbm& sampling_parameters(Eigen::Index chain) const;

 private:
  struct Chain {
    BatchedChains<double> state;
    Rbm sampling;               // θ⁻ (unused by gibbs)
    SufficientStatistics fast;  // θ_F (unused by gibbs)
    bool started = false;
    FixedPointStatistics fixed_points;
  };

  void advance(Chain& chain, Eigen::Index row, EmittedSamples& out);

  Rbm rbm_;
  SamplerSettings settings_;
  SufficientStatistics rates_;  // R (zero for SP)
  std::vector<Chain> chains_;
};

}  // namespace rbmix
