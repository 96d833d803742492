#include "json_convert.hpp"

#include <string>

#include "hermes/message_utils.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

// The UTF-8 text of a str. Lone surrogates (pasted text, byte-level model output) cannot
// be encoded; they become U+FFFD, as the message repairs write them.
std::string utf8_of(const py::handle& text) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
  if (data != nullptr) return std::string(data, static_cast<std::size_t>(size));
  PyErr_Clear();
  py::object encoded = py::reinterpret_steal<py::object>(
      PyUnicode_AsEncodedString(text.ptr(), "utf-8", "surrogatepass"));
  if (!encoded) throw py::error_already_set();
  return sanitize_surrogates(std::string(py::bytes(encoded)));
}

}  // namespace

py::object to_python(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
    case Json::value_t::discarded:
      return py::none();
    case Json::value_t::boolean:
      return py::bool_(value.get<bool>());
    case Json::value_t::number_integer:
      return py::int_(value.get<int64_t>());
    case Json::value_t::number_unsigned:
      return py::int_(value.get<uint64_t>());
    case Json::value_t::number_float:
      return py::float_(value.get<double>());
    case Json::value_t::string: {
      const auto& s = value.get_ref<const std::string&>();
      // "replace" so text with invalid UTF-8 never raises inside a result.
      PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
      if (o == nullptr) throw py::error_already_set();
      return py::reinterpret_steal<py::object>(o);
    }
    case Json::value_t::array: {
      py::list out;
      for (const auto& item : value) out.append(to_python(item));
      return out;
    }
    case Json::value_t::object: {
      py::dict out;
      for (auto it = value.begin(); it != value.end(); ++it) out[py::str(it.key())] = to_python(it.value());
      return out;
    }
    case Json::value_t::binary:
      return py::bytes(reinterpret_cast<const char*>(value.get_binary().data()), value.get_binary().size());
  }
  return py::none();
}

Json from_python(const py::handle& o, const char* what) {
  if (o.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(o)) return o.cast<bool>();
  if (py::isinstance<py::int_>(o)) {
    try {
      return o.cast<int64_t>();
    } catch (const py::cast_error&) {
      return static_cast<double>(o.cast<double>());
    }
  }
  if (py::isinstance<py::float_>(o)) return o.cast<double>();
  if (py::isinstance<py::str>(o)) return utf8_of(o);
  if (py::isinstance<py::dict>(o)) {
    Json out = Json::object();
    for (auto item : o.cast<py::dict>()) {
      std::string key =
          py::isinstance<py::str>(item.first) ? utf8_of(item.first) : utf8_of(py::str(item.first));
      out[key] = from_python(item.second, what);
    }
    return out;
  }
  if (py::isinstance<py::list>(o) || py::isinstance<py::tuple>(o)) {
    Json out = Json::array();
    for (auto item : o) out.push_back(from_python(item, what));
    return out;
  }
  throw py::type_error(std::string(what) + ": cannot convert " +
                       std::string(py::str(py::type::of(o).attr("__name__"))) + " to JSON");
}

}  // namespace hermes::python
