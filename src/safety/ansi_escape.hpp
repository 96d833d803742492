// Terminal escape sequences: stripped from command output before the model sees it (a
// model that reads escape codes copies them into files) and from commands before the
// guards match them.
#pragma once

#include <string>
#include <string_view>

namespace hermes::internal {

// `text` without CSI (ESC [ ... and the 8-bit CSI), OSC (ESC ] ... BEL or ST), DCS/SOS/
// PM/APC strings and two-character escapes. A lone trailing ESC is dropped too.
std::string strip_ansi(std::string_view text);

}  // namespace hermes::internal
