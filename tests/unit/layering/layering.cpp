#include "tests/unit/layering/layering.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace agc::layering {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, sep)) {
    size_t b = item.find_first_not_of(" \t`");
    size_t e = item.find_last_not_of(" \t`.");
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
  }
  return out;
}

bool is_source(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".h" || ext == ".cpp" || ext == ".def";
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The quoted includes of a file, in order.
std::vector<std::string> includes_of(const std::string& text) {
  static const std::regex include_line(R"re(^[ \t]*#[ \t]*include[ \t]*"([^"]+)")re", std::regex::multiline);
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), include_line); it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[1].str());
  }
  return out;
}

bool matches(const std::string& path, const std::string& pattern) {
  if (pattern.rfind("*.", 0) == 0) {
    std::string ext = pattern.substr(1);
    return path.size() >= ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
  }
  return path == pattern;
}

}  // namespace

Rules parse_rules(const std::string& architecture_md) {
  Rules rules;
  static const std::regex order_line(R"(Layer order of ([a-z_]+): ([^\n]+))");
  for (auto it = std::sregex_iterator(architecture_md.begin(), architecture_md.end(), order_line);
       it != std::sregex_iterator(); ++it) {
    std::vector<std::string> layers = split((*it)[2].str(), '<');
    if (layers.size() < 2) throw std::runtime_error("architecture.md: a layer order needs two layers or more");
    rules.orders.emplace_back((*it)[1].str(), std::move(layers));
  }
  static const std::regex allowed_line(R"(The ([a-z_]+) includes from the ([a-z_]+) only: ([^\n]+))");
  for (auto it = std::sregex_iterator(architecture_md.begin(), architecture_md.end(), allowed_line);
       it != std::sregex_iterator(); ++it) {
    rules.may_include[{(*it)[1].str(), (*it)[2].str()}] = split((*it)[3].str(), ',');
  }
  if (rules.orders.empty()) throw std::runtime_error("architecture.md states no 'Layer order of ...' line");
  return rules;
}

std::vector<std::string> check(const fs::path& root, const Rules& rules) {
  std::vector<std::string> problems;
  std::map<std::string, size_t> component_index;
  for (size_t i = 0; i < rules.orders.size(); ++i) component_index[rules.orders[i].first] = i;

  // Every file of every component, by its path as includes spell it.
  std::map<std::string, std::vector<std::string>> files;
  for (const auto& [component, layers] : rules.orders) {
    if (!fs::is_directory(root / component)) {
      problems.push_back(component + "/: the layer order names a component that does not exist");
      continue;
    }
    for (const auto& entry : fs::directory_iterator(root / component)) {
      std::string name = entry.path().filename().string();
      if (entry.is_directory() && std::find(layers.begin(), layers.end(), name) == layers.end()) {
        problems.push_back(component + "/" + name + "/: a directory missing from the layer order of " + component);
      }
    }
    for (const auto& entry : fs::recursive_directory_iterator(root / component)) {
      if (!entry.is_regular_file() || !is_source(entry.path())) continue;
      std::string rel = fs::relative(entry.path(), root).generic_string();
      files[rel] = includes_of(read(entry.path()));
    }
  }

  auto locate = [&](const std::string& path) -> std::pair<std::string, std::string> {
    size_t a = path.find('/');
    if (a == std::string::npos) return {};
    size_t b = path.find('/', a + 1);
    return {path.substr(0, a), b == std::string::npos ? std::string() : path.substr(a + 1, b - a - 1)};
  };
  auto rank = [&](const std::string& component, const std::string& layer) -> long {
    const auto& layers = rules.orders[component_index.at(component)].second;
    auto it = std::find(layers.begin(), layers.end(), layer);
    return it == layers.end() ? -1 : it - layers.begin();
  };

  for (const auto& [file, includes] : files) {
    auto [component, layer] = locate(file);
    long own = rank(component, layer);
    if (own < 0) {
      problems.push_back(file + ": outside every layer of " + component);
      continue;
    }
    for (const std::string& inc : includes) {
      auto [inc_component, inc_layer] = locate(inc);
      if (!component_index.count(inc_component)) continue;  // a generated or system header
      if (inc_component != component) {
        auto patterns = rules.may_include.find({component, inc_component});
        bool allowed = patterns != rules.may_include.end() &&
                       std::any_of(patterns->second.begin(), patterns->second.end(),
                                   [&](const std::string& p) { return matches(inc, p); });
        if (!allowed) problems.push_back(file + ": includes " + inc + ", which " + component + " may not include");
        continue;
      }
      long theirs = rank(inc_component, inc_layer);
      if (theirs > own) {
        problems.push_back(file + ": includes " + inc + " (layer " + inc_layer + " comes after " + layer + ")");
      }
    }
  }

  // Include cycles: a depth-first walk that reports each back edge's loop once.
  std::map<std::string, int> state;  // 0 unseen, 1 on the stack, 2 done
  std::vector<std::string> stack;
  std::set<std::set<std::string>> reported;
  std::function<void(const std::string&)> visit = [&](const std::string& f) {
    state[f] = 1;
    stack.push_back(f);
    for (const std::string& inc : files[f]) {
      if (!files.count(inc)) continue;
      if (state[inc] == 1) {
        auto from = std::find(stack.begin(), stack.end(), inc);
        std::set<std::string> members(from, stack.end());
        if (reported.insert(members).second) {
          std::string loop;
          for (auto it = from; it != stack.end(); ++it) loop += *it + " -> ";
          problems.push_back("include cycle: " + loop + inc);
        }
      } else if (state[inc] == 0) {
        visit(inc);
      }
    }
    stack.pop_back();
    state[f] = 2;
  };
  for (const auto& entry : files) {
    if (state[entry.first] == 0) visit(entry.first);
  }
  return problems;
}

}  // namespace agc::layering
