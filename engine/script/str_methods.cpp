// The str methods a script uses for text: case, stripping, padding, searching,
// splitting and replacing (ASCII case rules; widths count characters).
#include "str_methods.h"

#include <algorithm>
#include <cctype>

namespace ts::script {

namespace {

constexpr size_t kMaxStr = 64u << 20;
const char* const kSpace = " \t\n\r\x0b\x0c";

std::string chars_arg(Interpreter& in, CallArgs& a) {
  const Value c = a.get_or(0, "chars", Value::none());
  if (c.is_none()) return kSpace;
  if (c.kind != VKind::Str) in.raise("TypeError", "strip arg must be None or str");
  return c.as_str();
}

int64_t width(const std::string& s) {
  int64_t w = 0;
  for (unsigned char c : s) w += (c & 0xC0) != 0x80;
  return w;
}

int64_t int_arg(Interpreter& in, CallArgs& a, size_t i, const char* name, int64_t def) {
  const Value v = a.get_or(i, name, Value::none());
  if (v.is_none()) return def;
  if (v.kind == VKind::Int) return v.i;
  if (v.kind == VKind::Bool) return v.b;
  in.raise("TypeError", "'" + in.type_name(v) + "' object cannot be interpreted as an integer");
}

std::string pad_to(Interpreter& in, const std::string& s, CallArgs& a, char where) {
  const int64_t w = int_arg(in, a, 0, "width", 0);
  const Value f = a.get_or(1, "fillchar", Value::str(" "));
  if (f.kind != VKind::Str || width(f.as_str()) != 1)
    in.raise("TypeError", "The fill character must be exactly one character long");
  const int64_t pad = w - width(s);
  if (pad <= 0) return s;
  if (static_cast<size_t>(pad) * f.as_str().size() > kMaxStr)
    in.raise("ResourceError", "string too large (tape scripts allow 64 MiB per string and 10^7 items per list)");
  auto fill = [&](int64_t n) {
    std::string out;
    for (int64_t i = 0; i < n; ++i) out += f.as_str();
    return out;
  };
  if (where == '<') return s + fill(pad);
  if (where == '>') return fill(pad) + s;
  // str.center puts the odd character on the right unless the width is odd too.
  const int64_t left = pad / 2 + (pad & w & 1);
  return fill(left) + s + fill(pad - left);
}

// Python's slice-style start/end for find/count/index.
std::pair<size_t, size_t> span(Interpreter& in, CallArgs& a, const std::string& s) {
  const int64_t n = static_cast<int64_t>(s.size());
  int64_t b = int_arg(in, a, 1, "start", 0), e = int_arg(in, a, 2, "end", n);
  if (b < 0) b = std::max<int64_t>(b + n, 0);
  if (e < 0) e = std::max<int64_t>(e + n, 0);
  return {static_cast<size_t>(std::min(b, n)), static_cast<size_t>(std::min(e, n))};
}

std::string sub_arg(Interpreter& in, CallArgs& a) {
  const Value v = a.get_or(0, "sub", Value::none());
  if (v.kind != VKind::Str) in.raise("TypeError", "must be str, not " + in.type_name(v));
  return v.as_str();
}

}  // namespace

std::optional<Value> str_method(Interpreter& in, const std::string& s, const std::string& name) {
  using Fn = std::function<Value(Interpreter&, CallArgs&)>;
  auto method = [&](Fn f) { return std::optional<Value>(in.builtin("str." + name, std::move(f))); };
  if (name == "upper" || name == "lower" || name == "capitalize" || name == "title" || name == "swapcase")
    return method([s, name](Interpreter&, CallArgs&) {
      std::string o = s;
      bool word_start = true;
      for (size_t i = 0; i < o.size(); ++i) {
        const auto c = static_cast<unsigned char>(o[i]);
        int r = c;
        if (name == "upper") r = std::toupper(c);
        else if (name == "lower") r = std::tolower(c);
        else if (name == "swapcase") r = std::isupper(c) ? std::tolower(c) : std::toupper(c);
        else if (name == "capitalize") r = i == 0 ? std::toupper(c) : std::tolower(c);
        else r = word_start ? std::toupper(c) : std::tolower(c);  // title
        word_start = !std::isalpha(c);
        o[i] = static_cast<char>(r);
      }
      return Value::str(o);
    });
  if (name == "strip" || name == "lstrip" || name == "rstrip")
    return method([s, name](Interpreter& in2, CallArgs& a) {
      const std::string chars = chars_arg(in2, a);
      std::string o = s;
      if (name != "rstrip") o.erase(0, std::min(o.size(), o.find_first_not_of(chars)));
      if (name != "lstrip") {
        const size_t last = o.find_last_not_of(chars);
        o.erase(last == std::string::npos ? 0 : last + 1);
      }
      return Value::str(o);
    });
  if (name == "ljust" || name == "rjust" || name == "center")
    return method([s, name](Interpreter& in2, CallArgs& a) {
      return Value::str(pad_to(in2, s, a, name == "ljust" ? '<' : name == "rjust" ? '>' : '^'));
    });
  if (name == "zfill")
    return method([s](Interpreter& in2, CallArgs& a) {
      const int64_t w = int_arg(in2, a, 0, "width", 0);
      const int64_t pad = w - width(s);
      if (pad <= 0) return Value::str(s);
      if (pad > static_cast<int64_t>(kMaxStr))
        in2.raise("ResourceError", "string too large (tape scripts allow 64 MiB per string and 10^7 items per list)");
      const size_t sign = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
      return Value::str(s.substr(0, sign) + std::string(static_cast<size_t>(pad), '0') + s.substr(sign));
    });
  if (name == "find" || name == "rfind" || name == "index" || name == "rindex" || name == "count")
    return method([s, name](Interpreter& in2, CallArgs& a) {
      const std::string sub = sub_arg(in2, a);
      const auto [b, e] = span(in2, a, s);
      if (name == "count") {
        if (b > e) return Value::integer(0);
        if (sub.empty()) return Value::integer(static_cast<int64_t>(e - b + 1));
        int64_t n = 0;
        for (size_t p = s.find(sub, b); p != std::string::npos && p + sub.size() <= e; p = s.find(sub, p + sub.size())) ++n;
        return Value::integer(n);
      }
      size_t found = std::string::npos;
      if (b <= e && sub.size() <= e - b) {
        const std::string window = s.substr(b, e - b);
        const size_t p = name[0] == 'r' ? window.rfind(sub) : window.find(sub);
        if (p != std::string::npos) found = b + p;
      }
      if (found == std::string::npos) {
        if (name == "index" || name == "rindex") in2.raise("ValueError", "substring not found");
        return Value::integer(-1);
      }
      return Value::integer(static_cast<int64_t>(found));
    });
  if (name == "splitlines")
    return method([s](Interpreter& in2, CallArgs& a) {
      const bool keep = in2.truthy(a.get_or(0, "keepends", Value::boolean(false)));
      std::vector<Value> lines;
      size_t i = 0;
      while (i < s.size()) {
        size_t j = i;
        while (j < s.size() && s[j] != '\n' && s[j] != '\r') ++j;
        size_t end = j;
        if (j < s.size()) j += (s[j] == '\r' && j + 1 < s.size() && s[j + 1] == '\n') ? 2 : 1;
        lines.push_back(Value::str(s.substr(i, (keep ? j : end) - i)));
        i = j;
      }
      return in2.make_list(std::move(lines));
    });
  if (name == "isdigit" || name == "isalpha" || name == "isalnum" || name == "isspace" || name == "isupper" ||
      name == "islower")
    return method([s, name](Interpreter&, CallArgs&) {
      bool cased = false, ok = !s.empty();
      for (unsigned char c : s) {
        if (name == "isdigit") ok = ok && std::isdigit(c);
        else if (name == "isalpha") ok = ok && std::isalpha(c);
        else if (name == "isalnum") ok = ok && std::isalnum(c);
        else if (name == "isspace") ok = ok && std::isspace(c);
        else if (name == "isupper") ok = ok && !std::islower(c), cased = cased || std::isupper(c);
        else ok = ok && !std::isupper(c), cased = cased || std::islower(c);
      }
      const bool needs_cased = name == "isupper" || name == "islower";
      return Value::boolean(ok && (!needs_cased || cased));
    });
  if (name == "split" || name == "rsplit")
    return method([s, name](Interpreter& in2, CallArgs& a) {
      const Value sep = a.get_or(0, "sep", Value::none());
      const int64_t maxsplit = int_arg(in2, a, 1, "maxsplit", -1);
      const bool right = name == "rsplit";
      std::vector<std::string> parts;
      if (sep.is_none()) {
        // Runs of whitespace separate; after maxsplit splits the rest is one part
        // (stripped at the end it starts from).
        auto ws = [&](size_t i) { return std::isspace(static_cast<unsigned char>(s[i])) != 0; };
        if (!right) {
          size_t i = 0;
          while (true) {
            while (i < s.size() && ws(i)) ++i;
            if (i >= s.size()) break;
            if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) {
              parts.push_back(s.substr(i));
              break;
            }
            size_t j = i;
            while (j < s.size() && !ws(j)) ++j;
            parts.push_back(s.substr(i, j - i));
            i = j;
          }
        } else {
          size_t e = s.size();
          while (true) {
            while (e > 0 && ws(e - 1)) --e;
            if (e == 0) break;
            if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) {
              parts.push_back(s.substr(0, e));
              break;
            }
            size_t b = e;
            while (b > 0 && !ws(b - 1)) --b;
            parts.push_back(s.substr(b, e - b));
            e = b;
          }
          std::reverse(parts.begin(), parts.end());
        }
      } else {
        if (sep.kind != VKind::Str) in2.raise("TypeError", "must be str or None, not " + in2.type_name(sep));
        const std::string& d = sep.as_str();
        if (d.empty()) in2.raise("ValueError", "empty separator");
        if (!right) {
          size_t i = 0, j;
          while ((maxsplit < 0 || static_cast<int64_t>(parts.size()) < maxsplit) && (j = s.find(d, i)) != std::string::npos) {
            parts.push_back(s.substr(i, j - i));
            i = j + d.size();
          }
          parts.push_back(s.substr(i));
        } else {
          size_t e = s.size();
          while (maxsplit < 0 || static_cast<int64_t>(parts.size()) < maxsplit) {
            if (e < d.size()) break;
            const size_t j = s.rfind(d, e - d.size());
            if (j == std::string::npos) break;
            parts.push_back(s.substr(j + d.size(), e - j - d.size()));
            e = j;
          }
          parts.push_back(s.substr(0, e));
          std::reverse(parts.begin(), parts.end());
        }
      }
      std::vector<Value> out;
      for (auto& p : parts) out.push_back(Value::str(std::move(p)));
      return in2.make_list(std::move(out));
    });
  if (name == "replace")
    return method([s](Interpreter& in2, CallArgs& a) {
      const Value old_v = a.get_or(0, "old", Value::none()), new_v = a.get_or(1, "new", Value::none());
      if (old_v.kind != VKind::Str || new_v.kind != VKind::Str)
        in2.raise("TypeError", "replace() argument " + std::string(old_v.kind != VKind::Str ? "1" : "2") +
                                   " must be str, not " + in2.type_name(old_v.kind != VKind::Str ? old_v : new_v));
      const std::string& from = old_v.as_str();
      const std::string& to = new_v.as_str();
      int64_t count = int_arg(in2, a, 2, "count", -1);
      // One pass (replacing in place is quadratic on a long string).
      std::string o;
      if (from.empty()) {  // Python: `to` before every character and at the end
        for (size_t i = 0; i < s.size(); ++i) {
          if (count-- == 0) {
            o.append(s, i, std::string::npos);
            return Value::str(o);
          }
          o += to;
          o += s[i];
          if (o.size() > kMaxStr) break;
        }
        if (count != 0) o += to;
      } else {
        size_t p = 0, q;
        while (count != 0 && (q = s.find(from, p)) != std::string::npos) {
          o.append(s, p, q - p);
          o += to;
          p = q + from.size();
          --count;
          if (o.size() > kMaxStr) break;
        }
        o.append(s, p, std::string::npos);
      }
      if (o.size() > kMaxStr)
        in2.raise("ResourceError", "string too large (tape scripts allow 64 MiB per string and 10^7 items per list)");
      return Value::str(o);
    });
  if (name == "startswith" || name == "endswith")
    return method([s, name](Interpreter& in2, CallArgs& a) {
      const Value what = a.get_or(0, "prefix", Value::none());
      std::vector<Value> options;
      if (what.kind == VKind::Object && what.obj->okind == OKind::Tuple) options = what.as<ListObj>()->items;
      else options.push_back(what);
      for (const Value& o : options)
        if (o.kind != VKind::Str)
          in2.raise("TypeError", name + " first arg must be str or a tuple of str, not " + in2.type_name(o));
      // s[start:end], as Python slices it; a start past the end matches nothing.
      const int64_t n = static_cast<int64_t>(s.size());
      int64_t b = int_arg(in2, a, 1, "start", 0), e = int_arg(in2, a, 2, "end", n);
      if (b < 0) b = std::max<int64_t>(b + n, 0);
      if (e < 0) e = std::max<int64_t>(e + n, 0);
      e = std::min(e, n);
      if (b > n) return Value::boolean(false);
      const std::string window = b <= e ? s.substr(static_cast<size_t>(b), static_cast<size_t>(e - b)) : "";
      for (const Value& o : options) {
        const std::string& p = o.as_str();
        if (p.size() > window.size()) continue;
        if (name == "startswith" ? window.compare(0, p.size(), p) == 0
                                 : window.compare(window.size() - p.size(), p.size(), p) == 0)
          return Value::boolean(true);
      }
      return Value::boolean(false);
    });
  if (name == "partition" || name == "rpartition")
    return method([s, name](Interpreter& in2, CallArgs& a) {
      const Value sep = a.get_or(0, "sep", Value::none());
      if (sep.kind != VKind::Str) in2.raise("TypeError", "must be str, not " + in2.type_name(sep));
      const std::string& d = sep.as_str();
      if (d.empty()) in2.raise("ValueError", "empty separator");
      const size_t p = name == "partition" ? s.find(d) : s.rfind(d);
      if (p == std::string::npos)
        return name == "partition" ? in2.make_tuple({Value::str(s), Value::str(""), Value::str("")})
                                   : in2.make_tuple({Value::str(""), Value::str(""), Value::str(s)});
      return in2.make_tuple({Value::str(s.substr(0, p)), sep, Value::str(s.substr(p + d.size()))});
    });
  return std::nullopt;
}

}  // namespace ts::script
