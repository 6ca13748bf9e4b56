//! The clock behind `getCurrentTime` and commit times, and the ISO 8601 dates the
//! tables hold. Calendar arithmetic is proleptic Gregorian, with no time zone database:
//! a clock reports its own UTC offset.

use std::time::{SystemTime, UNIX_EPOCH};

/// A moment as the user's computer sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Now {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub unix_seconds: i64,
    /// The local offset from UTC, in minutes (`60` for UTC+01:00).
    pub utc_offset_minutes: i32,
    /// IANA name of the local time zone, e.g. `Europe/Berlin`.
    pub time_zone: String,
}

/// Where the backend gets the time; tests pass a [`FixedClock`].
pub trait Clock: Send + Sync {
    /// The current moment.
    fn now(&self) -> Now;
}

/// The system clock, reported in UTC.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Now {
        let unix_seconds = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        Now {
            unix_seconds,
            utc_offset_minutes: 0,
            time_zone: "UTC".to_owned(),
        }
    }
}

/// A clock that always says the same time.
#[derive(Clone, Debug)]
pub struct FixedClock(pub Now);

impl FixedClock {
    /// The clock stopped at `iso` (`2025-03-14T09:30:00+01:00`) in `time_zone`; `None`
    /// when `iso` is not a date-time with an offset.
    #[must_use]
    pub fn at(iso: &str, time_zone: &str) -> Option<FixedClock> {
        let (unix_seconds, offset) = parse_date_time(iso, 0)?;
        Some(FixedClock(Now {
            unix_seconds,
            utc_offset_minutes: offset?,
            time_zone: time_zone.to_owned(),
        }))
    }
}

impl Clock for FixedClock {
    fn now(&self) -> Now {
        self.0.clone()
    }
}

const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

impl Now {
    /// Local date and time in ISO 8601 with offset: `2025-03-14T09:30:00+01:00`.
    #[must_use]
    pub fn iso(&self) -> String {
        let local = self.unix_seconds + i64::from(self.utc_offset_minutes) * 60;
        let (days, secs) = (local.div_euclid(86_400), local.rem_euclid(86_400));
        let (y, m, d) = civil_from_days(days);
        let sign = if self.utc_offset_minutes < 0 {
            '-'
        } else {
            '+'
        };
        let off = self.utc_offset_minutes.unsigned_abs();
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}{sign}{:02}:{:02}",
            secs / 3600,
            secs % 3600 / 60,
            secs % 60,
            off / 60,
            off % 60
        )
    }

    /// The local day of the week, `Monday` to `Sunday`.
    #[must_use]
    pub fn weekday(&self) -> &'static str {
        let local = self.unix_seconds + i64::from(self.utc_offset_minutes) * 60;
        // 1970-01-01 was a Thursday, index 3 counting from Monday.
        let index = (local.div_euclid(86_400) + 3).rem_euclid(7);
        WEEKDAYS[usize::try_from(index).unwrap_or(0)]
    }
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn number(s: &str) -> Option<i64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` date, checking that the day exists.
#[must_use]
pub fn parse_date(s: &str) -> Option<i64> {
    let mut parts = s.splitn(3, '-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let (y, m, d) = (number(y)?, number(m)?, number(d)?);
    if !(1..=12).contains(&m) || d < 1 {
        return None;
    }
    let days = days_from_civil(y, m, d);
    (civil_from_days(days) == (y, m, d)).then_some(days)
}

/// Seconds since the epoch of an ISO 8601 date or date-time, and the offset it states.
///
/// A bare date means its midnight, and a date-time without an offset means local time:
/// both are read at `default_offset_minutes`, and the offset returned is `None`.
#[must_use]
pub fn parse_date_time(s: &str, default_offset_minutes: i32) -> Option<(i64, Option<i32>)> {
    let (date, rest) = match s.split_once('T') {
        Some((date, rest)) => (date, Some(rest)),
        None => (s, None),
    };
    let days = parse_date(date)?;
    let (time, offset) = match rest {
        None => ("00:00:00", None),
        Some(rest) => {
            if let Some(time) = rest.strip_suffix('Z') {
                (time, Some(0))
            } else if let Some(at) = rest.rfind(['+', '-']) {
                let (time, off) = rest.split_at(at);
                let (sign, off) = off.split_at(1);
                let (h, m) = off.split_once(':')?;
                let (h, m) = (number(h)?, number(m)?);
                if h > 23 || m > 59 {
                    return None;
                }
                let minutes = i32::try_from(h * 60 + m).ok()?;
                (time, Some(if sign == "-" { -minutes } else { minutes }))
            } else {
                (rest, None)
            }
        }
    };
    let mut hms = time.split(':');
    let h = number(hms.next()?)?;
    let m = number(hms.next()?)?;
    let sec = match hms.next() {
        // Fractions of a second are accepted and dropped.
        Some(sec) => number(sec.split('.').next()?)?,
        None => 0,
    };
    if hms.next().is_some() || h > 23 || m > 59 || sec > 60 {
        return None;
    }
    let local = days * 86_400 + h * 3600 + m * 60 + sec;
    let used = offset.unwrap_or(default_offset_minutes);
    Some((local - i64::from(used) * 60, offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_a_local_time() {
        let clock = FixedClock::at("2025-03-14T09:30:00+01:00", "Europe/Berlin").unwrap();
        let now = clock.now();
        assert_eq!(now.iso(), "2025-03-14T09:30:00+01:00");
        assert_eq!(now.weekday(), "Friday");
        assert_eq!(now.unix_seconds, 1_741_941_000);
    }

    #[test]
    fn rejects_impossible_dates() {
        assert!(parse_date("2024-02-29").is_some());
        assert!(parse_date("2023-02-29").is_none());
        assert!(parse_date("2023-13-01").is_none());
        assert!(parse_date("23-01-01").is_none());
        assert!(parse_date_time("2023-01-01T25:00:00Z", 0).is_none());
    }

    #[test]
    fn offsets_move_the_instant() {
        let (a, _) = parse_date_time("2025-01-01T00:00:00Z", 0).unwrap();
        let (b, off) = parse_date_time("2025-01-01T01:00:00+01:00", 0).unwrap();
        assert_eq!((a, Some(60)), (b, off));
        let (c, off) = parse_date_time("2025-01-01", 60).unwrap();
        assert_eq!((c, off), (a - 3600, None));
    }
}
