#include "rbmix/io/model_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstring>
#include <limits>
#include <tuple>

#include "rbmix/io/file_bytes.hpp"
#include "rbmix/io/npy.hpp"
#include "rbmix/io/output_file.hpp"
#include "rbmix/io/zip_archive.hpp"
#include "rbmix/verify/generators.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;

template <typename Derived>
bool same_bits(const Eigen::DenseBase<Derived>& a, const Eigen::DenseBase<Derived>& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.derived().data(), b.derived().data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

std::string load_error(const std::filesystem::path& file) {
  try {
    load_rbm(file);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

RC_GTEST_PROP(ModelFile, SaveThenLoadIsBitIdentical, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(9, 10.0);
  const testing::TemporaryDirectory directory;
  const nlohmann::json provenance = {{"algorithm", "pcd"}, {"seed", 42}};
  save_rbm(directory / "model.npz", rbm, provenance);
  const LoadedRbm loaded = load_rbm(directory / "model.npz");
  RC_ASSERT(same_bits(loaded.rbm.weights, rbm.weights));
  RC_ASSERT(same_bits(loaded.rbm.visible_bias, rbm.visible_bias));
  RC_ASSERT(same_bits(loaded.rbm.hidden_bias, rbm.hidden_bias));
  RC_ASSERT(loaded.metadata["provenance"] == provenance);
  RC_ASSERT(loaded.metadata["format"] == "rbmix-model");
  RC_ASSERT(loaded.metadata["n_visible"] == rbm.n_visible());
}

class ModelFileErrors : public ::testing::Test {
 protected:
  // Writes an archive with the given members replaced (or, with empty bytes and remove, dropped).
  std::filesystem::path write_variant(const std::string& name,
                                      const std::vector<std::pair<std::string, std::optional<std::string>>>& changes) {
    auto members = decode_zip(read_file_bytes(good_file()), "good");
    for (const auto& [member, bytes] : changes) {
      const auto found = std::find_if(members.begin(), members.end(), [&](const auto& m) { return m.name == member; });
      if (!bytes)
        members.erase(found);
      else if (found == members.end())
        members.push_back({member, *bytes});
      else
        found->bytes = *bytes;
    }
    const auto file = directory_ / name;
    write_output_file(file, encode_zip(members));
    return file;
  }
  std::filesystem::path good_file() {
    const auto file = directory_ / "good.npz";
    if (!std::filesystem::exists(file)) {
      Rbm rbm(3, 2);
      rbm.weights << 1, 2, 3, 4, 5, 6;
      save_rbm(file, rbm, {{"how", "by hand"}});
    }
    return file;
  }
  std::string metadata_with(const std::string& key, const nlohmann::json& value) {
    auto metadata = load_rbm(good_file()).metadata;
    metadata[key] = value;
    return metadata.dump();
  }
  testing::TemporaryDirectory directory_;
};

TEST_F(ModelFileErrors, TruncatedOrCorruptedFilesAreRefusedNamingTheFile) {
  const std::string bytes = read_file_bytes(good_file());
  for (std::size_t length : {std::size_t{0}, std::size_t{10}, bytes.size() / 2, bytes.size() - 1}) {
    const auto file = directory_ / ("cut" + std::to_string(length) + ".npz");
    write_output_file(file, bytes.substr(0, length));
    EXPECT_THAT(load_error(file), HasSubstr(file.string())) << "cut at " << length;
  }
  std::string corrupted = bytes;
  corrupted[200] ^= 0x40;
  write_output_file(directory_ / "corrupted.npz", corrupted);
  EXPECT_THAT(load_error(directory_ / "corrupted.npz"), HasSubstr("corrupted.npz"));
  EXPECT_THAT(load_error(directory_ / "absent.npz"), HasSubstr("absent.npz"));
}

TEST_F(ModelFileErrors, NanOrInfParametersAreRefused) {
  Rbm rbm(3, 2);
  rbm.hidden_bias[1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(save_rbm(directory_ / "nan.npz", rbm, {}), InputError);
  const auto nan_file = write_variant("nan.npz", {{"c.npy", encode_npy(vector_to_npy(rbm.hidden_bias))}});
  EXPECT_THAT(load_error(nan_file), HasSubstr("hidden bias contains NaN or Inf"));
  EXPECT_THAT(load_error(nan_file), HasSubstr("nan.npz"));
  rbm.hidden_bias[1] = 0.0;
  rbm.weights(0, 0) = std::numeric_limits<double>::infinity();
  const auto inf_file = write_variant("inf.npz", {{"W.npy", encode_npy(matrix_to_npy(rbm.weights))}});
  EXPECT_THAT(load_error(inf_file), HasSubstr("W contains NaN or Inf"));
}

TEST_F(ModelFileErrors, WrongShapesDtypesAndMembersAreRefused) {
  EXPECT_THAT(
      load_error(write_variant("short_b.npz", {{"b.npy", encode_npy(vector_to_npy(VectorD(VectorD::Zero(2))))}})),
      HasSubstr("visible bias has 2 entries but W has 3 columns"));
  EXPECT_THAT(
      load_error(write_variant("float_w.npz", {{"W.npy", encode_npy(matrix_to_npy(MatrixF(MatrixF::Zero(2, 3))))}})),
      HasSubstr("W.npy: dtype is <f4 but <f8 is required"));
  EXPECT_THAT(load_error(write_variant("no_c.npz", {{"c.npy", std::nullopt}})), HasSubstr("c.npy is missing"));
  EXPECT_THAT(load_error(write_variant("bad_json.npz", {{"metadata.json", "{not json"}})), HasSubstr("not valid JSON"));
  EXPECT_THAT(load_error(write_variant("other.npz", {{"metadata.json", metadata_with("format", "something")}})),
              HasSubstr("does not declare format"));
  // Fields of the wrong JSON type are refused naming the file, not by the JSON library's own exception.
  for (const auto& [name, key, value] : {std::tuple{"null_format.npz", "format", nlohmann::json(nullptr)},
                                         {"number_format.npz", "format", 3},
                                         {"list_format.npz", "format", nlohmann::json::array()},
                                         {"text_version.npz", "format_version", "1"}}) {
    EXPECT_THAT(load_error(write_variant(name, {{"metadata.json", metadata_with(key, value)}})),
                HasSubstr(std::string(name) + ": metadata.json"))
        << name;
  }
  const nlohmann::json huge_version = (std::uint64_t{1} << 32) | 1;  // 1 if cut to 32 bits
  EXPECT_THAT(load_error(write_variant("huge.npz", {{"metadata.json", metadata_with("format_version", huge_version)}})),
              HasSubstr("version 4294967297 is not supported"));
  EXPECT_THAT(load_error(write_variant("newer.npz", {{"metadata.json", metadata_with("format_version", 99)}})),
              HasSubstr("version 99 is not supported"));
  EXPECT_THAT(load_error(write_variant("mismatch.npz", {{"metadata.json", metadata_with("n_hidden", 7)}})),
              HasSubstr("n_hidden does not match"));
  write_output_file(directory_ / "plain.npz", encode_npy(matrix_to_npy(MatrixD(MatrixD::Zero(2, 3)))));
  EXPECT_THAT(load_error(directory_ / "plain.npz"), HasSubstr("not a zip archive"));
}

std::string classification_load_error(const std::filesystem::path& file) {
  try {
    load_classification_rbm(file);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST_F(ModelFileErrors, ClassificationRbmRoundTripsAndEachLoaderRefusesTheOtherKind) {
  ClassificationRbm model{Rbm(5, 2), 3};
  model.rbm.weights.setRandom();
  model.rbm.visible_bias.setRandom();
  const auto file = directory_ / "classifier.npz";
  save_classification_rbm(file, model, {{"how", "by hand"}});
  const LoadedClassificationRbm loaded = load_classification_rbm(file);
  EXPECT_EQ(loaded.model.classes, 3);
  EXPECT_TRUE(same_bits(loaded.model.rbm.weights, model.rbm.weights));
  EXPECT_TRUE(same_bits(loaded.model.rbm.visible_bias, model.rbm.visible_bias));
  EXPECT_EQ(loaded.metadata["kind"], "classification-rbm");
  EXPECT_EQ(loaded.metadata["format_version"], 2);
  EXPECT_EQ(loaded.metadata["provenance"]["how"], "by hand");
  EXPECT_THAT(load_error(file), HasSubstr("not a plain RBM"));
  EXPECT_THAT(classification_load_error(good_file()), HasSubstr("is a plain RBM, not a classification-rbm"));
  EXPECT_EQ(load_rbm(good_file()).metadata["format_version"], 1);  // plain models keep format version 1
  EXPECT_THROW(save_classification_rbm(directory_ / "one.npz", ClassificationRbm{Rbm(5, 2), 1}, {}), InputError);
}

TEST_F(ModelFileErrors, ClassificationMetadataIsChecked) {
  save_classification_rbm(directory_ / "classifier.npz", ClassificationRbm{Rbm(5, 2), 3}, {});
  auto metadata = load_classification_rbm(directory_ / "classifier.npz").metadata;
  const auto variant = [&](const std::string& name, const std::string& key, const nlohmann::json& value) {
    auto members = decode_zip(read_file_bytes(directory_ / "classifier.npz"), "classifier");
    auto changed = metadata;
    changed[key] = value;
    for (auto& member : members)
      if (member.name == "metadata.json") member.bytes = changed.dump();
    write_output_file(directory_ / name, encode_zip(members));
    return directory_ / name;
  };
  EXPECT_THAT(classification_load_error(variant("text_classes.npz", "classes", "3")), HasSubstr("no integer classes"));
  EXPECT_THAT(classification_load_error(variant("no_input.npz", "classes", 5)), HasSubstr("leave no input"));
  EXPECT_THAT(classification_load_error(variant("number_kind.npz", "kind", 2)), HasSubstr("kind is not a string"));
  EXPECT_THAT(load_error(variant("other_kind.npz", "kind", "dbn")), HasSubstr("is a dbn, not a plain RBM"));
}

std::string mrf_load_error(const std::filesystem::path& file) {
  try {
    load_boltzmann_machine(file);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST_F(ModelFileErrors, BoltzmannMachineRoundTripsAndTheKindsRefuseEachOther) {
  BoltzmannMachine model = BoltzmannMachine::zeros(4);
  model.couplings << 0, 0.5, -1, 2, 0.5, 0, 0.25, 1e-300, -1, 0.25, 0, 3, 2, 1e-300, 3, 0;
  model.biases << -0.1, 1.0 / 3.0, 0, 7;
  const auto file = directory_ / "mrf.npz";
  save_boltzmann_machine(file, model, {{"how", "by hand"}});
  const LoadedBoltzmannMachine loaded = load_boltzmann_machine(file);
  EXPECT_TRUE(same_bits(loaded.model.couplings, model.couplings));
  EXPECT_TRUE(same_bits(loaded.model.biases, model.biases));
  EXPECT_EQ(loaded.metadata["kind"], "boltzmann-machine");
  EXPECT_EQ(loaded.metadata["format_version"], 3);
  EXPECT_EQ(loaded.metadata["n_units"], 4);
  EXPECT_EQ(loaded.metadata["provenance"]["how"], "by hand");
  // numpy reads the parameters by name, like an RBM's.
  std::vector<std::string> names;
  for (const auto& member : decode_zip(read_file_bytes(file), "mrf")) names.push_back(member.name);
  EXPECT_EQ(names, (std::vector<std::string>{"J.npy", "b.npy", "metadata.json"}));

  EXPECT_THAT(load_error(file), HasSubstr("mrf.npz: the model is a boltzmann-machine, not a plain RBM; it is a fully "
                                          "visible MRF: use rbmix mrf loglik"));
  EXPECT_THAT(classification_load_error(file), HasSubstr("is a boltzmann-machine, not a classification-rbm"));
  EXPECT_THAT(mrf_load_error(good_file()), HasSubstr("is a plain RBM, not a boltzmann-machine"));

  // An asymmetric J.npy is refused by the model's own check.
  auto members = decode_zip(read_file_bytes(file), "mrf");
  MatrixD asymmetric = model.couplings;
  asymmetric(0, 1) = 9;
  members[0].bytes = encode_npy(matrix_to_npy(asymmetric));
  write_output_file(directory_ / "asymmetric.npz", encode_zip(members));
  EXPECT_THAT(mrf_load_error(directory_ / "asymmetric.npz"), HasSubstr("not symmetric at (1, 0)"));
}

// The model.json that rbmix mrf train wrote before MRFs had a model file still reads.
TEST_F(ModelFileErrors, BoltzmannMachineLegacyJsonReads) {
  write_output_file(directory_ / "model.json",
                    R"({"convention": "...", "couplings": [[0, 1.5], [1.5, 0]], "biases": [0.25, -1]})");
  const LoadedBoltzmannMachine loaded = load_boltzmann_machine(directory_ / "model.json");
  EXPECT_EQ(loaded.model.couplings(0, 1), 1.5);
  EXPECT_EQ(loaded.model.biases, (VectorD(2) << 0.25, -1).finished());
  EXPECT_EQ(loaded.metadata["legacy_json"], true);
  write_output_file(directory_ / "ragged.json", R"({"couplings": [[0, 1.5], [1.5]], "biases": [0.25, -1]})");
  EXPECT_THAT(mrf_load_error(directory_ / "ragged.json"), HasSubstr("couplings row 1 has 1 entries, not 2"));
  write_output_file(directory_ / "other.json", R"({"weights": []})");
  EXPECT_THAT(mrf_load_error(directory_ / "other.json"), HasSubstr("not an MRF model.json"));
}

}  // namespace
}  // namespace rbmix
