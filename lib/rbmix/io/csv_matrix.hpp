#pragma once
// Numeric tables in CSV, read into the same 2-D float64 array a .npy file gives (so every data reader accepts them).
// The format read:
//  - one sample per line, fields separated by commas; spaces and tabs around a field are ignored; lines end in LF or
//    CRLF; a UTF-8 byte-order mark at the start is skipped; empty lines at the end of the file are ignored;
//  - each field a decimal number as std::from_chars reads it (e.g. 1, 0.25, -3e-2), with an optional leading '+';
//  - an optional header: the first line is a header when every one of its fields is non-empty and not a number
//    (e.g. "x1,x2,x3"); a first line that mixes numbers and other fields is a malformed row, not a header.
// Every malformed input is an InputError naming the source, the line and the column (both counted from 1) and what is
// wrong: no rows, an empty line between rows, a row with another number of fields than the first (ragged), a field
// that is not a number, NaN or an infinity.
#include <string>
#include <string_view>

#include "rbmix/io/npy.hpp"

namespace rbmix {

NpyArray decode_csv_matrix(std::string_view text, const std::string& source);

}  // namespace rbmix
