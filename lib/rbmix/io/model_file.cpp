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

}  // namespace

void save_rbm(const std::filesystem::path& file, const Rbm& rbm, const nlohmann::json& provenance) {
  rbm.validate("model to save as " + file.string());
  const nlohmann::json metadata = {
      {"format", model_format_name}, {"format_version", model_format_version}, {"n_visible", rbm.n_visible()},
      {"n_hidden", rbm.n_hidden()},  {"rbmix_version", RBMIX_VERSION},         {"provenance", provenance},
  };
  write_output_file(file, encode_zip({
                              {std::string(weights_member), encode_npy(matrix_to_npy(rbm.weights))},
                              {std::string(visible_bias_member), encode_npy(vector_to_npy(rbm.visible_bias))},
                              {std::string(hidden_bias_member), encode_npy(vector_to_npy(rbm.hidden_bias))},
                              {std::string(metadata_member), metadata.dump(2) + "\n"},
                          }));
}

LoadedRbm load_rbm(const std::filesystem::path& file) { return decode_rbm(read_file_bytes(file), file.string()); }

LoadedRbm decode_rbm(std::string bytes, const std::string& source) {
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

}  // namespace rbmix
