#include "rbmix/analysis/sweep_operator.hpp"

#include <algorithm>

namespace rbmix::analysis {
namespace {
// Below 2^16 states an application takes well under a millisecond on one core: threads would cost more than
// they save.
constexpr std::uint64_t kParallelStates = std::uint64_t{1} << 16;
}  // namespace

SweepOperator::SweepOperator(const JointStateSpace& space, UnitTransitionTable hidden, UnitTransitionTable visible)
    : space_(space), hidden_(std::move(hidden)), visible_(std::move(visible)) {
  require(hidden_.units() == space.n_hidden() &&
              hidden_.from_zero.rows() == static_cast<Eigen::Index>(space.visible_states()),
          "sweep operator: the hidden table does not fit the state space");
  require(visible_.units() == space.n_visible() &&
              visible_.from_zero.rows() == static_cast<Eigen::Index>(space.hidden_states()),
          "sweep operator: the visible table does not fit the state space");
}

namespace {

// One unit's 2×2 transition on the pair of values (a, b) of the states with the unit at 0 and at 1, given
// P(0 → 1) = up and P(1 → 1) = stay. (A template parameter, so the inner loops carry no branch.)
template <bool adjoint>
inline void mix_pair(double up, double stay, double& a, double& b) {
  const double value0 = a;
  const double value1 = b;
  if constexpr (adjoint) {  // one step of a distribution: mass flows along each transition
    a = (1.0 - up) * value0 + (1.0 - stay) * value1;
    b = up * value0 + stay * value1;
  } else {  // expectation of the function after the step
    a = (1.0 - up) * value0 + up * value1;
    b = (1.0 - stay) * value0 + stay * value1;
  }
}

// The visible layer: given h, the 2^n values of the states (·, h) are contiguous (x = v + 2^n·h) and every unit's
// probabilities are constants, so unit i mixes pairs 2^i apart inside that block.
template <bool adjoint>
void mix_visible_layer(const UnitTransitionTable& table, std::uint64_t visible_states, std::uint64_t hidden_state,
                       double* block) {
  const auto row = static_cast<Eigen::Index>(hidden_state);
  for (int unit = 0; unit < table.units(); ++unit) {
    const double up = table.from_zero(row, unit);
    const double stay = table.from_one(row, unit);
    const std::uint64_t stride = std::uint64_t{1} << unit;
    for (std::uint64_t base = 0; base < visible_states; base += 2 * stride)
      for (std::uint64_t k = base; k < base + stride; ++k) mix_pair<adjoint>(up, stay, block[k], block[k + stride]);
  }
}

// The tables are row-major (a row per visible state), so the hidden layer's pass first copies its table
// column-major: a unit's probabilities for a run of visible states are then contiguous.
using ColumnMajorTable = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;

// The hidden layer on the visible states [first, last): unit j mixes the rows h and h + 2^j (each a run of
// visible states), with probabilities that vary along the run: a column of the table.
template <bool adjoint>
void mix_hidden_layer(const ColumnMajorTable& from_zero, const ColumnMajorTable& from_one,
                      std::uint64_t visible_states, std::uint64_t hidden_states, std::uint64_t first,
                      std::uint64_t last, double* values) {
  for (Eigen::Index unit = 0; unit < from_zero.cols(); ++unit) {
    const double* up = from_zero.col(unit).data();
    const double* stay = from_one.col(unit).data();
    const std::uint64_t stride = std::uint64_t{1} << unit;
    for (std::uint64_t base = 0; base < hidden_states; base += 2 * stride)
      for (std::uint64_t hidden = base; hidden < base + stride; ++hidden) {
        double* row0 = values + hidden * visible_states;
        double* row1 = values + (hidden + stride) * visible_states;
        for (std::uint64_t v = first; v < last; ++v) mix_pair<adjoint>(up[v], stay[v], row0[v], row1[v]);
      }
  }
}

// Visible states per tile of the hidden layer's pass: a tile of every hidden row stays in a core's L2 cache
// (about 512 KiB) through all the layer's units, so the pass reads the vector from memory once, not once per unit.
std::uint64_t hidden_tile_width(std::uint64_t visible_states, std::uint64_t hidden_states) {
  constexpr std::uint64_t kTileBytes = std::uint64_t{1} << 19;
  const std::uint64_t width = std::max<std::uint64_t>(8, kTileBytes / (hidden_states * sizeof(double)));
  return std::min(width, visible_states);
}

}  // namespace

void SweepOperator::apply_layer(Layer layer, bool adjoint, double* values) const {
  // Given the other layer's state, the layer operator is a Kronecker product of the units' 2×2 transitions, whose
  // probabilities are constant for that state: the units commute, and disjoint ranges of the other layer need no
  // synchronisation. Each loop runs over contiguous memory (the compiler vectorises the inner runs). Within a layer
  // the units act in index order, as the sequential update does.
  const std::uint64_t visible_states = space_.visible_states();
  const std::uint64_t hidden_states = space_.hidden_states();
  const bool parallel = space_.size() >= kParallelStates;
  if (layer == Layer::visible) {
#pragma omp parallel for schedule(static) if (parallel)
    for (std::uint64_t hidden = 0; hidden < hidden_states; ++hidden) {
      double* block = values + hidden * visible_states;
      if (adjoint)
        mix_visible_layer<true>(visible_, visible_states, hidden, block);
      else
        mix_visible_layer<false>(visible_, visible_states, hidden, block);
    }
    return;
  }
  const ColumnMajorTable from_zero = hidden_.from_zero;
  const ColumnMajorTable from_one = hidden_.from_one;
  const std::uint64_t width = hidden_tile_width(visible_states, hidden_states);
  const std::uint64_t tiles = (visible_states + width - 1) / width;
#pragma omp parallel for schedule(static) if (parallel)
  for (std::uint64_t tile = 0; tile < tiles; ++tile) {
    const std::uint64_t first = tile * width;
    const std::uint64_t last = std::min(visible_states, first + width);
    if (adjoint)
      mix_hidden_layer<true>(from_zero, from_one, visible_states, hidden_states, first, last, values);
    else
      mix_hidden_layer<false>(from_zero, from_one, visible_states, hidden_states, first, last, values);
  }
}

void SweepOperator::perform_op(const double* x, double* y) const {
  std::copy(x, x + rows(), y);
  apply_layer(Layer::visible, false, y);
  apply_layer(Layer::hidden, false, y);
}

void SweepOperator::perform_adjoint_op(const double* x, double* y) const {
  std::copy(x, x + rows(), y);
  apply_layer(Layer::hidden, true, y);
  apply_layer(Layer::visible, true, y);
}

VectorD SweepOperator::diagonal() const {
  VectorD diagonal(rows());
#pragma omp parallel for schedule(static) if (space_.size() >= kParallelStates)
  for (Eigen::Index x = 0; x < rows(); ++x) {
    const std::uint64_t v = space_.visible_part(static_cast<std::uint64_t>(x));
    const std::uint64_t h = space_.hidden_part(static_cast<std::uint64_t>(x));
    diagonal[x] = hidden_.layer_probability(v, h, h) * visible_.layer_probability(h, v, v);
  }
  return diagonal;
}

}  // namespace rbmix::analysis
