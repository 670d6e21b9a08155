#pragma once
// A small exact rational type for the proof checks: numerator/denominator in lowest terms, denominator > 0.
// Integer is Int128 (GCC's __int128; every operation checked for overflow: an overflow throws, so a check can never
// pass on wrapped arithmetic) or boost::multiprecision::cpp_int (unbounded). It converts exactly from any double that
// is a dyadic rational (0.5, 0.25, 1, ...), so the library's unit rules — templates on their number type — run
// unchanged in exact arithmetic.
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace rbmix::proofs {

// GCC's 128-bit integer; __extension__ keeps -Wpedantic quiet about the non-standard type.
__extension__ typedef __int128 Int128;

template <typename Integer>
class ExactRational {
 public:
  ExactRational() = default;
  ExactRational(int value) : numerator_(value) {}  // NOLINT: integers are rationals
  // Exact for doubles of the form k·2^e; throws otherwise (rules only use constants like 0.5).
  explicit ExactRational(double value) {
    if (!std::isfinite(value)) throw std::domain_error("exact rational: non-finite double");
    int exponent = 0;
    double mantissa = std::frexp(value, &exponent);
    int shifts = 0;
    while (mantissa != std::floor(mantissa)) {
      mantissa *= 2.0;
      ++shifts;
      if (shifts > 60) throw std::domain_error("exact rational: the double needs more than 60 bits");
    }
    *this = ExactRational(static_cast<long long>(mantissa));
    const int power = exponent - shifts;
    for (int k = 0; k < std::abs(power); ++k) *this = power > 0 ? *this * ExactRational(2) : *this / ExactRational(2);
  }
  ExactRational(Integer numerator, Integer denominator) : numerator_(numerator), denominator_(denominator) {
    if (denominator_ == 0) throw std::domain_error("exact rational: zero denominator");
    normalise();
  }
  explicit ExactRational(long long value) : numerator_(value) {}

  const Integer& numerator() const { return numerator_; }
  const Integer& denominator() const { return denominator_; }

  friend ExactRational operator+(const ExactRational& a, const ExactRational& b) {
    return {add(multiply(a.numerator_, b.denominator_), multiply(b.numerator_, a.denominator_)),
            multiply(a.denominator_, b.denominator_)};
  }
  friend ExactRational operator-(const ExactRational& a, const ExactRational& b) { return a + (-b); }
  friend ExactRational operator*(const ExactRational& a, const ExactRational& b) {
    return {multiply(a.numerator_, b.numerator_), multiply(a.denominator_, b.denominator_)};
  }
  friend ExactRational operator/(const ExactRational& a, const ExactRational& b) {
    if (b.numerator_ == 0) throw std::domain_error("exact rational: division by zero");
    return {multiply(a.numerator_, b.denominator_), multiply(a.denominator_, b.numerator_)};
  }
  ExactRational operator-() const {
    ExactRational out = *this;
    out.numerator_ = -out.numerator_;
    return out;
  }
  ExactRational& operator+=(const ExactRational& b) { return *this = *this + b; }
  ExactRational& operator*=(const ExactRational& b) { return *this = *this * b; }

  friend bool operator==(const ExactRational& a, const ExactRational& b) {
    return a.numerator_ == b.numerator_ && a.denominator_ == b.denominator_;
  }
  friend bool operator<(const ExactRational& a, const ExactRational& b) {
    return multiply(a.numerator_, b.denominator_) < multiply(b.numerator_, a.denominator_);
  }
  friend bool operator>(const ExactRational& a, const ExactRational& b) { return b < a; }
  friend bool operator<=(const ExactRational& a, const ExactRational& b) { return !(b < a); }
  friend bool operator>=(const ExactRational& a, const ExactRational& b) { return !(a < b); }

  friend std::ostream& operator<<(std::ostream& out, const ExactRational& value) {
    out << to_text(value.numerator_);
    if (value.denominator_ != 1) out << '/' << to_text(value.denominator_);
    return out;
  }

 private:
  static constexpr bool checked = std::is_same_v<Integer, Int128>;

  static Integer multiply(const Integer& a, const Integer& b) {
    if constexpr (checked) {
      Integer out;
      if (__builtin_mul_overflow(a, b, &out)) throw std::overflow_error("exact rational: 128-bit overflow");
      return out;
    } else {
      return a * b;
    }
  }
  static Integer add(const Integer& a, const Integer& b) {
    if constexpr (checked) {
      Integer out;
      if (__builtin_add_overflow(a, b, &out)) throw std::overflow_error("exact rational: 128-bit overflow");
      return out;
    } else {
      return a + b;
    }
  }
  static Integer gcd(Integer a, Integer b) {
    if (a < 0) a = -a;
    if (b < 0) b = -b;
    while (b != 0) {
      Integer r = a % b;
      a = b;
      b = r;
    }
    return a;
  }
  static std::string to_text(Integer value) {
    if constexpr (checked) {
      if (value == 0) return "0";
      const bool negative = value < 0;
      std::string digits;
      while (value != 0) {
        const int digit = static_cast<int>(value % 10);
        digits.insert(digits.begin(), static_cast<char>('0' + (digit < 0 ? -digit : digit)));
        value /= 10;
      }
      return negative ? "-" + digits : digits;
    } else {
      return value.str();
    }
  }
  void normalise() {
    if (denominator_ < 0) {
      numerator_ = -numerator_;
      denominator_ = -denominator_;
    }
    const Integer divisor = gcd(numerator_, denominator_);
    if (divisor > 1) {
      numerator_ /= divisor;
      denominator_ /= divisor;
    }
  }

  Integer numerator_ = 0;
  Integer denominator_ = 1;
};

using Rational128 = ExactRational<Int128>;
using BigRational = ExactRational<boost::multiprecision::cpp_int>;

}  // namespace rbmix::proofs
