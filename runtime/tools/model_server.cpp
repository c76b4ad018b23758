#include "runtime/tools/model_server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <cstdio>
#include <filesystem>
#include <map>

#include "runtime/api/json.h"
#include "runtime/batching/batch_call.h"
#include "runtime/exec/tpu_emulator.h"
#include "runtime/api/program.h"
#include "runtime/api/python_api.h"
#include "runtime/core/error.h"
#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/core/saved_model_file.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/convert.h"

namespace ag::tools {
namespace {

/// A request the server refuses, with TF Serving's HTTP status.
struct BadRequest {
  int status;
  std::string message;
};

/// A request's value as a tensor of the input's dtype, converted as
/// tf.constant converts nested lists (TF's errors for ragged rows, bad types).
Tensor tensor_of(const json::Json& j, DType dtype) { return to_tensor(json_value(j), dtype).value(); }

const json::Json* member(const json::Json& object, const std::string& key) {
  for (const auto& [k, v] : object.as_object()) {
    if (k == key) return &v;
  }
  return nullptr;
}

class Server {
 public:
  explicit Server(const ServeOptions& o) : options_(o) {
    model_ = tf::api::saved_model_load({Value(o.model_dir)}, {});
    auto proto = read_saved_model(o.model_dir);
    for (const auto& [key, sig] : find_meta_graph(*proto, {}).signature_def()) {
      if (key == kInitOpSignature) continue;
      Signature& s = signatures_[key];
      for (const auto& [name, info] : sig.inputs()) {
        std::optional<DType> t = proto::dtype_of(info.dtype());
        if (!t) throw UnimplementedError("agc serve: input '" + name + "' of signature '" + key + "' has a dtype agc lacks");
        s.inputs[name] = *t;
      }
    }
  }

  /// The predict API: HTTP status, JSON body, and the request's TPU cost
  /// (B46's per-call record) for the X-Agc-Tpu-Call header, or "".
  struct Reply {
    int status;
    std::string body;
    std::string tpu_call;
  };
  Reply predict(const std::string& name, const std::string& body) {
    batching::reset_thread_batch_calls();
    tpu::reset_thread_tpu_cost();
    auto [status, reply] = answer(name, body);
    return {status, std::move(reply), tpu_call_record()};
  }

  std::pair<int, std::string> answer(const std::string& name, const std::string& body) {
    try {
      if (name != options_.model_name) throw BadRequest{404, "Servable not found for request: Latest(" + name + ")"};
      json::Json req;
      try {
        req = json::parse(body);
      } catch (const json::JsonError& e) {
        throw BadRequest{400, std::string("JSON Parse error: ") + e.what()};
      }
      if (!req.is_object()) throw BadRequest{400, "Request body must be a JSON object"};
      std::string key = kDefaultServingSignature;
      if (const json::Json* s = member(req, "signature_name")) {
        if (!s->is_string()) throw BadRequest{400, "'signature_name' must be a string"};
        key = s->as_string();
      }
      auto sig = signatures_.find(key);
      if (sig == signatures_.end()) throw BadRequest{400, "Serving signature key \"" + key + "\" not found."};
      const json::Json* instances = member(req, "instances");
      const json::Json* inputs = member(req, "inputs");
      if ((instances == nullptr) == (inputs == nullptr)) {
        throw BadRequest{400, "Missing 'inputs' or 'instances' key"};
      }
      Kwargs kwargs = instances ? row_inputs(*instances, sig->second) : columnar_inputs(*inputs, sig->second);
      Value out = getitem(model_.getattr("signatures"), Value(key))({}, std::move(kwargs));
      std::vector<std::pair<std::string, Tensor>> outputs;
      for (const auto& [k, v] : out.as_dict().entries) outputs.emplace_back(str(k), v.as_tensor().value());
      return {200, json::write(instances ? row_outputs(outputs) : columnar_outputs(outputs))};
    } catch (const BadRequest& e) {
      return {e.status, json::write(json::Object{{"error", e.message}})};
    } catch (const Error& e) {
      return {400, json::write(json::Object{{"error", std::string(e.type_name()) + ": " + e.what()}})};
    }
  }

  /// This thread's request as B46 records it [E]: through a BatchFunction,
  /// its batches' device time and bytes, padded sizes and the longest queue
  /// wait; else its TPU calls' time and bytes; "" when it ran none.
  static std::string tpu_call_record() {
    char text[256];
    const batching::ThreadBatchCalls batched = batching::thread_batch_calls();
    if (batched.calls > 0) {
      const batching::BatchCallRecord& sum = batched.record;
      std::snprintf(text, sizeof text, "device_time_us=%.3f; h2d_bytes=%lld; d2h_bytes=%lld; padded_batch=%lld; queue_wait_us=%lld",
                    sum.device_time_us, static_cast<long long>(sum.h2d_bytes), static_cast<long long>(sum.d2h_bytes),
                    static_cast<long long>(sum.padded_batch), static_cast<long long>(sum.queue_wait_us));
      return text;
    }
    const tpu::ThreadTpuCost own = tpu::thread_tpu_cost();
    if (own.calls == 0) return "";
    std::snprintf(text, sizeof text, "device_time_us=%.3f; h2d_bytes=%lld; d2h_bytes=%lld",
                  own.cost.total_seconds() * 1e6, static_cast<long long>(own.cost.h2d_bytes),
                  static_cast<long long>(own.cost.d2h_bytes));
    return text;
  }

  std::string status() const {
    json::Object ok{{"error_code", "OK"}, {"error_message", ""}};
    json::Object version{{"version", "1"}, {"state", "AVAILABLE"}, {"status", json::Json(std::move(ok))}};
    return json::write(json::Object{{"model_version_status", json::Array{json::Json(std::move(version))}}});
  }

 private:
  struct Signature {
    std::map<std::string, DType> inputs;
  };

  static Kwargs row_inputs(const json::Json& instances, const Signature& s) {
    if (!instances.is_array() || instances.as_array().empty()) throw BadRequest{400, "'instances' must be a non-empty list"};
    Kwargs kwargs;
    const auto& rows = instances.as_array();
    if (s.inputs.size() == 1 && !rows[0].is_object()) {
      const auto& [name, dtype] = *s.inputs.begin();
      kwargs.emplace_back(name, Value(TensorHandle(tensor_of(instances, dtype))));
      return kwargs;
    }
    for (const auto& [name, dtype] : s.inputs) {
      json::Array column;
      for (const json::Json& row : rows) {
        const json::Json* v = row.is_object() ? member(row, name) : nullptr;
        if (v == nullptr) throw BadRequest{400, "Failed to process element: 0 key: " + name + " of 'instances' list."};
        column.push_back(*v);
      }
      kwargs.emplace_back(name, Value(TensorHandle(tensor_of(json::Json(std::move(column)), dtype))));
    }
    return kwargs;
  }

  static Kwargs columnar_inputs(const json::Json& inputs, const Signature& s) {
    Kwargs kwargs;
    if (!inputs.is_object()) {
      if (s.inputs.size() != 1) throw BadRequest{400, "'inputs' must name each of the signature's inputs"};
      kwargs.emplace_back(s.inputs.begin()->first, Value(TensorHandle(tensor_of(inputs, s.inputs.begin()->second))));
      return kwargs;
    }
    for (const auto& [name, dtype] : s.inputs) {
      const json::Json* v = member(inputs, name);
      if (v == nullptr) throw BadRequest{400, "Missing input: " + name};
      kwargs.emplace_back(name, Value(TensorHandle(tensor_of(*v, dtype))));
    }
    return kwargs;
  }

  static json::Json row_outputs(const std::vector<std::pair<std::string, Tensor>>& outputs) {
    int64_t rows = -1;
    for (const auto& [k, t] : outputs) {
      if (t.shape().rank() < 1) throw BadRequest{400, "Output '" + k + "' has no batch dimension for row format"};
      if (rows >= 0 && t.shape().dim(0) != rows) throw BadRequest{400, "Outputs differ in their batch size"};
      rows = t.shape().dim(0);
    }
    std::vector<json::Json> per_output;
    for (const auto& [k, t] : outputs) per_output.push_back(tensor_elements_json(t));
    json::Array predictions;
    for (int64_t r = 0; r < rows; ++r) {
      if (outputs.size() == 1) {
        predictions.push_back(per_output[0].as_array()[static_cast<size_t>(r)]);
        continue;
      }
      json::Object row;
      for (size_t o = 0; o < outputs.size(); ++o) row.emplace_back(outputs[o].first, per_output[o].as_array()[static_cast<size_t>(r)]);
      predictions.push_back(json::Json(std::move(row)));
    }
    return json::Object{{"predictions", json::Json(std::move(predictions))}};
  }

  static json::Json columnar_outputs(const std::vector<std::pair<std::string, Tensor>>& outputs) {
    if (outputs.size() == 1) return json::Object{{"outputs", tensor_elements_json(outputs[0].second)}};
    json::Object named;
    for (const auto& [k, t] : outputs) named.emplace_back(k, tensor_elements_json(t));
    return json::Object{{"outputs", json::Json(std::move(named))}};
  }

  ServeOptions options_;
  Value model_;
  std::map<std::string, Signature> signatures_;
};

}  // namespace

void serve(const ServeOptions& given) {
  ServeOptions o = given;
  if (o.model_name.empty()) o.model_name = std::filesystem::path(o.model_dir).filename().string();
  Server server(o);
  httplib::Server http;
  const int threads = o.threads;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  // Serving clients keep their connection (httplib closes one after 5 requests by default).
  http.set_keep_alive_max_count(1 << 20);
  http.set_tcp_nodelay(true);  // a response is one write; Nagle would hold it for the client's ACK
  const std::string route = R"(/v1/models/([^/:]+)(?:/versions/[0-9]+)?)";
  http.Post(route + ":predict", [&](const httplib::Request& req, httplib::Response& res) {
    Server::Reply reply = server.predict(req.matches[1], req.body);
    res.status = reply.status;
    if (!reply.tpu_call.empty()) res.set_header("X-Agc-Tpu-Call", reply.tpu_call);
    res.set_content(reply.body, "application/json");
  });
  http.Get(route, [&](const httplib::Request& req, httplib::Response& res) {
    if (req.matches[1] != o.model_name) {
      res.status = 404;
      res.set_content(json::write(json::Object{{"error", "Servable not found for request: Latest(" +
                                                         std::string(req.matches[1]) + ")"}}),
                      "application/json");
      return;
    }
    res.set_content(server.status(), "application/json");
  });
  // httplib listens with a backlog of 5: a burst of clients connecting at
  // once would see dropped handshakes (retried a second later) and resets.
  // Its socket-options hook hands us the socket, which listens again with
  // a real backlog once bound.
  int listening = -1;
  http.set_socket_options([&listening](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    listening = sock;
  });
  if (!http.bind_to_port(o.host, o.port)) {
    throw OSError("agc serve: cannot listen on " + o.host + ":" + std::to_string(o.port));
  }
  if (listening >= 0) ::listen(listening, 1024);
  std::fprintf(stderr, "agc serve: model '%s' from %s at http://%s:%d/v1/models/%s:predict\n", o.model_name.c_str(),
               o.model_dir.c_str(), o.host.c_str(), o.port, o.model_name.c_str());
  http.listen_after_bind();
}

}  // namespace ag::tools
