#include "rbmix/jobs/job_progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace rbmix::experiments {

void JobProgress::stage(std::string stage) const {
  if (slot_ == nullptr) return;
  slot_->fraction_.store(std::nan(""), std::memory_order_relaxed);
  const std::lock_guard lock(slot_->stage_mutex_);
  slot_->stage_ = std::move(stage);
}

void JobProgress::fraction(double fraction) const {
  if (slot_ == nullptr) return;
  slot_->fraction_.store(std::isnan(fraction) ? fraction : std::clamp(fraction, 0.0, 1.0), std::memory_order_relaxed);
}

std::function<void(std::int64_t update)> JobProgress::training(std::int64_t updates) const {
  stage("training");
  return [progress = *this, updates](std::int64_t update) {
    progress.fraction(static_cast<double>(update) / static_cast<double>(std::max<std::int64_t>(updates, 1)));
  };
}

void JobProgressSlot::start(std::size_t job) {
  {
    const std::lock_guard lock(stage_mutex_);
    stage_.clear();
  }
  fraction_.store(std::nan(""), std::memory_order_relaxed);
  job_.store(static_cast<std::int64_t>(job), std::memory_order_relaxed);
}

void JobProgressSlot::finish() { job_.store(-1, std::memory_order_relaxed); }

std::string JobProgressSlot::describe() const {
  const std::int64_t job = job_.load(std::memory_order_relaxed);
  if (job < 0) return {};
  std::string text = "job " + std::to_string(job);
  std::string stage;
  {
    const std::lock_guard lock(stage_mutex_);
    stage = stage_;
  }
  if (stage.empty()) return text + ": started";
  const double fraction = fraction_.load(std::memory_order_relaxed);
  if (std::isnan(fraction)) return text + ": " + stage;
  char percent[16];
  std::snprintf(percent, sizeof percent, " %.0f %%", 100.0 * fraction);
  return text + ": " + stage + percent;
}

}  // namespace rbmix::experiments
