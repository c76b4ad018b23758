// The serving load test (issue 15): C client threads each send R predict
// requests, one at a time, to `agc serve` on the loopback; each request
// carries rows that encode its own id, and its response must give exactly
// those rows back (the toy model is x * 1.0, and the ids are small integers
// bfloat16 holds exactly), so a lost, failed or mixed-up response is
// counted. Prints throughput and p50/p99 latency. Loopback only; bounded by
// count (C * R requests) and time (--seconds: clients stop sending after it).
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "runtime/api/json.h"

namespace {

struct Args {
  int port = 8501;
  std::string model = "toy";
  int clients = 8;
  int requests = 50;
  int rows = 1;
  double seconds = 60;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--port") a.port = std::atoi(v.c_str());
    else if (k == "--model") a.model = v;
    else if (k == "--clients") a.clients = std::atoi(v.c_str());
    else if (k == "--requests") a.requests = std::atoi(v.c_str());
    else if (k == "--rows") a.rows = std::atoi(v.c_str());
    else if (k == "--seconds") a.seconds = std::atof(v.c_str());
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      std::exit(2);
    }
  }
  return a;
}

/// Row r of request `id`: ten values from which the id can be read back.
std::vector<double> row(int id, int r) {
  std::vector<double> v(10);
  for (int j = 0; j < 10; ++j) v[j] = (j == 0) ? id % 256 : (j == 1) ? (id / 256) % 256 : (r * 10 + j) % 256;
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  Args a = parse(argc, argv);
  std::atomic<int> ok{0}, lost{0}, mixed{0};
  std::vector<std::vector<double>> latencies(static_cast<size_t>(a.clients));
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(a.seconds);
  std::vector<std::thread> threads;
  for (int c = 0; c < a.clients; ++c) {
    threads.emplace_back([&, c] {
      httplib::Client client("127.0.0.1", a.port);
      client.set_read_timeout(30, 0);
      client.set_keep_alive(true);  // one connection per client, as a serving client keeps
      client.set_tcp_nodelay(true);
      for (int i = 0; i < a.requests && std::chrono::steady_clock::now() < deadline; ++i) {
        const int id = c * a.requests + i;
        ag::json::Array instances;
        for (int r = 0; r < a.rows; ++r) {
          ag::json::Array values;
          for (double x : row(id, r)) values.emplace_back(x);
          instances.emplace_back(std::move(values));
        }
        std::string body = ag::json::write(ag::json::Object{{"instances", ag::json::Json(std::move(instances))}});
        auto t0 = std::chrono::steady_clock::now();
        auto res = client.Post(("/v1/models/" + a.model + ":predict").c_str(), body, "application/json");
        auto t1 = std::chrono::steady_clock::now();
        if (!res || res->status != 200) {
          if (lost++ == 0) {
            std::fprintf(stderr, "first lost request: %s\n",
                         res ? ("HTTP " + std::to_string(res->status) + " " + res->body).c_str()
                             : httplib::to_string(res.error()).c_str());
          }
          continue;
        }
        latencies[static_cast<size_t>(c)].push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        bool same = false;
        try {
          ag::json::Json out = ag::json::parse(res->body);
          const auto& preds = out.as_object().at(0).second.as_array();
          same = static_cast<int>(preds.size()) == a.rows;
          for (int r = 0; same && r < a.rows; ++r) {
            std::vector<double> want = row(id, r);
            const auto& got = preds[static_cast<size_t>(r)].as_array();
            for (size_t j = 0; same && j < want.size(); ++j) {
              same = got.size() == want.size() && got[j].is_float() && got[j].as_float() == want[j];
            }
          }
        } catch (const std::exception&) {
          same = false;
        }
        ++(same ? ok : mixed);
      }
    });
  }
  for (auto& t : threads) t.join();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<double> all;
  for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  std::sort(all.begin(), all.end());
  auto pct = [&](double p) { return all.empty() ? 0.0 : all[std::min(all.size() - 1, static_cast<size_t>(p * all.size()))]; };
  std::printf("clients %3d  requests %5d  rows %d  %7.1f req/s  p50 %7.2f ms  p99 %7.2f ms  lost %d  mixed %d\n",
              a.clients, ok + lost + mixed, a.rows, (ok + mixed) / secs, pct(0.50), pct(0.99), lost.load(), mixed.load());
  return lost + mixed == 0 ? 0 : 1;
}
