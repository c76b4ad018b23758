// Where PrintV2 (tf.print) writes. By default its text goes to the process's
// stdout or stderr, flushed at once so the two interleave in program order;
// tests and embedders replace the sink to capture it.
#pragma once

#include <functional>
#include <string_view>

namespace ag {

/// Receives one tf.print: `stream` is the op's output_stream attribute
/// ("stderr", "stdout", "log(info)", "log(warning)", "log(error)" or
/// "file://<path>") and `text` the message with its `end` already appended.
using PrintSink = std::function<void(std::string_view stream, std::string_view text)>;

/// Installs `sink` (an empty function restores the default) and returns the
/// previous one. Calls into the sink are serialized.
PrintSink set_print_sink(PrintSink sink);

/// Writes one print's text to the installed sink (or the default one); calls
/// are serialized. PrintV2 and AutoGraph's print of tensors write through it.
void emit_print(std::string_view stream, std::string_view text);

/// The default sink: stdout or stderr (log(...) streams go to stderr, as TF's
/// logging does), appending to the file for "file://"; flushes after each write.
void default_print_sink(std::string_view stream, std::string_view text);

}  // namespace ag
