// tf.quantization.experimental.TfRecordRepresentativeDatasetSaver: a
// representative dataset (per signature key, an iterable of samples, each a
// dict of input key to tensor-like value) written as the TFRecord file of
// RepresentativeDataSample records the converter's calibration reads
// (tpu/quantization). save() returns, per key, an object whose
// tfrecord_file_path names the file (TF returns RepresentativeDatasetFile
// protos with that field).
#include <memory>

#include "runtime/api/binding.h"
#include "runtime/api/python_api.h"
#include "runtime/core/proto/representative_dataset.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/core/tfrecord.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"

namespace ag {
namespace {

const Value& dataset_file_class() {
  static const Value cls = make_class("RepresentativeDatasetFile", {}, {});
  return cls;
}

/// One sample as a record: every value converted as tf.constant converts it.
std::string sample_record(const Value& sample) {
  if (!sample.is_dict()) {
    throw TypeError("A representative sample must be a dict of input key to tensor, got " + sample.type_name());
  }
  tensorflow::quantization::RepresentativeDataSample proto;
  for (const auto& [key, value] : sample.as_dict().entries) {
    if (!key.is_str()) throw TypeError("Representative sample keys must be str, got " + key.type_name());
    TensorHandle t = to_tensor(value);
    if (t.symbolic()) throw TypeError("A representative sample needs concrete values, not symbolic tensors");
    proto::write_tensor(t.value(), &(*proto.mutable_tensor_proto_inputs())[key.as_str()]);
  }
  return proto.SerializeAsString();
}

}  // namespace

namespace tf {

const Value& api::quantization_experimental_TfRecordRepresentativeDatasetSaver() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    attrs.push_back(native_method("TfRecordRepresentativeDatasetSaver.__init__", "__init__",
                                  {self, {"path_map", std::nullopt}}, [](const std::vector<Value>& a) {
                                    if (!a[1].is_dict()) {
                                      throw TypeError("path_map must be a dict of signature key to path, got " +
                                                      a[1].type_name());
                                    }
                                    a[0].setattr("path_map", a[1]);
                                    return Value();
                                  }));
    attrs.push_back(native_method(
        "TfRecordRepresentativeDatasetSaver.save", "save", {self, {"representative_dataset", std::nullopt}},
        [](const std::vector<Value>& a) {
          const Value& paths = a[0].getattr("path_map");
          const Value& datasets = a[1];
          if (!datasets.is_dict()) {
            throw TypeError("representative_dataset must be a dict of signature key to samples, got " +
                            datasets.type_name());
          }
          std::vector<std::pair<Value, Value>> files;
          for (const auto& [key, samples] : datasets.as_dict().entries) {
            const Value* path = nullptr;
            for (const auto& [k, p] : paths.as_dict().entries) {
              if (k.is_str() && key.is_str() && k.as_str() == key.as_str()) path = &p;
            }
            if (path == nullptr) {
              // TF raises ValueError with two arguments, printed as a tuple.
              throw ValueError("('SignatureDef key does not exist in the provided path_map:', " + repr(key) + ")");
            }
            const std::string& file = ag::api::str_arg(*path, "path_map value");
            TFRecordWriter writer(file);
            for (const Value& sample : iterate(samples)) writer.write(sample_record(sample));
            writer.close();
            Value out = dataset_file_class()({});
            out.setattr("tfrecord_file_path", Value(file));
            files.emplace_back(key, out);
          }
          return Value::dict(std::move(files));
        }));
    return make_class("TfRecordRepresentativeDatasetSaver", {}, std::move(attrs));
  }();
  return cls;
}

}  // namespace tf
}  // namespace ag
