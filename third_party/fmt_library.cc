// fmt's compiled part, built from Debian's libfmt-dev headers (fmt 9.1) into spvsim
// instead of linking libfmt.so: the package ships the library only as a shared object,
// which needs libstdc++.so, and the spvsim binary links libstdc++ statically
// (//third_party:static_cxx_runtime: resolving those two libraries' symbols was half a
// millisecond of every command's start). fmt's headers declare these functions and
// leave their definitions to format-inl.h, compiled once: here, as fmt's own format.cc
// does when it builds the library.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

// Declared in format.h and core.h without a definition.
template auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
template locale_ref::locale_ref(const std::locale& loc);
template auto locale_ref::get<std::locale>() const -> std::locale;

// format.h's `extern template` declarations.
template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<wchar_t>;
template auto decimal_point_impl(locale_ref) -> char;
template auto decimal_point_impl(locale_ref) -> wchar_t;

}  // namespace detail
FMT_END_NAMESPACE
