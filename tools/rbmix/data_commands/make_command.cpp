// rbmix data make bas|shifting-bar|modes: the synthetic data sets as .npy files, one 0/1 sample per row.
#include <cstdint>
#include <memory>
#include <string>

#include "data_output.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/data/datasets.hpp"

namespace rbmix::cli::make_command {
namespace {

void attach_make(CLI::App& data) {
  CLI::App* make = data.add_subcommand("make", "Make a synthetic data set as a .npy file");
  make->require_subcommand(1);

  struct BarsAndStripes {
    int size = 3;
    bool unique = false;
    std::string out;
  };
  auto bas = std::make_shared<BarsAndStripes>();
  CLI::App* bas_command = make->add_subcommand("bas", "Bars & Stripes D×D: 2^(D+1) rows (all-0 and all-1 twice)");
  bas_command->add_option("--size", bas->size, "side D")->required()->check(CLI::Range(1, 10));
  bas_command->add_flag("--unique", bas->unique, "drop the duplicated all-0 and all-1 images");
  bas_command->add_option("--out", bas->out, "output .npy file")->required();
  bas_command->callback([bas] { save_and_report(bas->out, bars_and_stripes(bas->size, bas->unique)); });

  struct ShiftingBar {
    int length = 9;
    int bar = 1;
    std::string out;
  };
  auto bar = std::make_shared<ShiftingBar>();
  CLI::App* bar_command = make->add_subcommand("shifting-bar", "Shifting Bar: the N cyclic shifts of B ones in N bits");
  bar_command->add_option("--length", bar->length, "N")->required()->check(positive_int);
  bar_command->add_option("--bar", bar->bar, "B")->required()->check(positive_int);
  bar_command->add_option("--out", bar->out, "output .npy file")->required();
  bar_command->callback([bar] { save_and_report(bar->out, shifting_bar(bar->length, bar->bar)); });

  struct Modes {
    double mutation_probability = 0.1;
    int size = 1000;
    std::uint64_t seed = 1;
    std::string out;
    std::string labels;
  };
  auto modes = std::make_shared<Modes>();
  CLI::App* modes_command = make->add_subcommand("modes", "Artificial Modes: 4×4 images around four basic modes");
  modes_command->add_option("--p-mut", modes->mutation_probability, "probability of flipping each pixel")
      ->required()
      ->check(CLI::Range(0.0, 1.0));
  modes_command->add_option("--size", modes->size, "number of samples")->required()->check(positive_int);
  modes_command->add_option("--seed", modes->seed, "random seed")->required();
  modes_command->add_option("--out", modes->out, "output .npy file")->required();
  modes_command->add_option("--labels", modes->labels, "also write the mode of each sample (uint8 .npy)");
  modes_command->callback([modes] {
    const LabelledData made = artificial_modes(modes->mutation_probability, modes->size, modes->seed);
    save_and_report(modes->out, made.samples);
    if (!modes->labels.empty()) save_labels(modes->labels, {made.labels.begin(), made.labels.end()});
  });
}

}  // namespace
}  // namespace rbmix::cli::make_command

RBMIX_REGISTER_COMMAND("data", rbmix::cli::make_command::attach_make)
