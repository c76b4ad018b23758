// Python's set and frozenset: CPython 3.11's setobject.c table, hashes and
// operator algorithms (which set each result is built from, in which order),
// so results iterate as CPython's do.
#include "runtime/value/set_value.h"

#include <cmath>

#include "runtime/value/exception_value.h"
#include "runtime/value/iteration.h"

namespace ag {
namespace {

constexpr size_t kLinearProbes = 9;
constexpr size_t kPerturbShift = 5;
constexpr uint64_t kModulus = (uint64_t{1} << 61) - 1;  // _PyHASH_MODULUS

int64_t fix_minus_one(int64_t h) { return h == -1 ? -2 : h; }

int64_t int_hash(int64_t x) {
  uint64_t mag = x < 0 ? uint64_t{0} - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
  int64_t h = static_cast<int64_t>(mag % kModulus);
  return fix_minus_one(x < 0 ? -h : h);
}

// CPython's _Py_HashDouble (NaN hashes by identity there; 0 here).
int64_t float_hash(double v) {
  if (std::isinf(v)) return v > 0 ? 314159 : -314159;
  if (std::isnan(v)) return 0;
  int e = 0;
  double m = std::frexp(v, &e);
  int sign = 1;
  if (m < 0) {
    sign = -1;
    m = -m;
  }
  uint64_t x = 0;
  while (m != 0) {
    x = ((x << 28) & kModulus) | x >> (61 - 28);
    m *= 268435456.0;
    e -= 28;
    auto y = static_cast<uint64_t>(m);
    m -= static_cast<double>(y);
    x += y;
    if (x >= kModulus) x -= kModulus;
  }
  e = e >= 0 ? e % 61 : 60 - ((-1 - e) % 61);
  x = ((x << e) & kModulus) | x >> (61 - e);
  return fix_minus_one(static_cast<int64_t>(x) * sign);
}

// CPython's tuplehash (xxHash's round over the items' hashes).
int64_t tuple_hash(const std::vector<Value>& items) {
  constexpr uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL, p5 = 2870177450012600261ULL;
  uint64_t acc = p5;
  for (const Value& x : items) {
    acc += static_cast<uint64_t>(set_value::py_hash(x)) * p2;
    acc = (acc << 31) | (acc >> 33);
    acc *= p1;
  }
  acc += items.size() ^ (p5 ^ 3527539UL);
  if (acc == static_cast<uint64_t>(-1)) return 1546275796;
  return static_cast<int64_t>(acc);
}

uint64_t shuffle_bits(uint64_t h) { return ((h ^ 89869747UL) ^ (h << 16)) * 3644798167UL; }

int64_t frozenset_hash(const SetObj& s) {
  uint64_t hash = 0;
  for (const SetObj::Entry& e : s.table) {
    if (e.state == SetObj::Entry::Active) hash ^= shuffle_bits(static_cast<uint64_t>(e.hash));
  }
  hash ^= (static_cast<uint64_t>(s.used) + 1) * 1927868237UL;
  hash ^= (hash >> 11) ^ (hash >> 25);
  hash = hash * 69069U + 907133923UL;
  if (hash == static_cast<uint64_t>(-1)) hash = 590923713UL;
  return static_cast<int64_t>(hash);
}

bool same_key(const Value& a, const Value& b) { return a.is(b) || py_equal(a, b); }

std::shared_ptr<SetObj> new_set(bool frozen) {
  auto s = std::make_shared<SetObj>();
  s->frozen = frozen;
  return s;
}

Value wrap(std::shared_ptr<SetObj> s) { return Value::set(std::move(s)); }

/// set_update_internal: `s |= other` for any iterable, with CPython's
/// pre-sizing for sets and dicts and its merge of a set into an empty table.
void merge(SetObj& s, const SetObj& o) {
  if (&o == &s || o.used == 0) return;
    if ((s.fill + o.used) * 5 >= (s.table.size() - 1) * 3) s.resize_for((s.used + o.used) * 2);
    if (s.fill == 0 && s.table.size() == o.table.size() && o.fill == o.used) {
      s.table = o.table;
      s.fill = o.fill;
      s.used = o.used;
      return;
    }
    for (const SetObj::Entry& e : o.table) {
      if (e.state == SetObj::Entry::Active) s.add_hashed(e.key, e.hash);
    }
}

void update(SetObj& s, const Value& other) {
  if (other.is_set()) {
    merge(s, other.as_set());
    return;
  }
  if (other.is_dict()) {
    size_t n = other.as_dict().size();
    if ((s.fill + n) * 5 >= (s.table.size() - 1) * 3) s.resize_for((s.used + n) * 2);
  }
  for (const Value& x : iteration(other)) s.add(x);
}

std::shared_ptr<SetObj> copy_of(const SetObj& s, bool frozen) {
  auto out = new_set(frozen);
  merge(*out, s);
  return out;
}

/// A set of `other`'s items, unless it already is one (issubset's argument).
std::shared_ptr<SetObj> as_set_arg(const Value& other) {
  auto s = new_set(false);
  update(*s, other);
  return s;
}

std::shared_ptr<SetObj> intersection(const SetObj& a, const Value& other, bool frozen) {
  auto out = new_set(frozen);
  if (other.is_set()) {
    const SetObj* so = &a;
    const SetObj* o = &other.as_set();
    if (o->used > so->used) std::swap(so, o);
    for (const SetObj::Entry& e : o->table) {
      if (e.state == SetObj::Entry::Active && so->contains(e.key)) out->add_hashed(e.key, e.hash);
    }
    return out;
  }
  for (const Value& x : iteration(other)) {
    if (a.contains(x)) out->add(x);
  }
  return out;
}

void difference_update(SetObj& s, const Value& other) {
  if (other.is_set() && &other.as_set() == &s) {
    s.clear_table();
    return;
  }
  for (const Value& x : iteration(other)) s.discard(x);
}

std::shared_ptr<SetObj> difference(const SetObj& a, const Value& other, bool frozen) {
  size_t other_size = 0;
  if (other.is_set()) {
    other_size = other.as_set().used;
  } else if (other.is_dict()) {
    other_size = other.as_dict().size();
  } else {
    auto out = copy_of(a, frozen);
    difference_update(*out, other);
    return out;
  }
  if ((a.used >> 2) > other_size) {
    auto out = copy_of(a, frozen);
    difference_update(*out, other);
    return out;
  }
  auto out = new_set(frozen);
  for (const SetObj::Entry& e : a.table) {
    if (e.state != SetObj::Entry::Active) continue;
    bool in_other = other.is_set() ? other.as_set().contains(e.key) : other.as_dict().find(e.key) >= 0;
    if (!in_other) out->add_hashed(e.key, e.hash);
  }
  return out;
}

void symmetric_difference_update(SetObj& s, const Value& other) {
  std::shared_ptr<SetObj> o = as_set_arg(other);
  if (other.is_set() && &other.as_set() == &s) {
    s.clear_table();
    return;
  }
  for (const SetObj::Entry& e : o->table) {
    if (e.state != SetObj::Entry::Active) continue;
    if (!s.discard(e.key)) s.add_hashed(e.key, e.hash);
  }
}

bool issubset(const SetObj& a, const SetObj& b) {
  if (a.used > b.used) return false;
  for (const SetObj::Entry& e : a.table) {
    if (e.state == SetObj::Entry::Active && !b.contains(e.key)) return false;
  }
  return true;
}

void arity(const std::string& name, const std::vector<Value>& a, size_t n) {
  if (a.size() == n) return;
  if (n == 0) {
    throw TypeError(name + "() takes no arguments (" + std::to_string(a.size()) + " given)");
  }
  throw TypeError(name + "() takes exactly one argument (" + std::to_string(a.size()) + " given)");
}

}  // namespace

size_t SetObj::lookup(const Value& key, int64_t hash) const {
  size_t mask = table.size() - 1;
  size_t perturb = static_cast<size_t>(hash);
  size_t i = static_cast<size_t>(hash) & mask;
  while (true) {
    size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
    for (size_t j = i;; ++j) {
      const Entry& e = table[j];
      if (e.state == Entry::Unused) return table.size();
      if (e.state == Entry::Active && e.hash == hash && same_key(e.key, key)) return j;
      if (probes-- == 0) break;
    }
    perturb >>= kPerturbShift;
    i = (i * 5 + 1 + perturb) & mask;
  }
}

bool SetObj::contains(const Value& key) const { return lookup(key, set_value::py_hash(key)) < table.size(); }

void SetObj::add(const Value& key) { add_hashed(key, set_value::py_hash(key)); }

void SetObj::add_hashed(const Value& key, int64_t hash) {
  // set_add_entry: the first dummy on the probe path is reused, unless the
  // key turns up further on.
  size_t mask = table.size() - 1;
  size_t perturb = static_cast<size_t>(hash);
  size_t i = static_cast<size_t>(hash) & mask;
  std::optional<size_t> freeslot;
  while (true) {
    size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
    for (size_t j = i;; ++j) {
      Entry& e = table[j];
      if (e.state == Entry::Unused) {
        if (freeslot) {
          table[*freeslot] = Entry{key, hash, Entry::Active};
          ++used;
          return;
        }
        e = Entry{key, hash, Entry::Active};
        ++fill;
        ++used;
        if (fill * 5 >= mask * 3) resize_for(used > 50000 ? used * 2 : used * 4);
        return;
      }
      if (e.state == Entry::Active && e.hash == hash && same_key(e.key, key)) return;
      if (e.state == Entry::Dummy && !freeslot) freeslot = j;
      if (probes-- == 0) break;
    }
    perturb >>= kPerturbShift;
    i = (i * 5 + 1 + perturb) & mask;
  }
}

void SetObj::insert_clean(const Value& key, int64_t hash) {
  size_t mask = table.size() - 1;
  size_t perturb = static_cast<size_t>(hash);
  size_t i = static_cast<size_t>(hash) & mask;
  while (true) {
    if (table[i].state == Entry::Unused) {
      table[i] = Entry{key, hash, Entry::Active};
      return;
    }
    if (i + kLinearProbes <= mask) {
      for (size_t j = 1; j <= kLinearProbes; ++j) {
        if (table[i + j].state == Entry::Unused) {
          table[i + j] = Entry{key, hash, Entry::Active};
          return;
        }
      }
    }
    perturb >>= kPerturbShift;
    i = (i * 5 + 1 + perturb) & mask;
  }
}

void SetObj::resize_for(size_t min_used) {
  size_t size = 8;
  while (size <= min_used) size <<= 1;
  std::vector<Entry> old = std::move(table);
  table = std::vector<Entry>(size);
  fill = used;
  for (const Entry& e : old) {
    if (e.state == Entry::Active) insert_clean(e.key, e.hash);
  }
}

SetObj* SetObj::clear_table() {
  table = std::vector<Entry>(8);
  fill = used = finger = 0;
  return this;
}

bool SetObj::discard(const Value& key) {
  size_t i = lookup(key, set_value::py_hash(key));
  if (i == table.size()) return false;
  table[i] = Entry{Value(), -1, Entry::Dummy};
  --used;
  return true;
}

Value SetObj::pop() {
  if (used == 0) raise_key_error(Value("pop from an empty set"));
  size_t i = finger & (table.size() - 1);
  while (table[i].state != Entry::Active) i = (i + 1) % table.size();
  Value key = std::move(table[i].key);
  table[i] = Entry{Value(), -1, Entry::Dummy};
  --used;
  finger = i + 1;
  return key;
}

std::vector<Value> SetObj::items() const {
  std::vector<Value> out;
  out.reserve(used);
  for (const Entry& e : table) {
    if (e.state == Entry::Active) out.push_back(e.key);
  }
  return out;
}

namespace set_value {

Value make(const std::vector<Value>& items, bool frozen) {
  auto s = new_set(frozen);
  for (const Value& x : items) s->add(x);
  return wrap(std::move(s));
}

Value from_iterable(const Value& iterable, bool frozen) {
  // frozenset(f) is f itself, as in CPython.
  if (frozen && iterable.is_set() && iterable.as_set().frozen) return iterable;
  auto s = new_set(frozen);
  update(*s, iterable);
  return wrap(std::move(s));
}

int64_t py_hash(const Value& v) {
  switch (v.kind()) {
    case Kind::Bool:
    case Kind::Int: return int_hash(v.as_int());
    case Kind::Float: return float_hash(v.as_float());
    case Kind::Tuple: return tuple_hash(v.items());
    case Kind::Set:
      if (!v.as_set().frozen) throw TypeError("unhashable type: 'set'");
      return frozenset_hash(v.as_set());
    default: return fix_minus_one(static_cast<int64_t>(hash(v)));
  }
}

std::optional<Value> binary(char op, const Value& a, const Value& b) {
  if (!a.is_set() || !b.is_set()) return std::nullopt;
  const SetObj& x = a.as_set();
  switch (op) {
    case '|': {
      auto out = copy_of(x, x.frozen);
      update(*out, b);
      return wrap(out);
    }
    case '&': return wrap(intersection(x, b, x.frozen));
    case '-': return wrap(difference(x, b, x.frozen));
    case '^': {
      auto out = copy_of(b.as_set(), x.frozen);
      symmetric_difference_update(*out, a);
      return wrap(out);
    }
    default: return std::nullopt;
  }
}

bool compare(std::string_view op, const Value& a, const Value& b) {
  const SetObj& x = a.as_set();
  const SetObj& y = b.as_set();
  if (op == "<=") return issubset(x, y);
  if (op == ">=") return issubset(y, x);
  if (op == "<") return x.used < y.used && issubset(x, y);
  return y.used < x.used && issubset(y, x);
}

bool equal(const Value& a, const Value& b) {
  return a.as_set().used == b.as_set().used && issubset(a.as_set(), b.as_set());
}

std::string repr(const Value& v) {
  const SetObj& s = v.as_set();
  if (s.used == 0) return s.frozen ? "frozenset()" : "set()";
  std::string out = s.frozen ? "frozenset({" : "{";
  bool first = true;
  for (const Value& x : s.items()) {
    out += (first ? "" : ", ") + ag::repr(x);
    first = false;
  }
  return out + (s.frozen ? "})" : "}");
}

std::optional<Value> method(const Value& self, std::string_view name) {
  const bool frozen = self.as_set().frozen;
  const std::string type = frozen ? "frozenset" : "set";
  std::string n(name);
  auto bound = [&](std::function<Value(SetObj & s, std::vector<Value> & a)> fn) {
    return Value::callable(n, [self, fn = std::move(fn), n](std::vector<Value> args, Kwargs kwargs) {
      if (!kwargs.empty()) throw TypeError(n + "() takes no keyword arguments");
      return fn(self.as_set(), args);
    });
  };
  auto one = [&](auto fn) {
    return bound([fn, q = type + "." + n](SetObj& s, std::vector<Value>& a) {
      arity(q, a, 1);
      return fn(s, a[0]);
    });
  };
  // Methods of both kinds.
  if (name == "copy") {
    return bound([type](SetObj& s, std::vector<Value>& a) {
      arity(type + ".copy", a, 0);
      return wrap(copy_of(s, s.frozen));
    });
  }
  if (name == "union") {
    return bound([](SetObj& s, std::vector<Value>& a) {
      auto out = copy_of(s, s.frozen);
      for (const Value& o : a) update(*out, o);
      return wrap(out);
    });
  }
  if (name == "intersection") {
    return bound([](SetObj& s, std::vector<Value>& a) {
      if (a.empty()) return wrap(copy_of(s, s.frozen));
      auto out = intersection(s, a[0], s.frozen);
      for (size_t i = 1; i < a.size(); ++i) out = intersection(*out, a[i], s.frozen);
      return wrap(out);
    });
  }
  if (name == "difference") {
    return bound([](SetObj& s, std::vector<Value>& a) {
      if (a.empty()) return wrap(copy_of(s, s.frozen));
      auto out = difference(s, a[0], s.frozen);
      for (size_t i = 1; i < a.size(); ++i) difference_update(*out, a[i]);
      return wrap(out);
    });
  }
  if (name == "symmetric_difference") {
    return one([](SetObj& s, const Value& o) {
      auto out = as_set_arg(o);
      out->frozen = s.frozen;
      Value self_copy = wrap(std::make_shared<SetObj>(s));
      symmetric_difference_update(*out, self_copy);
      return wrap(out);
    });
  }
  if (name == "issubset") return one([](SetObj& s, const Value& o) { return Value(issubset(s, *as_set_arg(o))); });
  if (name == "issuperset") return one([](SetObj& s, const Value& o) { return Value(issubset(*as_set_arg(o), s)); });
  if (name == "isdisjoint") {
    return one([](SetObj& s, const Value& o) {
      for (const Value& x : iteration(o)) {
        if (s.contains(x)) return Value(false);
      }
      return Value(true);
    });
  }
  if (frozen) return std::nullopt;
  // Methods of set only.
  if (name == "add") {
    return one([](SetObj& s, const Value& x) {
      s.add(x);
      return Value();
    });
  }
  if (name == "remove") {
    return one([](SetObj& s, const Value& x) {
      if (!s.discard(x)) raise_key_error(x);
      return Value();
    });
  }
  if (name == "discard") {
    return one([](SetObj& s, const Value& x) {
      s.discard(x);
      return Value();
    });
  }
  if (name == "pop") {
    return bound([](SetObj& s, std::vector<Value>& a) {
      arity("set.pop", a, 0);
      return s.pop();
    });
  }
  if (name == "clear") {
    return bound([](SetObj& s, std::vector<Value>& a) {
      arity("set.clear", a, 0);
      s.clear_table();
      return Value();
    });
  }
  if (name == "update") {
    return bound([](SetObj& s, std::vector<Value>& a) {
      for (const Value& o : a) update(s, o);
      return Value();
    });
  }
  if (name == "intersection_update") {
    return bound([](SetObj& s, std::vector<Value>& a) {
      std::shared_ptr<SetObj> out = std::make_shared<SetObj>(s);
      for (const Value& o : a) out = intersection(*out, o, false);
      s = *out;
      return Value();
    });
  }
  if (name == "difference_update") {
    return bound([](SetObj& s, std::vector<Value>& a) {
      for (const Value& o : a) difference_update(s, o);
      return Value();
    });
  }
  if (name == "symmetric_difference_update") {
    return one([](SetObj& s, const Value& o) {
      symmetric_difference_update(s, o);
      return Value();
    });
  }
  return std::nullopt;
}

}  // namespace set_value
}  // namespace ag
