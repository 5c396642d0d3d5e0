//! The arithmetic of rules programs, shared by the interpreter, the compiled `after-move` and
//! goals.

/// Rules-program arithmetic (docs/semantics.md, "Counters and expressions"): `+`, `-` and `*`
/// saturate at the bounds of a 64-bit integer; `/` rounds toward minus infinity, division by
/// zero gives 0, and the one quotient that does not fit (`i64::MIN / -1`) saturates too.
/// Nothing here can panic, in debug or release builds.
pub fn arith(op: char, a: i64, b: i64) -> i64 {
    match op {
        '+' => a.saturating_add(b),
        '-' => a.saturating_sub(b),
        '*' => a.saturating_mul(b),
        _ => {
            if b == 0 {
                return 0;
            }
            let Some(q) = a.checked_div(b) else {
                return i64::MAX; // i64::MIN / -1
            };
            if a % b != 0 && ((a < 0) != (b < 0)) {
                q - 1
            } else {
                q
            }
        }
    }
}
