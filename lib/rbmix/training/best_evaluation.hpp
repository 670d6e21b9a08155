#pragma once
// BestEvaluation: the one rule by which a training run's best evaluation is chosen, for every reader of a run: the
// trainer's summary (TrainingSummary::best), `rbmix train --keep best` (best-model.npz) and Python's
// rbmix.train(keep="best"). The best point is the one of highest monitored_score (learning_curve.hpp); of equal
// scores the earliest; a point without a score never counts. Fed the points in the order they are evaluated,
// observe() says whether the point it is handed became the best, which is when a front-end keeps the model.
#include <optional>
#include <vector>

#include "rbmix/training/learning_curve.hpp"

namespace rbmix {

class BestEvaluation {
 public:
  BestEvaluation() = default;
  // Seeded with the points already evaluated (a resumed run's learning curve), in order.
  explicit BestEvaluation(const std::vector<EvaluationPoint>& curve) {
    for (const EvaluationPoint& point : curve) observe(point);
  }

  // Takes the next evaluated point; true when it is the best so far (its model is the one to keep).
  bool observe(const EvaluationPoint& point) {
    const std::optional<double> score = monitored_score(point);
    if (!score || (best_ && *score <= *monitored_score(*best_))) return false;
    best_ = point;
    return true;
  }

  // The best point so far; none before a point with a score was observed.
  const std::optional<EvaluationPoint>& best() const { return best_; }

 private:
  std::optional<EvaluationPoint> best_;
};

}  // namespace rbmix
