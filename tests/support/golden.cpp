#include "tests/support/golden.h"

#include <algorithm>
#include <regex>
#include <sstream>

namespace agc::testing {

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : text) {
    if (c == '\n') {
      lines.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) lines.push_back(cur);
  return lines;
}

bool is_header(const std::string& line, std::string& name) {
  if (line.size() < 8 || line.rfind("=== ", 0) != 0 || line.compare(line.size() - 4, 4, " ===") != 0) return false;
  name = line.substr(4, line.size() - 8);
  return true;
}

std::string join(const std::vector<std::string>& lines, size_t b, size_t e) {
  std::string out;
  for (size_t i = b; i < e; ++i) {
    out += lines[i];
    out += '\n';
  }
  return out;
}

}  // namespace

std::string rstrip(const std::string& s) {
  size_t e = s.find_last_not_of(" \t\r\n");
  return e == std::string::npos ? "" : s.substr(0, e + 1);
}

std::vector<GoldenCase> parse_golden(const std::string& text, std::string& error) {
  std::vector<GoldenCase> cases;
  auto lines = split_lines(text);
  size_t i = 0;
  while (i < lines.size() && rstrip(lines[i]).empty()) ++i;
  while (i < lines.size()) {
    GoldenCase c;
    if (!is_header(lines[i], c.name)) {
      error = "line " + std::to_string(i + 1) + ": expected '=== case name ==='";
      return {};
    }
    c.line = static_cast<int>(i + 1);
    ++i;
    for (; i < lines.size(); ++i) {
      if (lines[i] == "source: tf") {
        c.from_tf = true;
      } else if (lines[i].rfind("options:", 0) == 0) {
        std::istringstream ss(lines[i].substr(8));
        std::string o;
        while (ss >> o) c.options.push_back(o);
      } else {
        break;
      }
    }
    size_t input_begin = i;
    while (i < lines.size() && lines[i] != "---") ++i;
    if (i == lines.size()) {
      error = "case '" + c.name + "' (line " + std::to_string(c.line) + ") has no '---' separator";
      return {};
    }
    c.input = join(lines, input_begin, i);
    ++i;
    size_t expected_begin = i;
    std::string dummy;
    while (i < lines.size() && !is_header(lines[i], dummy)) ++i;
    c.expected = rstrip(join(lines, expected_begin, i));
    cases.push_back(std::move(c));
  }
  return cases;
}

std::string format_golden(const std::vector<GoldenCase>& cases) {
  std::string out;
  for (size_t k = 0; k < cases.size(); ++k) {
    const auto& c = cases[k];
    if (k) out += '\n';
    out += "=== " + c.name + " ===\n";
    if (c.from_tf) out += "source: tf\n";
    if (!c.options.empty()) {
      out += "options:";
      for (const auto& o : c.options) out += " " + o;
      out += '\n';
    }
    out += c.input;
    if (!c.input.empty() && c.input.back() != '\n') out += '\n';
    out += "---\n";
    out += c.expected;
    out += '\n';
  }
  return out;
}

std::string canonicalize_set_order(const std::string& code) {
  static const std::regex decl(R"(^(\s*)(nonlocal|global) (.*)$)");
  static const std::regex undefined(R"(^\s*([A-Za-z_][A-Za-z0-9_]*) = ag__\.Undefined\('\1'\)$)");
  auto lines = split_lines(code);
  for (auto& line : lines) {
    std::smatch m;
    if (std::regex_match(line, m, decl)) {
      std::vector<std::string> names;
      std::stringstream ss(m[3].str());
      std::string n;
      while (std::getline(ss, n, ',')) {
        n.erase(0, n.find_first_not_of(' '));
        names.push_back(n);
      }
      std::sort(names.begin(), names.end());
      std::string joined;
      for (size_t i = 0; i < names.size(); ++i) joined += (i ? ", " : "") + names[i];
      line = m[1].str() + m[2].str() + " " + joined;
    }
  }
  for (size_t i = 0; i < lines.size();) {
    if (!std::regex_match(lines[i], undefined)) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < lines.size() && std::regex_match(lines[j], undefined)) ++j;
    std::sort(lines.begin() + static_cast<long>(i), lines.begin() + static_cast<long>(j));
    i = j;
  }
  std::string out = join(lines, 0, lines.size());
  if (!code.empty() && code.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

}  // namespace agc::testing
