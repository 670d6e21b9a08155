#pragma once
// Parallel tempering along a path of models (docs/algorithms/tempering-along-trajectory.md): rungs θ_0 … θ_K on a
// ModelPath (model_path.hpp), one replica per rung and ladder, R ladders side by side. θ_0 has no couplings and is
// drawn exactly by one Gibbs sweep; every other rung moves by the chosen unit rule (G, T, T^α, …). The visible states
// of neighbouring rungs k, k + 1 are exchanged with probability
//   min(1, exp(F_k(x) + F_{k+1}(y) − F_k(y) − F_{k+1}(x))),   x at rung k, y at rung k + 1,
// F the free energy (Béreux et al. 2025, §3; docs/algorithms/tempering-along-trajectory.md §10.2), the Metropolis ratio
// of the exchange for the visible marginals p_k(v) ∝ e^{−F_k(v)}. For Gibbs the hidden layer is redrawn from
// p_k(h | v) by the next sweep, so the visible states are the whole state; for a rule whose hidden update depends on
// the current hidden state (T, T^α, …) an exchanged replica's hidden layer is redrawn exactly from p_k(h | v) at
// once, which keeps the joint p_k(v, h) invariant.
//
// One ladder step is homogeneous in time (what an L-lag coupling needs): `swap_interval` sweeps of every rung, an
// exchange on every even link (0–1, 2–3, …), `swap_interval` sweeps, an exchange on every odd link (deterministic
// even–odd, which moves replicas along the ladder in O(K) steps rather than O(K²); Syed et al. 2022).
// Rung k of ladder r draws from RandomStream(seed, k·R + r); the exchanges of ladder r from RandomStream(seed, r,
// tempering): the numbers depend on the seed only, never on the thread count.
// All ladders of a rung share one product per layer; an exchange needs each rung's hidden inputs of its own and its
// partner's visible states, and the next sweep's hidden update takes them as they are, so an exchange phase costs
// one product per rung on top of the sweeps.
#include <cstdint>
#include <vector>

#include "rbmix/sampling/batched_chains.hpp"
#include "rbmix/sampling/model_path.hpp"
#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix {

// log of the exchange's Metropolis ratio from the four free energies: x at the lower rung k, y at the upper rung.
inline double exchange_log_ratio(double lower_of_x, double upper_of_y, double lower_of_y, double upper_of_x) {
  return lower_of_x + upper_of_y - lower_of_y - upper_of_x;
}

// The hidden inputs an exchange on one link computes: each rung's of its own and of its partner's visible states.
// Each rung forms them in one product of the stacked states [x; y] (2R rows) rather than two of R rows: the product
// reads the rung's weights once for both, which at a few dozen rows is most of its cost (§10.3's measurement).
template <typename Scalar>
struct ExchangeInputs {
  Matrix<Scalar> own_lower, cross_lower, own_upper, cross_upper;
  Matrix<Scalar> stacked_visible, stacked_lower, stacked_upper;  // workspaces: [x; y] and its inputs at each rung
};

// log ratios of exchanging row r of `lower_visible` (at the rung of model `lower`) with row r of `upper_visible`, for
// every row; `inputs` keeps the hidden inputs (the next sweep's, own or cross as the exchange decides).
template <typename Scalar>
VectorD exchange_log_ratios(const BasicRbm<Scalar>& lower, const BasicRbm<Scalar>& upper,
                            const Matrix<Scalar>& lower_visible, const Matrix<Scalar>& upper_visible,
                            ExchangeInputs<Scalar>& inputs);

// Draws row `row` of `hidden` exactly from p(h | v) = σ(inputs) with `stream`: the hidden layer of an exchanged
// replica, for a rule whose hidden update depends on the current hidden state.
template <typename Scalar>
void redraw_hidden_row(const Matrix<Scalar>& inputs, Eigen::Index row, Matrix<Scalar>& hidden, RandomStream& stream);

// Whether `rule` needs redraw_hidden_row after an exchange (every rule but Gibbs).
bool exchange_redraws_hidden(const UnitRule& rule);

struct LadderOptions {
  UnitRule rule = GibbsRule{};     // inside every rung but the first
  Eigen::Index swap_interval = 1;  // sweeps before each exchange phase
  // Throws InputError naming the option unless swap_interval ≥ 1.
  void validate() const;
};

// What a ladder run did: exchanges attempted and accepted per link k (rungs k, k + 1), and round trips: a replica
// (its label, which travels with its state) that went from rung 0 to the top rung and back to rung 0 completes one.
struct LadderStatistics {
  std::vector<std::int64_t> attempted;
  std::vector<std::int64_t> accepted;
  std::int64_t round_trips = 0;
  std::int64_t steps = 0;

  // accepted / attempted per link; NaN for a link never attempted.
  VectorD acceptance() const;
  // The links whose exchanges were attempted and never accepted: they split the ladder.
  std::vector<Eigen::Index> closed_links() const;
};

// R independent ladders on the rungs `rungs` (rungs[0] without couplings).
template <typename Scalar>
class LadderChains {
 public:
  LadderChains(const std::vector<Rbm>& rungs, Eigen::Index ladders, LadderOptions options, std::uint64_t seed);

  Eigen::Index rungs() const { return static_cast<Eigen::Index>(models_.size()); }
  Eigen::Index ladders() const { return ladders_; }
  BatchedChains<Scalar>& rung(Eigen::Index k) { return chains_[static_cast<std::size_t>(k)]; }
  const BatchedChains<Scalar>& rung(Eigen::Index k) const { return chains_[static_cast<std::size_t>(k)]; }
  const Matrix<Scalar>& top_visible() const { return chains_.back().visible(); }
  const LadderStatistics& statistics() const { return statistics_; }
  // The replica label at rung k of ladder r (labels start as k).
  std::int32_t label(Eigen::Index k, Eigen::Index r) const {
    return labels_[static_cast<std::size_t>(k)][static_cast<std::size_t>(r)];
  }

  void step();
  // Counts the work of one step in layer products of R rows, for the cost report: sweeps and exchanges.
  static double products_per_step(Eigen::Index rungs, Eigen::Index swap_interval);

 private:
  void sweep_every_rung();
  void exchange(int parity);
  void track_round_trips();

  std::vector<BasicRbm<Scalar>> models_;
  Eigen::Index ladders_;
  LadderOptions options_;
  std::vector<BatchedChains<Scalar>> chains_;
  std::vector<RandomStream> exchange_streams_;
  // The hidden inputs each rung's next sweep takes as they are (left by an exchange), and whether they are current.
  std::vector<Matrix<Scalar>> next_hidden_inputs_;
  std::vector<char> next_hidden_inputs_current_;
  ExchangeInputs<Scalar> inputs_;
  std::vector<std::vector<std::int32_t>> labels_;
  std::vector<std::int8_t> heading_;  // per label: +1 on its way up from rung 0, −1 down from the top, 0 neither
  LadderStatistics statistics_;
};

extern template class LadderChains<float>;
extern template class LadderChains<double>;

// Where the rungs go: `candidates` positions spread evenly over each segment of the path; `chains` chains anneal
// along them from an exact draw of θ_0, `sweeps_per_candidate` sweeps at each, and their states at each candidate
// estimate the exchange acceptance between any two candidates (chain r at one with chain r + 1 at the other, so the
// two states are independent). From rung 0 the next rung is the farthest candidate whose estimated acceptance is at
// least `target_acceptance` (the next candidate when none is); the last candidate, the path's end, is the top rung.
struct LadderPlacementOptions {
  double target_acceptance = 0.3;  // fastrbm's choice (Béreux et al. 2025)
  Eigen::Index candidates = 400;
  Eigen::Index chains = 64;
  Eigen::Index sweeps_per_candidate = 10;
  UnitRule rule = GibbsRule{};
  std::uint64_t seed = 1;
  bool single_precision = false;
  // Throws InputError naming the option: target in (0, 1), candidates ≥ the path's segments, chains ≥ 2, sweeps ≥ 1.
  void validate(const ModelPath& path) const;
};

struct PlacedLadder {
  std::vector<double> positions;  // increasing, 0 first and the path's end last
  VectorD estimated_acceptance;   // per link, by the annealed chains
};

PlacedLadder place_rungs(const ModelPath& path, const LadderPlacementOptions& options);

// The rung models at `positions` on `path`.
std::vector<Rbm> ladder_rungs(const ModelPath& path, const std::vector<double>& positions);

}  // namespace rbmix
