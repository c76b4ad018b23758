// Methods of builtin kinds as bound callables, so `l.append(x)` is
// getattr(l, "append")(x): list, dict and str methods with Python's
// behaviour and error texts. dict.keys()/values()/items() return lists (the
// views' iteration order and contents, not their repr).
#include <algorithm>

#include "runtime/value/bytes_value.h"
#include "runtime/value/exception_value.h"
#include "runtime/value/set_value.h"
#include "runtime/value/user_function.h"
#include "runtime/value/value.h"

namespace ag {
namespace {

void arity(const std::string& name, const std::vector<Value>& a, size_t lo, size_t hi) {
  if (a.size() >= lo && a.size() <= hi) return;
  if (lo == hi) {
    throw TypeError(name + "() takes exactly " + (lo == 1 ? std::string("one argument") : std::to_string(lo) +
                    " arguments") + " (" + std::to_string(a.size()) + " given)");
  }
  if (a.size() < lo) {
    throw TypeError(name + " expected at least " + std::to_string(lo) + " argument" + (lo == 1 ? "" : "s") + ", got " +
                    std::to_string(a.size()));
  }
  throw TypeError(name + " expected at most " + std::to_string(hi) + " argument" + (hi == 1 ? "" : "s") + ", got " +
                  std::to_string(a.size()));
}

Value bound(const Value& self, const std::string& name,
            std::function<Value(const Value& self, std::vector<Value>& args)> fn) {
  return Value::callable(name, [self, fn = std::move(fn), name](std::vector<Value> args, Kwargs kwargs) {
    if (!kwargs.empty()) throw TypeError(name + "() takes no keyword arguments");
    return fn(self, args);
  });
}

int64_t norm_index(int64_t i, int64_t n) {
  if (i < 0) i += n;
  return i;
}

std::optional<Value> list_method(const Value& self, std::string_view name) {
  std::string n(name);
  if (self.is_tuple() && name != "index" && name != "count") return std::nullopt;
  if (name == "append") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("list.append", a, 1, 1);
      s.items().push_back(a[0]);
      return Value();
    });
  }
  if (name == "extend") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("list.extend", a, 1, 1);
      std::vector<Value> more = iterate(a[0]);
      s.items().insert(s.items().end(), more.begin(), more.end());
      return Value();
    });
  }
  if (name == "pop") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("pop", a, 0, 1);
      std::vector<Value>& items = s.items();
      if (items.empty()) throw IndexError("pop from empty list");
      int64_t i = norm_index(a.empty() ? -1 : a[0].as_int(), static_cast<int64_t>(items.size()));
      if (i < 0 || i >= static_cast<int64_t>(items.size())) throw IndexError("pop index out of range");
      Value v = items[static_cast<size_t>(i)];
      items.erase(items.begin() + i);
      return v;
    });
  }
  if (name == "insert") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("insert", a, 2, 2);
      std::vector<Value>& items = s.items();
      int64_t sz = static_cast<int64_t>(items.size());
      int64_t i = norm_index(a[0].as_int(), sz);
      i = std::clamp<int64_t>(i, 0, sz);
      items.insert(items.begin() + i, a[1]);
      return Value();
    });
  }
  if (name == "index" || name == "count") {
    bool index = name == "index";
    return bound(self, n, [index](const Value& s, std::vector<Value>& a) {
      arity(index ? "index" : "list.count", a, 1, 1);
      int64_t count = 0;
      const std::vector<Value>& items = s.items();
      for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].is(a[0]) || (!items[i].is_tensor() && !a[0].is_tensor() && py_equal(items[i], a[0]))) {
          if (index) return Value(static_cast<int64_t>(i));
          ++count;
        }
      }
      if (index) throw ValueError(repr(a[0]) + " is not in " + (s.is_list() ? "list" : "tuple"));
      return Value(count);
    });
  }
  if (name == "clear") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("list.clear", a, 0, 0);
      s.items().clear();
      return Value();
    });
  }
  if (name == "copy") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("list.copy", a, 0, 0);
      return Value::list(s.items());
    });
  }
  if (name == "reverse") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("list.reverse", a, 0, 0);
      std::reverse(s.items().begin(), s.items().end());
      return Value();
    });
  }
  if (name == "sort") {
    // list.sort(*, key=None, reverse=False): stable both ways, as CPython's.
    return Value::callable(n, [self](std::vector<Value> args, Kwargs kwargs) {
      if (!args.empty()) throw TypeError("sort() takes no positional arguments");
      Value key, reverse(false);
      for (auto& [k, v] : kwargs) {
        if (k == "key") key = v;
        else if (k == "reverse") reverse = v;
        else throw TypeError("'" + k + "' is an invalid keyword argument for sort()");
      }
      std::vector<Value>& items = self.items();
      std::vector<Value> keys;
      for (const Value& x : items) keys.push_back(key.is_none() ? x : key({x}, {}));
      std::vector<size_t> order(items.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      bool desc = truthy(reverse);
      std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        return desc ? truthy(keys[y] < keys[x]) : truthy(keys[x] < keys[y]);
      });
      std::vector<Value> sorted;
      for (size_t i : order) sorted.push_back(items[i]);
      items = std::move(sorted);
      return Value();
    });
  }
  return std::nullopt;
}

/// Counter.update / subtract: counts from a mapping or an iterable of keys, added with `sign`.
void count_into(DictObj& d, const Value& source, int sign) {
  auto add = [&](const Value& k, const Value& n) {
    Value current = d.find(k) >= 0 ? d.at(k) : Value(0);
    d.set(k, sign > 0 ? current + n : current - n);
  };
  if (source.is_dict()) {
    for (const auto& [k, n] : source.as_dict().entries) add(k, n);
    return;
  }
  for (const Value& k : iterate(source)) add(k, Value(1));
}

/// The methods only the collections module's dict subclasses have.
std::optional<Value> dict_flavor_method(const Value& self, const std::string& n) {
  using Flavor = DictObj::Flavor;
  Flavor flavor = self.as_dict().flavor;
  if (flavor == Flavor::OrderedDict && n == "move_to_end") {
    return Value::callable(n, [self](std::vector<Value> a, Kwargs kw) {
      bool last = true;
      for (auto& [k, v] : kw) {
        if (k != "last") throw TypeError("move_to_end() got an unexpected keyword argument '" + k + "'");
        a.push_back(v);
      }
      arity("move_to_end", a, 1, 2);
      if (a.size() > 1) last = truthy(a[1]);
      DictObj& d = self.as_dict();
      Value v = d.at(a[0]);
      d.erase(a[0]);
      if (last) {
        d.set(a[0], v);  // a new key goes last
        return Value();
      }
      std::vector<std::pair<Value, Value>> rest = std::move(d.entries);
      d.clear();
      d.set(a[0], v);
      for (auto& [k, x] : rest) d.set(k, x);
      return Value();
    });
  }
  if (flavor != Flavor::Counter) return std::nullopt;
  if (n == "most_common") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("most_common", a, 0, 1);
      std::vector<std::pair<Value, Value>> common = counter_most_common(s);
      size_t k = common.size();
      if (!a.empty() && !a[0].is_none()) k = static_cast<size_t>(std::clamp<int64_t>(a[0].as_int(), 0, static_cast<int64_t>(k)));
      std::vector<Value> out;
      for (size_t i = 0; i < k; ++i) out.push_back(Value::tuple({common[i].first, common[i].second}));
      return Value::list(std::move(out));
    });
  }
  if (n == "elements") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("Counter.elements", a, 0, 0);
      std::vector<Value> out;
      for (const auto& [k, c] : s.as_dict().entries) {
        for (int64_t i = 0; i < c.as_int(); ++i) out.push_back(k);
      }
      return Value::list(std::move(out));
    });
  }
  if (n == "update" || n == "subtract") {
    int sign = n == "update" ? 1 : -1;
    return Value::callable(n, [self, sign, n](std::vector<Value> a, Kwargs kw) {
      arity(n, a, 0, 1);
      if (!a.empty()) count_into(self.as_dict(), a[0], sign);
      for (auto& [k, v] : kw) count_into(self.as_dict(), Value::dict({{Value(k), v}}), sign);
      return Value();
    });
  }
  if (n == "total") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("Counter.total", a, 0, 0);
      Value sum(0);
      for (const auto& [k, c] : s.as_dict().entries) sum = sum + c;
      return sum;
    });
  }
  return std::nullopt;
}

std::optional<Value> dict_method(const Value& self, std::string_view name) {
  std::string n(name);
  if (std::optional<Value> m = dict_flavor_method(self, n)) return m;
  auto listing = [&](int which) {
    return bound(self, n, [which, n](const Value& s, std::vector<Value>& a) {
      arity("dict." + n, a, 0, 0);
      std::vector<Value> out;
      for (const auto& [k, v] : s.as_dict().entries) {
        out.push_back(which == 0 ? k : which == 1 ? v : Value::tuple({k, v}));
      }
      return Value::list(std::move(out));
    });
  };
  if (name == "keys") return listing(0);
  if (name == "values") return listing(1);
  if (name == "items") return listing(2);
  if (name == "get") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("get", a, 1, 2);
      int64_t i = s.as_dict().find(a[0]);
      if (i < 0) return a.size() > 1 ? a[1] : Value();
      return s.as_dict().entries[static_cast<size_t>(i)].second;
    });
  }
  if (name == "pop") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("pop", a, 1, 2);
      int64_t i = s.as_dict().find(a[0]);
      if (i < 0) {
        if (a.size() > 1) return a[1];
        raise_key_error(a[0]);
      }
      Value v = s.as_dict().entries[static_cast<size_t>(i)].second;
      s.as_dict().erase(a[0]);
      return v;
    });
  }
  if (name == "setdefault") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("setdefault", a, 1, 2);
      int64_t i = s.as_dict().find(a[0]);
      if (i >= 0) return s.as_dict().entries[static_cast<size_t>(i)].second;
      Value d = a.size() > 1 ? a[1] : Value();
      s.as_dict().set(a[0], d);
      return d;
    });
  }
  if (name == "update") {
    // dict.update([other], **kwargs): the keywords after `other`.
    return Value::callable(n, [self](std::vector<Value> a, Kwargs kwargs) {
      const Value& s = self;
      arity("update", a, 0, 1);
      if (a.empty()) {
        for (auto& [k, v] : kwargs) s.as_dict().set(Value(k), v);
        return Value();
      }
      if (a[0].is_dict()) {
        for (const auto& [k, v] : a[0].as_dict().entries) s.as_dict().set(k, v);
      } else {
        for (const Value& kv : iterate(a[0])) {
          std::vector<Value> pair = iterate(kv);
          if (pair.size() != 2) {
            throw ValueError("dictionary update sequence element has length " + std::to_string(pair.size()) +
                             "; 2 is required");
          }
          s.as_dict().set(pair[0], pair[1]);
        }
      }
      for (auto& [k, v] : kwargs) s.as_dict().set(Value(k), v);
      return Value();
    });
  }
  if (name == "copy") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("dict.copy", a, 0, 0);
      Value out = Value::dict(s.as_dict().entries);
      out.as_dict().flavor = s.as_dict().flavor;
      out.as_dict().default_factory = s.as_dict().default_factory;
      return out;
    });
  }
  if (name == "popitem") {
    return Value::callable(n, [self](std::vector<Value> a, Kwargs kw) {
      DictObj& d = self.as_dict();
      bool ordered = d.flavor == DictObj::Flavor::OrderedDict;
      for (auto& [k, v] : kw) {
        if (!ordered || k != "last") throw TypeError("popitem() takes no keyword arguments");
        a.push_back(v);
      }
      arity("popitem", a, 0, ordered ? 1 : 0);
      if (d.size() == 0) raise_key_error(Value(ordered ? "dictionary is empty" : "popitem(): dictionary is empty"));
      bool last = a.empty() || truthy(a[0]);
      std::pair<Value, Value> e = last ? d.entries.back() : d.entries.front();
      d.erase(e.first);
      return Value::tuple({e.first, e.second});
    });
  }
  if (name == "clear") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("dict.clear", a, 0, 0);
      s.as_dict().clear();
      return Value();
    });
  }
  return std::nullopt;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::optional<Value> str_method(const Value& self, std::string_view name) {
  std::string n(name);
  if (name == "join") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("str.join", a, 1, 1);
      std::string out;
      std::vector<Value> parts = iterate(a[0]);
      for (size_t i = 0; i < parts.size(); ++i) {
        if (!parts[i].is_str()) {
          throw TypeError("sequence item " + std::to_string(i) + ": expected str instance, " + parts[i].type_name() +
                          " found");
        }
        if (i > 0) out += s.as_str();
        out += parts[i].as_str();
      }
      return Value(std::move(out));
    });
  }
  if (name == "split") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("split", a, 0, 1);
      const std::string& str = s.as_str();
      std::vector<Value> out;
      if (a.empty() || a[0].is_none()) {
        size_t i = 0;
        while (i < str.size()) {
          while (i < str.size() && is_space(str[i])) ++i;
          size_t j = i;
          while (j < str.size() && !is_space(str[j])) ++j;
          if (j > i) out.emplace_back(str.substr(i, j - i));
          i = j;
        }
      } else {
        const std::string& sep = a[0].as_str();
        if (sep.empty()) throw ValueError("empty separator");
        size_t i = 0, j;
        while ((j = str.find(sep, i)) != std::string::npos) {
          out.emplace_back(str.substr(i, j - i));
          i = j + sep.size();
        }
        out.emplace_back(str.substr(i));
      }
      return Value::list(std::move(out));
    });
  }
  if (name == "strip" || name == "lstrip" || name == "rstrip") {
    bool left = name != "rstrip", right = name != "lstrip";
    return bound(self, n, [left, right](const Value& s, std::vector<Value>& a) {
      arity("strip", a, 0, 1);
      const std::string& str = s.as_str();
      auto drop = [&](char c) {
        return a.empty() || a[0].is_none() ? is_space(c) : a[0].as_str().find(c) != std::string::npos;
      };
      size_t b = 0, e = str.size();
      while (left && b < e && drop(str[b])) ++b;
      while (right && e > b && drop(str[e - 1])) --e;
      return Value(str.substr(b, e - b));
    });
  }
  if (name == "upper" || name == "lower") {
    bool up = name == "upper";
    return bound(self, n, [up](const Value& s, std::vector<Value>& a) {
      arity(up ? "str.upper" : "str.lower", a, 0, 0);
      std::string out = s.as_str();
      for (char& c : out) {
        if (up && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        if (!up && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      }
      return Value(std::move(out));
    });
  }
  if (name == "startswith" || name == "endswith") {
    bool start = name == "startswith";
    return bound(self, n, [start](const Value& s, std::vector<Value>& a) {
      arity(start ? "startswith" : "endswith", a, 1, 1);
      const std::string& str = s.as_str();
      std::vector<Value> options = a[0].is_tuple() ? a[0].items() : std::vector<Value>{a[0]};
      for (const Value& o : options) {
        const std::string& p = o.as_str();
        if (p.size() <= str.size() && (start ? str.compare(0, p.size(), p) == 0
                                             : str.compare(str.size() - p.size(), p.size(), p) == 0)) {
          return Value(true);
        }
      }
      return Value(false);
    });
  }
  if (name == "replace") {
    return bound(self, n, [](const Value& s, std::vector<Value>& a) {
      arity("replace", a, 2, 2);
      std::string str = s.as_str();
      const std::string& from = a[0].as_str();
      const std::string& to = a[1].as_str();
      if (from.empty()) throw NotImplementedError("str.replace with an empty pattern is not supported");
      std::string out;
      size_t i = 0, j;
      while ((j = str.find(from, i)) != std::string::npos) {
        out += str.substr(i, j - i) + to;
        i = j + from.size();
      }
      return Value(out + str.substr(i));
    });
  }
  if (name == "find" || name == "rfind") {
    return bound(self, n, [n](const Value& s, std::vector<Value>& a) {
      arity(n, a, 1, 1);
      size_t i = n == "find" ? s.as_str().find(a[0].as_str()) : s.as_str().rfind(a[0].as_str());
      return Value(i == std::string::npos ? int64_t{-1} : static_cast<int64_t>(i));
    });
  }
  if (name == "partition" || name == "rpartition") {
    return bound(self, n, [n](const Value& s, std::vector<Value>& a) {
      arity(n, a, 1, 1);
      if (!a[0].is_str()) throw TypeError("must be str, not " + a[0].type_name());
      const std::string& str = s.as_str();
      const std::string& sep = a[0].as_str();
      if (sep.empty()) throw ValueError("empty separator");
      size_t i = n == "partition" ? str.find(sep) : str.rfind(sep);
      if (i == std::string::npos) {
        return n == "partition" ? Value::tuple({Value(str), Value(""), Value("")})
                                : Value::tuple({Value(""), Value(""), Value(str)});
      }
      return Value::tuple({Value(str.substr(0, i)), Value(sep), Value(str.substr(i + sep.size()))});
    });
  }
  if (name == "encode") {
    std::vector<Param> params{{"encoding", Value("utf-8")}, {"errors", Value("strict")}};
    return Value::callable(n, [self, params](std::vector<Value> args, Kwargs kwargs) {
      std::vector<Value> a = bind_arguments("encode", params, std::move(args), std::move(kwargs));
      for (size_t i = 0; i < 2; ++i) {
        if (!a[i].is_str()) {
          throw TypeError(std::string("encode() argument '") + params[i].name + "' must be str, not " + a[i].type_name());
        }
      }
      return bytes_value::encode(self.as_str(), a[0].as_str(), a[1].as_str());
    });
  }
  if (name == "splitlines") {
    // Python's line boundaries: \n, \r, \r\n, \v, \f, \x1c-\x1e, and
    // U+0085, U+2028, U+2029 (UTF-8 here).
    return Value::callable(n, [self](std::vector<Value> a, Kwargs kwargs) {
      bool keepends = false;
      if (a.size() > 1) throw TypeError("splitlines() takes at most 1 argument (" + std::to_string(a.size()) + " given)");
      if (!a.empty()) keepends = truthy(a[0]);
      for (auto& [k, v] : kwargs) {
        if (k != "keepends") throw TypeError("'" + k + "' is an invalid keyword argument for splitlines()");
        keepends = truthy(v);
      }
      const std::string& str = self.as_str();
      std::vector<Value> lines;
      size_t start = 0, i = 0;
      while (i < str.size()) {
        auto c = static_cast<unsigned char>(str[i]);
        size_t len = 0;
        if (c == '\r') len = i + 1 < str.size() && str[i + 1] == '\n' ? 2 : 1;
        else if (c == '\n' || c == 0x0b || c == 0x0c || (c >= 0x1c && c <= 0x1e)) len = 1;
        else if (c == 0xc2 && i + 1 < str.size() && static_cast<unsigned char>(str[i + 1]) == 0x85) len = 2;
        else if (c == 0xe2 && i + 2 < str.size() && static_cast<unsigned char>(str[i + 1]) == 0x80 &&
                 (static_cast<unsigned char>(str[i + 2]) == 0xa8 || static_cast<unsigned char>(str[i + 2]) == 0xa9)) {
          len = 3;
        }
        if (len == 0) {
          ++i;
          continue;
        }
        lines.emplace_back(str.substr(start, (keepends ? i + len : i) - start));
        i += len;
        start = i;
      }
      if (start < str.size()) lines.emplace_back(str.substr(start));
      return Value::list(std::move(lines));
    });
  }
  if (name == "format") {
    return Value::callable(n, [self](std::vector<Value> args, Kwargs kwargs) {
      const std::string& t = self.as_str();
      std::string out;
      size_t auto_index = 0;
      for (size_t i = 0; i < t.size(); ++i) {
        char c = t[i];
        if (c == '}') {
          if (i + 1 < t.size() && t[i + 1] == '}') ++i;
          out += '}';
          continue;
        }
        if (c != '{') {
          out += c;
          continue;
        }
        if (i + 1 < t.size() && t[i + 1] == '{') {
          out += '{';
          ++i;
          continue;
        }
        size_t close = t.find('}', i);
        if (close == std::string::npos) throw ValueError("Single '{' encountered in format string");
        std::string field = t.substr(i + 1, close - i - 1);
        i = close;
        std::string spec;
        if (size_t colon = field.find(':'); colon != std::string::npos) {
          spec = field.substr(colon + 1);
          field = field.substr(0, colon);
        }
        bool as_repr = false;
        if (field.size() >= 2 && field[field.size() - 2] == '!') {
          as_repr = field.back() == 'r';
          field.resize(field.size() - 2);
        }
        Value v;
        if (field.empty()) {
          if (auto_index >= args.size()) {
            throw IndexError("Replacement index " + std::to_string(auto_index) + " out of range for positional "
                             "args tuple");
          }
          v = args[auto_index++];
        } else if (std::all_of(field.begin(), field.end(), [](char d) { return d >= '0' && d <= '9'; })) {
          size_t k = std::stoul(field);
          if (k >= args.size()) {
            throw IndexError("Replacement index " + field + " out of range for positional args tuple");
          }
          v = args[k];
        } else {
          auto it = std::find_if(kwargs.begin(), kwargs.end(), [&](const auto& kv) { return kv.first == field; });
          if (it == kwargs.end()) throw KeyError("'" + field + "'");
          v = it->second;
        }
        out += as_repr ? format(Value(repr(v)), spec) : format(v, spec);
      }
      return Value(std::move(out));
    });
  }
  return std::nullopt;
}

}  // namespace

std::optional<Value> builtin_method(const Value& self, std::string_view name) {
  switch (self.kind()) {
    case Kind::List:
    case Kind::Tuple: return list_method(self, name);
    case Kind::Dict: return dict_method(self, name);
    case Kind::Str: return str_method(self, name);
    case Kind::Set: return set_value::method(self, name);
    default: return std::nullopt;
  }
}

}  // namespace ag
