#pragma once
// Ergodicity of a finite chain from its structural nonzero pattern (docs/algorithms/operators.md §2): irreducibility
// from the strongly connected components (Tarjan 1972, iterative so 2^20 states cannot overflow the call stack) and the
// period from BFS levels (Jarvis & Shier 1999): period = gcd over edges u → w inside the class of
// (level[u] − level[w] + 1). Zeros must be structural — the rule says 0 — never floating-point underflow.
#include <cstdint>
#include <vector>

#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/analysis/unit_transition_table.hpp"

namespace rbmix::analysis {

// A directed graph whose nodes [0, state_count) are the chain's states; one transition of the chain is a path of
// exactly steps_per_transition() edges from a state node to a state node (1 for a plain transition pattern; m + n
// for the staged sweep graph, whose other nodes are the states between single-unit updates).
class TransitionGraph {
 public:
  virtual ~TransitionGraph() = default;
  virtual std::uint64_t node_count() const = 0;
  virtual std::uint64_t state_count() const = 0;
  virtual int steps_per_transition() const = 0;
  // Enumerates the successors of `node`: start with cursor = 0; returns false when there are no more.
  virtual bool next_successor(std::uint64_t node, std::uint64_t& cursor, std::uint64_t& successor) const = 0;
};

// The graph of a dense pattern (an edge x → y wherever pattern(x, y)). Keeps a reference to the pattern.
class PatternGraph final : public TransitionGraph {
 public:
  explicit PatternGraph(const TransitionPattern& pattern);
  std::uint64_t node_count() const override { return static_cast<std::uint64_t>(pattern_.rows()); }
  std::uint64_t state_count() const override { return node_count(); }
  int steps_per_transition() const override { return 1; }
  bool next_successor(std::uint64_t node, std::uint64_t& cursor, std::uint64_t& successor) const override;

 private:
  const TransitionPattern& pattern_;
};

// The sweep as m + n single-unit steps (hidden units first, then visible): node (stage k, state x) is x before
// the update of unit k. Each node has at most two successors, so the graph of 2^20 states has ~4·10^7 edges,
// where the pattern of K itself would have up to 2^40. A sequential unit update equals the layer's simultaneous
// one because a unit's input does not depend on the other units of its own layer.
class StagedSweepGraph final : public TransitionGraph {
 public:
  // Tables must be structural (Evaluation::structural).
  StagedSweepGraph(const JointStateSpace& space, UnitTransitionTable hidden, UnitTransitionTable visible);
  // Any rule the kernel applies: a built-in one, UnitRule, or a user's own.
  template <KernelUnitRule Rule>
  StagedSweepGraph(const Rbm& rbm, const Rule& rule, double inverse_temperature = 1.0)
      : StagedSweepGraph(
            JointStateSpace(rbm),
            unit_transition_table(rbm, rule, Layer::hidden, inverse_temperature, Evaluation::structural),
            unit_transition_table(rbm, rule, Layer::visible, inverse_temperature, Evaluation::structural)) {}
  std::uint64_t node_count() const override { return space_.size() * static_cast<std::uint64_t>(stages()); }
  std::uint64_t state_count() const override { return space_.size(); }
  int steps_per_transition() const override { return stages(); }
  bool next_successor(std::uint64_t node, std::uint64_t& cursor, std::uint64_t& successor) const override;

 private:
  int stages() const { return space_.n_hidden() + space_.n_visible(); }
  JointStateSpace space_;
  UnitTransitionTable hidden_;
  UnitTransitionTable visible_;
};

struct ErgodicityReport {
  std::uint64_t communicating_classes = 0;  // strongly connected classes among the states
  bool irreducible = false;
  std::uint64_t period = 0;  // of the class that contains state 0
  bool ergodic() const { return irreducible && period == 1; }
};

ErgodicityReport analyse_ergodicity(const TransitionGraph& graph);

// The ergodicity of the sweep of two structural tables (Evaluation::structural). Where every unit can reach either
// state from either state whatever the other layer (every entry strictly inside (0, 1)), every joint state reaches
// every joint state in one sweep: one class, and period 1 (K(x, x) > 0), with no graph to search — the case of
// Gibbs at finite parameters. Otherwise, if state 0 reaches every state in exactly k sweeps and every state reaches
// it in exactly j (k, j ≤ 64; sets of states carried through the sweep, a few milliseconds each at 2^20 states),
// the chain is irreducible and aperiodic; failing that the staged sweep graph decides, counting the classes.
ErgodicityReport analyse_sweep_ergodicity(const JointStateSpace& space, UnitTransitionTable hidden,
                                          UnitTransitionTable visible);

}  // namespace rbmix::analysis
