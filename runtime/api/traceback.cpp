#include "runtime/api/traceback.h"

#include <cstring>
#include <exception>
#include <string_view>
#include <utility>

#include "runtime/api/traceback_marks.h"

namespace ag {

namespace {

// The frames the in-flight exception has unwound through, innermost first,
// each with its Frame depth. One unwinding destroys Frames at depths d, d-1,
// d-2, ... (every Frame in between is destroyed in turn), so an entry whose
// depth does not continue that run starts a new exception: entries left over
// from one that runtime code caught and handled without take_traceback()
// (hasattr swallowing an AttributeError, say) are dropped then.
struct Recorded {
  TracebackEntry entry;
  int depth;
};
thread_local std::vector<Recorded> t_recorded;
thread_local int t_depth = 0;
thread_local const Frame* t_frame = nullptr;
thread_local const HandledException* t_handled = nullptr;

}  // namespace

Frame::Frame(const char* file, const char* function)
    : file_(file), function_(function), uncaught_at_entry_(std::uncaught_exceptions()), outer_(t_frame) {
  ++t_depth;
  t_frame = this;
}

Frame::~Frame() {
  int depth = t_depth--;
  t_frame = outer_;
  // Unwinding past this frame (an exception thrown while it was live), not a
  // normal return, and not a destructor's own exception thrown and caught
  // during some other unwinding that started before the frame was entered.
  if (std::uncaught_exceptions() <= uncaught_at_entry_) return;
  try {
    if (!t_recorded.empty() && t_recorded.back().depth != depth + 1) t_recorded.clear();
    t_recorded.push_back({{file_, function_, line(), position()}, depth});
  } catch (...) {
    // Out of memory while unwinding: the traceback loses a line, the program goes on.
  }
}

const Frame* Frame::current() { return t_frame; }

HandledException::HandledException(const Error& error, const std::vector<TracebackEntry>& unwound,
                                   FramePosition where)
    : error_(error), entries_(unwound), outer_(t_handled) {
  if (t_frame != nullptr) entries_.push_back({t_frame->file(), t_frame->function(), where.line(), where.position()});
  t_handled = this;
}

HandledException::~HandledException() { t_handled = outer_; }

const HandledException* HandledException::current() { return t_handled; }

std::vector<TracebackEntry> take_traceback() {
  std::vector<TracebackEntry> out;
  out.reserve(t_recorded.size());
  for (const Recorded& r : t_recorded) out.push_back(r.entry);
  t_recorded.clear();
  return out;
}

void restore_traceback(std::vector<TracebackEntry> entries) {
  // A bare `raise` in an except clause rethrows from the frame that handles
  // it: the taken entries continue right below the current depth.
  t_recorded.clear();
  int depth = t_depth + static_cast<int>(entries.size());
  for (TracebackEntry& e : entries) t_recorded.push_back({e, depth--});
}

namespace {

// Line `line` (1-based) of `text`, without its line break; empty when there
// is no such line.
std::string_view source_line(const char* text, int line) {
  if (text == nullptr || line <= 0) return {};
  std::string_view s(text);
  size_t begin = 0;
  for (int i = 1; i < line; ++i) {
    size_t nl = s.find('\n', begin);
    if (nl == std::string_view::npos) return {};
    begin = nl + 1;
  }
  size_t end = s.find('\n', begin);
  std::string_view l = s.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  return l;
}

bool same_place(const TracebackEntry& a, const TracebackEntry& b) {
  return a.line == b.line && std::strcmp(a.file, b.file) == 0 && std::strcmp(a.function, b.function) == 0;
}

}  // namespace

std::string format_traceback(const std::vector<TracebackEntry>& innermost_first, const std::string& type_name,
                             const std::string& message, const char* (*source_of)(const char* file),
                             TracebackStyle style) {
  std::string out;
  if (!innermost_first.empty()) out += "Traceback (most recent call last):\n";
  // Python collapses a run of identical frames (deep recursion) after three.
  constexpr int kRepeatsShown = 3;
  const TracebackEntry* previous = nullptr;
  int repeats = 0;
  auto flush_repeats = [&] {
    if (repeats > kRepeatsShown) {
      int more = repeats - kRepeatsShown;
      out += "  [Previous line repeated " + std::to_string(more) + " more time" + (more == 1 ? "" : "s") + "]\n";
    }
  };
  for (auto it = innermost_first.rbegin(); it != innermost_first.rend(); ++it) {
    const TracebackEntry& e = *it;
    if (previous != nullptr && same_place(*previous, e)) {
      if (++repeats > kRepeatsShown) continue;
    } else {
      flush_repeats();
      repeats = 1;
    }
    previous = &e;
    out += "  File \"";
    out += e.file;
    out += "\", line " + std::to_string(e.line) + ", in ";
    out += e.function;
    out += '\n';
    out += traceback_source_lines(source_line(source_of ? source_of(e.file) : nullptr, e.line), e.position, style);
  }
  flush_repeats();
  out += type_name;
  if (!message.empty()) {
    out += ": ";
    out += message;
  }
  out += '\n';
  return out;
}

}  // namespace ag
