#pragma once
// rbmix model files: an .npz archive that numpy opens directly (np.load(file)["W"]) holding
//   W.npy (n_hidden × n_visible, float64), b.npy (visible bias, n_visible), c.npy (hidden bias, n_hidden),
//   metadata.json {"format": "rbmix-model", "format_version", "n_visible", "n_hidden", "rbmix_version",
//                  "provenance": free-form object saying how the model was made (command line, algorithm, seed...)}.
// Promises: load_rbm(save_rbm(rbm)) returns bit-identical parameters; loading refuses, with an InputError naming the
// file, anything that is not such an archive: missing members, other dtypes, shapes that disagree with each other
// or with the metadata, NaN or Inf parameters, another format or a newer format version.
// A classification RBM (model/classification_rbm.hpp) is the same archive with metadata "kind":
// "classification-rbm" and "classes": K, written as format version 2 so that an rbmix from before classification
// RBMs refuses it instead of reading the label units as binary ones; a file without "kind" is a plain RBM. Each
// loader refuses the other kind, naming it.
// A fully visible binary MRF (model/boltzmann_machine.hpp, rbmix mrf train) is an archive of the same format with
//   J.npy (couplings, n × n float64, symmetric, zero diagonal), b.npy (biases, n),
//   metadata.json {"format": "rbmix-model", "format_version": 3, "kind": "boltzmann-machine", "n_units": n,
//                  "convention", "rbmix_version", "provenance"},
// version 3 so that an rbmix from before it says a newer rbmix wrote the file instead of missing W.npy; the RBM
// loaders refuse it and its loader refuses RBMs, each naming the kind found and the command that reads it.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "rbmix/model/boltzmann_machine.hpp"
#include "rbmix/model/classification_rbm.hpp"
#include "rbmix/model/rbm.hpp"

namespace rbmix {

inline constexpr std::string_view model_format_name = "rbmix-model";
inline constexpr int model_format_version = 3;  // the newest version this rbmix reads
inline constexpr std::string_view classification_model_kind = "classification-rbm";
inline constexpr std::string_view boltzmann_machine_model_kind = "boltzmann-machine";

struct LoadedRbm {
  Rbm rbm;
  nlohmann::json metadata;  // the whole metadata.json; the provenance is metadata["provenance"]
};

void save_rbm(const std::filesystem::path& file, const Rbm& rbm, const nlohmann::json& provenance);
LoadedRbm load_rbm(const std::filesystem::path& file);
// The same from the bytes of a model file; `source` names it in messages.
LoadedRbm decode_rbm(std::string bytes, const std::string& source);

struct LoadedClassificationRbm {
  ClassificationRbm model;
  nlohmann::json metadata;
};

void save_classification_rbm(const std::filesystem::path& file, const ClassificationRbm& model,
                             const nlohmann::json& provenance);
LoadedClassificationRbm load_classification_rbm(const std::filesystem::path& file);
LoadedClassificationRbm decode_classification_rbm(std::string bytes, const std::string& source);

struct LoadedBoltzmannMachine {
  BoltzmannMachine model;
  nlohmann::json metadata;
};

void save_boltzmann_machine(const std::filesystem::path& file, const BoltzmannMachine& model,
                            const nlohmann::json& provenance);
// Also reads the model.json that rbmix mrf train wrote before MRFs had a model file ({"couplings": rows of J,
// "biases": b}, recognised by its leading '{'); its metadata is then {"kind": "boltzmann-machine", "legacy_json":
// true}.
LoadedBoltzmannMachine load_boltzmann_machine(const std::filesystem::path& file);
LoadedBoltzmannMachine decode_boltzmann_machine(std::string bytes, const std::string& source);

}  // namespace rbmix
