#include "rbmix/experiments/job_progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace rbmix::experiments {
namespace {

thread_local JobProgressSlot* current_slot = nullptr;

}  // namespace

void report_job_stage(std::string stage) {
  JobProgressSlot* slot = current_slot;
  if (slot == nullptr) return;
  slot->fraction_.store(std::nan(""), std::memory_order_relaxed);
  const std::lock_guard lock(slot->stage_mutex_);
  slot->stage_ = std::move(stage);
}

void report_job_progress(double fraction) {
  JobProgressSlot* slot = current_slot;
  if (slot == nullptr) return;
  slot->fraction_.store(std::isnan(fraction) ? fraction : std::clamp(fraction, 0.0, 1.0), std::memory_order_relaxed);
}

std::function<void(std::int64_t update)> training_progress(std::int64_t updates) {
  report_job_stage("training");
  return [updates](std::int64_t update) {
    report_job_progress(static_cast<double>(update) / static_cast<double>(std::max<std::int64_t>(updates, 1)));
  };
}

void JobProgressSlot::start(std::size_t job) {
  {
    const std::lock_guard lock(stage_mutex_);
    stage_.clear();
  }
  fraction_.store(std::nan(""), std::memory_order_relaxed);
  job_.store(static_cast<std::int64_t>(job), std::memory_order_relaxed);
  current_slot = this;
}

void JobProgressSlot::finish() {
  current_slot = nullptr;
  job_.store(-1, std::memory_order_relaxed);
}

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
