// `agc serve DIR --port N`: TensorFlow Serving's REST predict API over a
// SavedModel (converted for the TPU or not), so the seed's serving story runs
// on one machine. POST /v1/models/NAME:predict (or /v1/models/NAME/versions/
// V:predict) takes TF Serving's request bodies:
//   {"signature_name": "...", "instances": [...]}   row format: one
//       instance per batch row, an object of named inputs or, for a
//       one-input signature, the value itself; answered {"predictions": [...]}
//       (per row: the value, or an object of named outputs);
//   {"signature_name": "...", "inputs": ...}        columnar format: the
//       batched value, or an object of them; answered {"outputs": ...}.
// GET /v1/models/NAME answers the model's status. A bad request is HTTP 400
// with {"error": "..."}. Requests are served by a pool of threads calling the
// signature concurrently, so a converted model's BatchFunction gathers them.
#pragma once

#include <string>

namespace ag::tools {

struct ServeOptions {
  std::string model_dir;
  std::string model_name;  // default: the directory's name
  std::string host = "127.0.0.1";
  int port = 8501;         // TF Serving's REST port
  int threads = 64;        // concurrent requests in flight
};

/// Loads the model and serves until the process is stopped. Errors loading
/// the model are thrown; a port that cannot be bound is OSError.
void serve(const ServeOptions& options);

}  // namespace ag::tools
