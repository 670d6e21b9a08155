#include "rbmix/analysis/ergodicity.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <numeric>

#include "rbmix/analysis/sweep_operator.hpp"

namespace rbmix::analysis {
namespace {

constexpr std::uint32_t kUnvisited = std::numeric_limits<std::uint32_t>::max();

// Component id of every node (Tarjan's algorithm with an explicit stack of (node, successor cursor) frames).
std::vector<std::uint32_t> strongly_connected_components(const TransitionGraph& graph) {
  const std::uint64_t nodes = graph.node_count();
  require(nodes < kUnvisited, "ergodicity: the transition graph has too many nodes for 32-bit indices");
  std::vector<std::uint32_t> index(nodes, kUnvisited);
  std::vector<std::uint32_t> lowlink(nodes, 0);
  std::vector<std::uint32_t> component(nodes, kUnvisited);
  std::vector<bool> on_stack(nodes, false);
  std::vector<std::uint32_t> stack;
  struct Frame {
    std::uint32_t node;
    std::uint64_t cursor;
  };
  std::vector<Frame> frames;
  std::uint32_t next_index = 0;
  std::uint32_t next_component = 0;

  const auto visit = [&](std::uint32_t node) {
    index[node] = lowlink[node] = next_index++;
    stack.push_back(node);
    on_stack[node] = true;
    frames.push_back({node, 0});
  };

  for (std::uint64_t root = 0; root < nodes; ++root) {
    if (index[root] != kUnvisited) continue;
    visit(static_cast<std::uint32_t>(root));
    while (!frames.empty()) {
      Frame& frame = frames.back();
      std::uint64_t successor = 0;
      if (graph.next_successor(frame.node, frame.cursor, successor)) {
        if (index[successor] == kUnvisited) {
          visit(static_cast<std::uint32_t>(successor));
        } else if (on_stack[successor]) {
          lowlink[frame.node] = std::min(lowlink[frame.node], index[successor]);
        }
        continue;
      }
      const std::uint32_t node = frame.node;
      frames.pop_back();
      if (!frames.empty()) lowlink[frames.back().node] = std::min(lowlink[frames.back().node], lowlink[node]);
      if (lowlink[node] == index[node]) {
        std::uint32_t member = 0;
        do {
          member = stack.back();
          stack.pop_back();
          on_stack[member] = false;
          component[member] = next_component;
        } while (member != node);
        ++next_component;
      }
    }
  }
  return component;
}

// Jarvis–Shier: BFS levels from `start` inside its component; the period is the gcd of level[u] − level[w] + 1
// over the component's edges u → w.
std::uint64_t component_period(const TransitionGraph& graph, const std::vector<std::uint32_t>& component,
                               std::uint64_t start) {
  std::vector<std::int64_t> level(graph.node_count(), -1);
  std::deque<std::uint64_t> queue{start};
  level[start] = 0;
  std::uint64_t period = 0;
  while (!queue.empty()) {
    const std::uint64_t node = queue.front();
    queue.pop_front();
    std::uint64_t cursor = 0;
    std::uint64_t successor = 0;
    while (graph.next_successor(node, cursor, successor)) {
      if (component[successor] != component[start]) continue;
      if (level[successor] < 0) {
        level[successor] = level[node] + 1;
        queue.push_back(successor);
      } else {
        const std::int64_t gap = level[node] - level[successor] + 1;
        period = std::gcd(period, static_cast<std::uint64_t>(gap < 0 ? -gap : gap));
      }
    }
  }
  return period;
}

// Sweeps the set iteration below tries before it leaves the question to the staged graph.
constexpr int kMaxSetSweeps = 64;

// A structural table with every interior probability replaced by 1/2: the same possible transitions, and a
// sweep's products of them stay at or above 2^−(m+n), so a set's image below cannot underflow to 0.
UnitTransitionTable possible_transitions(const UnitTransitionTable& structural) {
  const auto halve_interior = [](const MatrixD& table) -> MatrixD {
    return table.unaryExpr([](double p) { return p > 0.0 && p < 1.0 ? 0.5 : p; });
  };
  return {halve_interior(structural.from_zero), halve_interior(structural.from_one)};
}

// Whether the states reachable from state 0 in exactly k sweeps (forward: the image under the sweep) or the states
// that reach it in exactly k sweeps (backward: the preimage) are every state for some k ≤ kMaxSetSweeps. A set is
// carried as its indicator: the sweep's entries are ≥ 0, so one application (adjoint for the image) has the
// image's (preimage's) support; the indicator is restored after each sweep.
bool every_state_within_sweeps(const SweepOperator& sweep, bool forward) {
  VectorD set = VectorD::Zero(sweep.rows());
  VectorD next(sweep.rows());
  set[0] = 1.0;
  for (int k = 0; k < kMaxSetSweeps; ++k) {
    if (forward)
      sweep.perform_adjoint_op(set.data(), next.data());
    else
      sweep.perform_op(set.data(), next.data());
    set = (next.array() > 0.0).cast<double>();
    if ((set.array() > 0.0).all()) return true;
  }
  return false;
}

}  // namespace

PatternGraph::PatternGraph(const TransitionPattern& pattern) : pattern_(pattern) {
  require(pattern.rows() == pattern.cols(), "transition pattern: the matrix must be square");
}

bool PatternGraph::next_successor(std::uint64_t node, std::uint64_t& cursor, std::uint64_t& successor) const {
  const auto row = static_cast<Eigen::Index>(node);
  while (cursor < node_count()) {
    const std::uint64_t column = cursor++;
    if (pattern_(row, static_cast<Eigen::Index>(column))) {
      successor = column;
      return true;
    }
  }
  return false;
}

StagedSweepGraph::StagedSweepGraph(const JointStateSpace& space, UnitTransitionTable hidden,
                                   UnitTransitionTable visible)
    : space_(space), hidden_(std::move(hidden)), visible_(std::move(visible)) {
  require(hidden_.units() == space.n_hidden() && visible_.units() == space.n_visible(),
          "staged sweep graph: the tables do not fit the state space");
}

bool StagedSweepGraph::next_successor(std::uint64_t node, std::uint64_t& cursor, std::uint64_t& successor) const {
  const std::uint64_t state = node % space_.size();
  const int stage = static_cast<int>(node / space_.size());
  const bool hidden_stage = stage < space_.n_hidden();
  const int unit = hidden_stage ? stage : stage - space_.n_hidden();
  const int bit = hidden_stage ? space_.n_visible() + unit : unit;
  const UnitTransitionTable& table = hidden_stage ? hidden_ : visible_;
  const std::uint64_t other = hidden_stage ? space_.visible_part(state) : space_.hidden_part(state);
  const int current = static_cast<int>((state >> bit) & 1U);
  const std::uint64_t next_stage = static_cast<std::uint64_t>((stage + 1) % stages());
  // cursor 0: the unit keeps its state; cursor 1: it flips.
  while (cursor < 2) {
    const int next = cursor++ == 0 ? current : 1 - current;
    if (table.probability(other, unit, current, next) > 0.0) {
      const std::uint64_t next_state = next == current ? state : state ^ (std::uint64_t{1} << bit);
      successor = next_stage * space_.size() + next_state;
      return true;
    }
  }
  return false;
}

ErgodicityReport analyse_ergodicity(const TransitionGraph& graph) {
  const std::vector<std::uint32_t> component = strongly_connected_components(graph);
  std::vector<std::uint32_t> classes(component.begin(),
                                     component.begin() + static_cast<std::ptrdiff_t>(graph.state_count()));
  std::sort(classes.begin(), classes.end());
  ErgodicityReport report;
  report.communicating_classes =
      static_cast<std::uint64_t>(std::unique(classes.begin(), classes.end()) - classes.begin());
  report.irreducible = report.communicating_classes == 1;
  // Closed walks in the graph are steps_per_transition() edges per transition of the chain.
  report.period = component_period(graph, component, 0) / static_cast<std::uint64_t>(graph.steps_per_transition());
  return report;
}

ErgodicityReport analyse_sweep_ergodicity(const JointStateSpace& space, UnitTransitionTable hidden,
                                          UnitTransitionTable visible) {
  require(hidden.units() == space.n_hidden() &&
              hidden.from_zero.rows() == static_cast<Eigen::Index>(space.visible_states()) &&
              visible.units() == space.n_visible() &&
              visible.from_zero.rows() == static_cast<Eigen::Index>(space.hidden_states()),
          "sweep ergodicity: the tables do not fit the state space");
  const auto interior = [](const MatrixD& table) { return (table.array() > 0.0).all() && (table.array() < 1.0).all(); };
  const ErgodicityReport one_aperiodic_class{.communicating_classes = 1, .irreducible = true, .period = 1};
  if (interior(hidden.from_zero) && interior(hidden.from_one) && interior(visible.from_zero) &&
      interior(visible.from_one))
    return one_aperiodic_class;
  // If state 0 reaches every state in exactly k sweeps and every state reaches it in exactly j, the chain is
  // irreducible, and aperiodic: every state has a predecessor, so 0 also reaches every state (0 among them) in
  // k + 1 sweeps, and gcd(k, k + 1) = 1. A few sweeps over the states decide it where the staged graph's search
  // (m + n times the states as nodes) takes seconds; a reducible or periodic chain, or one slower to spread, goes
  // to the graph, which also counts the classes and finds the period.
  const SweepOperator structural_sweep(space, possible_transitions(hidden), possible_transitions(visible));
  if (every_state_within_sweeps(structural_sweep, true) && every_state_within_sweeps(structural_sweep, false))
    return one_aperiodic_class;
  return analyse_ergodicity(StagedSweepGraph(space, std::move(hidden), std::move(visible)));
}

}  // namespace rbmix::analysis
