#include "transpiler/emit/public_api.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace agc::emit {
namespace {

struct Row {
  std::string_view library;
  PublicName name;
};

constexpr Row kRows[] = {
#define AG_PUBLIC_NAME(library, path, kind, params) {library, {path, NameKind::kind, params}},
#include "transpiler/emit/tf_public_api.def"
#define AG_PUBLIC_NAME(library, path, kind, params) {library, {path, NameKind::kind, params}},
#include "transpiler/emit/py_public_api.def"
};

struct ListedModule {
  std::string_view library;
  std::string_view path;
};

constexpr ListedModule kListedModules[] = {
#define AG_PUBLIC_MODULE(library, path) {library, path},
#include "transpiler/emit/tf_public_api.def"
#define AG_PUBLIC_MODULE(library, path) {library, path},
#include "transpiler/emit/py_public_api.def"
};

std::string key(std::string_view library, std::string_view path) {
  std::string k(library);
  k += '\n';
  k += path;
  return k;
}

struct Index {
  std::unordered_map<std::string, const PublicName*> names;
  std::set<std::string> listed;

  Index() {
    for (const Row& r : kRows) names.emplace(key(r.library, r.name.path), &r.name);
    for (const ListedModule& m : kListedModules) listed.insert(key(m.library, m.path));
  }
};

const Index& index() {
  static const Index idx;
  return idx;
}

}  // namespace

std::optional<PublicName> find_public(std::string_view library, std::string_view path) {
  const Index& idx = index();
  auto it = idx.names.find(key(library, path));
  if (it == idx.names.end()) return std::nullopt;
  return *it->second;
}

PublicLookup lookup_public(std::string_view library, std::string_view path) {
  const Index& idx = index();
  PublicLookup out;
  std::string module;  // the module walked so far ("" for the library)
  size_t begin = 0;
  while (begin <= path.size()) {
    size_t dot = path.find('.', begin);
    std::string_view part = path.substr(begin, dot == std::string_view::npos ? std::string_view::npos : dot - begin);
    std::string member = module.empty() ? std::string(part) : module + "." + std::string(part);
    std::optional<PublicName> name = find_public(library, member);
    if (!name) {
      if (!idx.listed.count(key(library, module))) return out;  // Unknown
      out.outcome = PublicLookup::Outcome::Missing;
      out.module = module;
      out.attr = part;
      return out;
    }
    if (name->kind != NameKind::Module || dot == std::string_view::npos) {
      out.outcome = PublicLookup::Outcome::Found;
      out.found = name;
      return out;
    }
    module = member;
    begin = dot + 1;
  }
  return out;
}

std::vector<PublicName> public_members(std::string_view library, std::string_view module) {
  std::vector<PublicName> out;
  for (const Row& r : kRows) {
    if (r.library != library) continue;
    std::string_view p = r.name.path;
    if (module.empty() ? p.find('.') == std::string_view::npos
                       : (p.size() > module.size() && p.starts_with(module) && p[module.size()] == '.' &&
                          p.find('.', module.size() + 1) == std::string_view::npos)) {
      out.push_back(r.name);
    }
  }
  return out;
}

std::string python_module_name(std::string_view library, std::string_view module) {
  std::string m(module);
  if (library != "tensorflow") return m.empty() ? std::string(library) : std::string(library) + "." + m;
  if (m.empty()) return "tensorflow";
  // Keras 2 is its own package, loaded lazily under tf.keras.
  if (m == "keras" || m.starts_with("keras.")) return "keras.api._v2." + m;
  return "tensorflow._api.v2." + m;
}

}  // namespace agc::emit
