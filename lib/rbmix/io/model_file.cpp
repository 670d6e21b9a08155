#include "rbmix/io/model_file.hpp"

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
constexpr std::string_view metadata_member = "metadata.json";
constexpr int plain_model_format_version = 1;
constexpr int classification_model_format_version = 2;

// Writes the archive with `metadata` (format, version, sizes and provenance are added here).
void save_model_archive(const std::filesystem::path& file, const Rbm& rbm, nlohmann::json metadata, int version,
                        const nlohmann::json& provenance) {
  metadata["format"] = model_format_name;
  metadata["format_version"] = version;
  metadata["n_visible"] = rbm.n_visible();
  metadata["n_hidden"] = rbm.n_hidden();
  metadata["rbmix_version"] = RBMIX_VERSION;
  metadata["provenance"] = provenance;
  write_output_file(file, encode_zip({
                              {std::string(weights_member), encode_npy(matrix_to_npy(rbm.weights))},
                              {std::string(visible_bias_member), encode_npy(vector_to_npy(rbm.visible_bias))},
                              {std::string(hidden_bias_member), encode_npy(vector_to_npy(rbm.hidden_bias))},
                              {std::string(metadata_member), metadata.dump(2) + "\n"},
                          }));
}

// The model kind a file declares: "rbm" without a "kind" field.
std::string model_kind(const nlohmann::json& metadata, const std::string& source) {
  if (!metadata.contains("kind")) return "rbm";
  require(metadata["kind"].is_string(), source + ": metadata.json kind is not a string");
  return metadata["kind"].get<std::string>();
}

LoadedRbm decode_any_rbm(std::string bytes, const std::string& source);

}  // namespace

void save_rbm(const std::filesystem::path& file, const Rbm& rbm, const nlohmann::json& provenance) {
  rbm.validate("model to save as " + file.string());
  save_model_archive(file, rbm, nlohmann::json::object(), plain_model_format_version, provenance);
}

void save_classification_rbm(const std::filesystem::path& file, const ClassificationRbm& model,
                             const nlohmann::json& provenance) {
  model.validate("classification RBM to save as " + file.string());
  save_model_archive(file, model.rbm, {{"kind", classification_model_kind}, {"classes", model.classes}},
                     classification_model_format_version, provenance);
}

LoadedRbm load_rbm(const std::filesystem::path& file) { return decode_rbm(read_file_bytes(file), file.string()); }

LoadedRbm decode_rbm(std::string bytes, const std::string& source) {
  LoadedRbm loaded = decode_any_rbm(std::move(bytes), source);
  const std::string kind = model_kind(loaded.metadata, source);
  require(kind == "rbm", source + ": the model is a " + kind +
                             ", not a plain RBM (its label units are one softmax group; use rbmix classify)");
  return loaded;
}

LoadedClassificationRbm load_classification_rbm(const std::filesystem::path& file) {
  return decode_classification_rbm(read_file_bytes(file), file.string());
}

LoadedClassificationRbm decode_classification_rbm(std::string bytes, const std::string& source) {
  LoadedRbm loaded = decode_any_rbm(std::move(bytes), source);
  const nlohmann::json& metadata = loaded.metadata;
  const std::string kind = model_kind(metadata, source);
  require(kind == classification_model_kind, source + ": the model is a " + (kind == "rbm" ? "plain RBM" : kind) +
                                                 ", not a " + std::string(classification_model_kind) +
                                                 " (train one with rbmix train --labels)");
  require(metadata.contains("classes") && metadata["classes"].is_number_integer(),
          source + ": metadata.json has no integer classes");
  LoadedClassificationRbm out{{std::move(loaded.rbm), metadata["classes"].get<Eigen::Index>()}, metadata};
  out.model.validate(source);
  return out;
}

namespace {

LoadedRbm decode_any_rbm(std::string bytes, const std::string& source) {
  std::map<std::string, std::string, std::less<>> members;
  for (auto& member : decode_zip(bytes, source)) members[member.name] = std::move(member.bytes);
  const auto member = [&](std::string_view name) -> const std::string& {
    const auto found = members.find(name);
    require(found != members.end(), source + ": not an rbmix model file (member " + std::string(name) + " is missing)");
    return found->second;
  };

  LoadedRbm loaded;
  try {
    loaded.metadata = nlohmann::json::parse(member(metadata_member));
  } catch (const nlohmann::json::parse_error& error) {
    throw InputError(source + ": metadata.json is not valid JSON (" + error.what() + ")");
  }
  const auto& metadata = loaded.metadata;
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

  const auto array = [&](std::string_view name) { return decode_npy(member(name), source + ": " + std::string(name)); };
  loaded.rbm.weights = npy_to_matrix<double>(array(weights_member), source + ": " + std::string(weights_member));
  loaded.rbm.visible_bias =
      npy_to_vector<double>(array(visible_bias_member), source + ": " + std::string(visible_bias_member));
  loaded.rbm.hidden_bias =
      npy_to_vector<double>(array(hidden_bias_member), source + ": " + std::string(hidden_bias_member));
  loaded.rbm.validate(source);
  for (const auto& [key, actual] :
       {std::pair{"n_visible", loaded.rbm.n_visible()}, {"n_hidden", loaded.rbm.n_hidden()}}) {
    require(metadata.contains(key) && metadata[key].is_number_integer() && metadata[key].get<Eigen::Index>() == actual,
            source + ": metadata.json " + key + " does not match W.npy (" + std::to_string(actual) + ")");
  }
  return loaded;
}

}  // namespace

}  // namespace rbmix
