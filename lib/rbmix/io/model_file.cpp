#include "rbmix/io/model_file.hpp"

#include <algorithm>
#include <map>

#include "rbmix/io/file_bytes.hpp"
#include "rbmix/io/npy.hpp"
#include "rbmix/io/output_file.hpp"
#include "rbmix/io/zip_archive.hpp"

namespace rbmix {
namespace {

constexpr std::string_view weights_member = "W.npy";
constexpr std::string_view visible_bias_member = "b.npy";
constexpr std::string_view hidden_bias_member = "c.npy";
constexpr std::string_view couplings_member = "J.npy";
constexpr std::string_view metadata_member = "metadata.json";
constexpr int plain_model_format_version = 1;
constexpr int classification_model_format_version = 2;
constexpr int boltzmann_machine_format_version = 3;

// Writes the archive of `arrays` with `metadata` (format, version and provenance are added here).
void save_model_archive(const std::filesystem::path& file, std::vector<ZipMember> arrays, nlohmann::json metadata,
                        int version, const nlohmann::json& provenance) {
  metadata["format"] = model_format_name;
  metadata["format_version"] = version;
  metadata["rbmix_version"] = RBMIX_VERSION;
  metadata["provenance"] = provenance;
  arrays.push_back({std::string(metadata_member), metadata.dump(2) + "\n"});
  write_output_file(file, encode_zip(arrays));
}

void save_rbm_archive(const std::filesystem::path& file, const Rbm& rbm, nlohmann::json metadata, int version,
                      const nlohmann::json& provenance) {
  metadata["n_visible"] = rbm.n_visible();
  metadata["n_hidden"] = rbm.n_hidden();
  save_model_archive(file,
                     {{std::string(weights_member), encode_npy(matrix_to_npy(rbm.weights))},
                      {std::string(visible_bias_member), encode_npy(vector_to_npy(rbm.visible_bias))},
                      {std::string(hidden_bias_member), encode_npy(vector_to_npy(rbm.hidden_bias))}},
                     std::move(metadata), version, provenance);
}

// A model archive whose format and version have been checked, with the kind it declares ("rbm" without a "kind").
struct ModelArchive {
  std::map<std::string, std::string, std::less<>> members;
  nlohmann::json metadata;
  std::string kind;
  std::string source;

  const std::string& member(std::string_view name) const {
    const auto found = members.find(name);
    require(found != members.end(), source + ": not an rbmix model file (member " + std::string(name) + " is missing)");
    return found->second;
  }
  NpyArray array(std::string_view name) const { return decode_npy(member(name), source + ": " + std::string(name)); }
};

ModelArchive open_model_archive(std::string bytes, const std::string& source) {
  ModelArchive archive;
  archive.source = source;
  for (auto& member : decode_zip(bytes, source)) archive.members[member.name] = std::move(member.bytes);
  try {
    archive.metadata = nlohmann::json::parse(archive.member(metadata_member));
  } catch (const nlohmann::json::exception& error) {  // parse_error, or out_of_range for a number like 1e400
    throw InputError(source + ": metadata.json is not valid JSON (" + error.what() + ")");
  }
  const auto& metadata = archive.metadata;
  // Each field's type is checked before its value is read: nlohmann's typed reads throw their own errors otherwise.
  require(metadata.is_object() && metadata.contains("format") && metadata["format"].is_string() &&
              metadata["format"].get<std::string>() == model_format_name,
          source + ": metadata.json does not declare format \"" + std::string(model_format_name) + "\"");
  require(metadata.contains("format_version") && metadata["format_version"].is_number_integer(),
          source + ": metadata.json has no integer format_version");
  const auto version = metadata["format_version"].get<std::int64_t>();
  require(version >= 1 && version <= model_format_version,
          source + ": model format version " + std::to_string(version) + " is not supported (this rbmix reads " +
              "version " + std::to_string(model_format_version) + "; a newer rbmix wrote this file?)");
  archive.kind = "rbm";
  if (metadata.contains("kind")) {
    require(metadata["kind"].is_string(), source + ": metadata.json kind is not a string");
    archive.kind = metadata["kind"].get<std::string>();
  }
  return archive;
}

// Why a model of one kind is not the one wanted: the kind found, the kind wanted, and the command that reads it.
std::string kind_mismatch(const ModelArchive& archive, std::string_view wanted) {
  std::string message = archive.source + ": the model is a " + (archive.kind == "rbm" ? "plain RBM" : archive.kind) +
                        ", not a " + std::string(wanted);
  if (archive.kind == classification_model_kind)
    message += "; its label units are one softmax group: use rbmix classify";
  if (archive.kind == boltzmann_machine_model_kind) message += "; it is a fully visible MRF: use rbmix mrf loglik";
  return message;
}

Rbm read_rbm(const ModelArchive& archive) {
  const std::string& source = archive.source;
  Rbm rbm;
  rbm.weights = npy_to_matrix<double>(archive.array(weights_member), source + ": " + std::string(weights_member));
  rbm.visible_bias =
      npy_to_vector<double>(archive.array(visible_bias_member), source + ": " + std::string(visible_bias_member));
  rbm.hidden_bias =
      npy_to_vector<double>(archive.array(hidden_bias_member), source + ": " + std::string(hidden_bias_member));
  rbm.validate(source);
  const auto& metadata = archive.metadata;
  for (const auto& [key, actual] : {std::pair{"n_visible", rbm.n_visible()}, {"n_hidden", rbm.n_hidden()}}) {
    require(metadata.contains(key) && metadata[key].is_number_integer() && metadata[key].get<Eigen::Index>() == actual,
            source + ": metadata.json " + key + " does not match W.npy (" + std::to_string(actual) + ")");
  }
  return rbm;
}

// The model.json of rbmix mrf train before version 3 of the model format.
LoadedBoltzmannMachine decode_legacy_boltzmann_machine_json(const std::string& text, const std::string& source) {
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& error) {  // parse_error, or out_of_range for a number like 1e400
    throw InputError(source + ": not valid JSON (" + error.what() + ")");
  }
  const auto numbers = [](const nlohmann::json& list) {
    return list.is_array() && std::all_of(list.begin(), list.end(), [](const auto& x) { return x.is_number(); });
  };
  require(json.is_object() && json.contains("couplings") && json.contains("biases") && numbers(json["biases"]) &&
              json["couplings"].is_array() && std::all_of(json["couplings"].begin(), json["couplings"].end(), numbers),
          source + ": not an MRF model.json (expected {\"couplings\": rows of numbers, \"biases\": numbers})");
  LoadedBoltzmannMachine loaded{{}, {{"kind", boltzmann_machine_model_kind}, {"legacy_json", true}}};
  const auto n = static_cast<Eigen::Index>(json["biases"].size());
  loaded.model.biases = VectorD(n);
  for (Eigen::Index i = 0; i < n; ++i) loaded.model.biases(i) = json["biases"][static_cast<std::size_t>(i)];
  require(static_cast<Eigen::Index>(json["couplings"].size()) == n, source + ": couplings has " +
                                                                        std::to_string(json["couplings"].size()) +
                                                                        " rows for " + std::to_string(n) + " biases");
  loaded.model.couplings = MatrixD(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& row = json["couplings"][static_cast<std::size_t>(i)];
    require(static_cast<Eigen::Index>(row.size()) == n, source + ": couplings row " + std::to_string(i) + " has " +
                                                            std::to_string(row.size()) + " entries, not " +
                                                            std::to_string(n));
    for (Eigen::Index j = 0; j < n; ++j) loaded.model.couplings(i, j) = row[static_cast<std::size_t>(j)];
  }
  loaded.model.validate(source);
  return loaded;
}

}  // namespace

void save_rbm(const std::filesystem::path& file, const Rbm& rbm, const nlohmann::json& provenance) {
  rbm.validate("model to save as " + file.string());
  save_rbm_archive(file, rbm, nlohmann::json::object(), plain_model_format_version, provenance);
}

void save_classification_rbm(const std::filesystem::path& file, const ClassificationRbm& model,
                             const nlohmann::json& provenance) {
  model.validate("classification RBM to save as " + file.string());
  save_rbm_archive(file, model.rbm, {{"kind", classification_model_kind}, {"classes", model.classes}},
                   classification_model_format_version, provenance);
}

LoadedRbm load_rbm(const std::filesystem::path& file) { return decode_rbm(read_file_bytes(file), file.string()); }

LoadedRbm decode_rbm(std::string bytes, const std::string& source) {
  const ModelArchive archive = open_model_archive(std::move(bytes), source);
  require(archive.kind == "rbm", [&] { return kind_mismatch(archive, "plain RBM"); });
  return {read_rbm(archive), archive.metadata};
}

LoadedClassificationRbm load_classification_rbm(const std::filesystem::path& file) {
  return decode_classification_rbm(read_file_bytes(file), file.string());
}

LoadedClassificationRbm decode_classification_rbm(std::string bytes, const std::string& source) {
  const ModelArchive archive = open_model_archive(std::move(bytes), source);
  require(archive.kind == classification_model_kind, [&] {
    return kind_mismatch(archive, std::string(classification_model_kind) + " (train one with rbmix train --labels)");
  });
  const nlohmann::json& metadata = archive.metadata;
  require(metadata.contains("classes") && metadata["classes"].is_number_integer(),
          source + ": metadata.json has no integer classes");
  LoadedClassificationRbm out{{read_rbm(archive), metadata["classes"].get<Eigen::Index>()}, metadata};
  out.model.validate(source);
  return out;
}

void save_boltzmann_machine(const std::filesystem::path& file, const BoltzmannMachine& model,
                            const nlohmann::json& provenance) {
  model.validate("MRF to save as " + file.string());
  save_model_archive(file,
                     {{std::string(couplings_member), encode_npy(matrix_to_npy(model.couplings))},
                      {std::string(visible_bias_member), encode_npy(vector_to_npy(model.biases))}},
                     {{"kind", boltzmann_machine_model_kind},
                      {"n_units", model.size()},
                      {"convention", "p(x) ∝ exp(½ xᵀ J x + bᵀ x), x ∈ {0,1}ⁿ, J symmetric with zero diagonal"}},
                     boltzmann_machine_format_version, provenance);
}

LoadedBoltzmannMachine load_boltzmann_machine(const std::filesystem::path& file) {
  return decode_boltzmann_machine(read_file_bytes(file), file.string());
}

LoadedBoltzmannMachine decode_boltzmann_machine(std::string bytes, const std::string& source) {
  if (!bytes.empty() && bytes.front() == '{') return decode_legacy_boltzmann_machine_json(bytes, source);
  const ModelArchive archive = open_model_archive(std::move(bytes), source);
  require(archive.kind == boltzmann_machine_model_kind, [&] {
    return kind_mismatch(archive, std::string(boltzmann_machine_model_kind) + " (an MRF written by rbmix mrf train)");
  });
  LoadedBoltzmannMachine loaded;
  loaded.model.couplings =
      npy_to_matrix<double>(archive.array(couplings_member), source + ": " + std::string(couplings_member));
  loaded.model.biases =
      npy_to_vector<double>(archive.array(visible_bias_member), source + ": " + std::string(visible_bias_member));
  loaded.model.validate(source);
  const auto& metadata = archive.metadata;
  require(metadata.contains("n_units") && metadata["n_units"].is_number_integer() &&
              metadata["n_units"].get<Eigen::Index>() == loaded.model.size(),
          source + ": metadata.json n_units does not match J.npy (" + std::to_string(loaded.model.size()) + ")");
  loaded.metadata = metadata;
  return loaded;
}

}  // namespace rbmix
