#include "rbmix/jobs/job_shard.hpp"

#include <charconv>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {

JobShard parse_shard(std::string_view text) {
  const std::string message = "--shard '" + std::string(text) + "': expected I/N with 1 <= I <= N, e.g. 2/8";
  const auto slash = text.find('/');
  require(slash != std::string_view::npos, message);
  JobShard shard;
  const auto read = [&](std::string_view digits, std::size_t& value) {
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    require(error == std::errc() && end == digits.data() + digits.size(), message);
  };
  read(text.substr(0, slash), shard.number);
  read(text.substr(slash + 1), shard.count);
  require(shard.number >= 1 && shard.number <= shard.count, message);
  return shard;
}

}  // namespace rbmix::experiments
