//! Resource quantities (`250m`, `0.5`, `128Mi`, `1G`, `1e3`), as `resource.ParseQuantity`
//! (`k8s.io/apimachinery/pkg/api/resource/quantity.go`) reads them: a decimal number, then
//! a binary suffix (`Ki` … `Ei`), a decimal one (`n`, `u`, `m`, ``, `k`, `M` … `E`) or an
//! exponent (`e3`, `E-2`). The model counts cpu in millicores and memory in MiB; a value
//! between two units is rounded up, as the API rounds a request up to its smallest unit.

use crate::spec::MAX_RESOURCE;

/// The quantity as an exact fraction `numerator / denominator`.
fn parse(text: &str) -> Result<(u128, u128), String> {
    let bad = || {
        format!("`{text}` is not a quantity: write a number with an optional suffix, such as 250m, 0.5, 128Mi or 1Gi")
    };
    let t = text.trim();
    let t = t.strip_prefix('+').unwrap_or(t);
    if t.starts_with('-') {
        return Err(format!("`{text}`: must be greater than or equal to 0"));
    }
    let end = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, suffix) = t.split_at(end);
    if number.is_empty() || number == "." || number.matches('.').count() > 1 {
        return Err(bad());
    }
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    if int.len() + frac.len() > 30 {
        return Err(format!("`{text}` is too large for the model"));
    }
    let digits: u128 = format!("{int}{frac}").parse().map_err(|_| bad())?;
    let mut num = digits;
    let mut den: u128 = 10u128.pow(frac.len() as u32);
    let pow = |base: u128, e: u32| base.checked_pow(e);
    let too_large = || format!("`{text}` is too large for the model");
    let (mul, div): (u128, u128) = match suffix {
        "" => (1, 1),
        "Ki" => (1 << 10, 1),
        "Mi" => (1 << 20, 1),
        "Gi" => (1 << 30, 1),
        "Ti" => (1 << 40, 1),
        "Pi" => (1 << 50, 1),
        "Ei" => (1 << 60, 1),
        "n" => (1, 1_000_000_000),
        "u" => (1, 1_000_000),
        "m" => (1, 1000),
        "k" => (1000, 1),
        "M" => (1_000_000, 1),
        "G" => (1_000_000_000, 1),
        "T" => (1_000_000_000_000, 1),
        "P" => (1_000_000_000_000_000, 1),
        "E" => (1_000_000_000_000_000_000, 1),
        s if s.starts_with(['e', 'E']) => {
            let e: i32 = s[1..].parse().map_err(|_| bad())?;
            if e.unsigned_abs() > 18 {
                return Err(too_large());
            }
            if e >= 0 {
                (pow(10, e as u32).ok_or_else(too_large)?, 1)
            } else {
                (1, pow(10, e.unsigned_abs()).ok_or_else(too_large)?)
            }
        }
        _ => return Err(bad()),
    };
    num = num.checked_mul(mul).ok_or_else(too_large)?;
    den = den.checked_mul(div).ok_or_else(too_large)?;
    Ok((num, den))
}

/// The largest value the model takes ([`MAX_RESOURCE`]): cpu and memory are summed over a
/// node's pods in 64 bits, so each stays far below.
const LIMIT: u128 = MAX_RESOURCE as u128;

fn scaled(text: &str, unit_num: u128, unit_den: u128, what: &str) -> Result<u64, String> {
    let (n, d) = parse(text)?;
    let n = n
        .checked_mul(unit_num)
        .ok_or_else(|| format!("`{text}` is too large for the model"))?;
    let d = d
        .checked_mul(unit_den)
        .ok_or_else(|| format!("`{text}` is too large for the model"))?;
    let v = n.div_ceil(d);
    if v > LIMIT {
        return Err(format!(
            "`{text}` is too large for the model (at most {LIMIT} {what})"
        ));
    }
    Ok(v as u64)
}

/// A cpu quantity in millicores (`250m` → 250, `0.5` → 500, `2` → 2000).
pub fn milli(text: &str) -> Result<u64, String> {
    scaled(text, 1000, 1, "millicores")
}

/// A memory quantity in MiB, rounded up (`128Mi` → 128, `1Gi` → 1024, `1G` → 954).
pub fn mebi(text: &str) -> Result<u64, String> {
    scaled(text, 1, 1 << 20, "MiB")
}

/// Whether the quantity is a whole number (`MilliValue() % 1000 == 0`, as the API server's
/// `ValidateResourceQuantityValue` checks an integer resource).
pub fn is_whole(text: &str) -> Result<bool, String> {
    let (n, d) = parse(text)?;
    Ok(n % d == 0)
}

/// Any other resource's quantity in its own unit, rounded up (`Quantity.Value()`): bytes for
/// ephemeral-storage and hugepages, units for an extended resource.
pub fn value(text: &str) -> Result<u64, String> {
    let (n, d) = parse(text)?;
    let v = n.div_ceil(d);
    let limit = u128::from(crate::spec::MAX_SCALAR);
    if v > limit {
        return Err(format!(
            "`{text}` is too large for the model (at most {limit})"
        ));
    }
    Ok(v as u64)
}

/// The quantity as an exact fraction, for comparing two (a request and its limit).
pub fn exact(text: &str) -> Result<(u128, u128), String> {
    parse(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_and_memory() {
        assert_eq!(milli("250m"), Ok(250));
        assert_eq!(milli("0.5"), Ok(500));
        assert_eq!(milli("2"), Ok(2000));
        assert_eq!(milli("1e3"), Ok(1_000_000));
        assert_eq!(milli("100u"), Ok(1));
        assert_eq!(mebi("128Mi"), Ok(128));
        assert_eq!(mebi("1Gi"), Ok(1024));
        assert_eq!(mebi("1G"), Ok(954));
        assert_eq!(mebi("512Ki"), Ok(1));
        assert!(milli("-1").is_err());
        assert!(milli("abc").is_err());
        assert!(milli("1.2.3").is_err());
        assert!(mebi("1Zi").is_err());
        assert!(mebi("999999999999999999999999Ei").is_err());
    }

    #[test]
    fn other_resources() {
        assert_eq!(value("2Gi"), Ok(2 << 30));
        assert_eq!(value("1"), Ok(1));
        assert_eq!(value("500m"), Ok(1));
        assert_eq!(value("1.5k"), Ok(1500));
        assert!(value("2Ei").is_err());
        assert_eq!(is_whole("2"), Ok(true));
        assert_eq!(is_whole("1000m"), Ok(true));
        assert_eq!(is_whole("500m"), Ok(false));
        assert_eq!(is_whole("0.5"), Ok(false));
    }
}
