//! The clock behind `getCurrentTime` and commit times, in the user's time zone, and the
//! ISO 8601 dates the tables hold. Time zones come from `jiff` with the IANA database
//! bundled into the binary, so a zone name works on a machine without tzdata.

use jiff::Timestamp;
use jiff::ZonedDateTime as Zoned;
use jiff::civil::{Date, DateTime, Weekday};
use jiff::tz::TimeZone;

use crate::Error;

/// A moment in the user's time zone.
#[derive(Clone, Debug, PartialEq)]
pub struct Now(Zoned);

impl Now {
    /// Local date and time in ISO 8601 with offset: `2025-03-14T09:30:00+01:00`.
    #[must_use]
    pub fn iso(&self) -> String {
        self.0.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string()
    }

    /// The local day of the week, `Monday` to `Sunday`.
    #[must_use]
    pub fn weekday(&self) -> &'static str {
        match self.0.weekday() {
            Weekday::Monday => "Monday",
            Weekday::Tuesday => "Tuesday",
            Weekday::Wednesday => "Wednesday",
            Weekday::Thursday => "Thursday",
            Weekday::Friday => "Friday",
            Weekday::Saturday => "Saturday",
            Weekday::Sunday => "Sunday",
        }
    }

    /// The IANA name of the time zone, e.g. `Europe/Berlin`; `UTC` for a zone that has
    /// none (a `TZ` rule string).
    #[must_use]
    pub fn time_zone(&self) -> &str {
        self.0.time_zone().iana_name().unwrap_or("UTC")
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    #[must_use]
    pub fn unix_seconds(&self) -> i64 {
        self.0.timestamp().as_second()
    }

    /// The time zone, for reading dates the user wrote without an offset.
    #[must_use]
    pub fn zone(&self) -> &TimeZone {
        self.0.time_zone()
    }
}

/// Where the backend gets the time; tests pass a [`FixedClock`].
pub trait Clock: Send + Sync {
    /// The current moment.
    fn now(&self) -> Now;
}

/// The system clock, in the machine's time zone (the `TZ` variable overrides it) or in
/// one named with [`SystemClock::in_zone`].
#[derive(Clone, Debug)]
pub struct SystemClock(TimeZone);

impl Default for SystemClock {
    fn default() -> SystemClock {
        SystemClock(TimeZone::system())
    }
}

impl SystemClock {
    /// The system clock in the machine's time zone.
    #[must_use]
    pub fn new() -> SystemClock {
        SystemClock::default()
    }

    /// The system clock in the IANA time zone `name`, e.g. `Europe/Berlin`.
    ///
    /// # Errors
    /// [`Error::NoSuchTimeZone`] when the name is not in the IANA database.
    pub fn in_zone(name: &str) -> Result<SystemClock, Error> {
        zone(name).map(SystemClock)
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Now {
        Now(Timestamp::now().to_zoned_datetime(self.0.clone()))
    }
}

/// A clock that always says the same time.
#[derive(Clone, Debug)]
pub struct FixedClock(Now);

impl FixedClock {
    /// The clock stopped at the instant `iso` (`2025-03-14T09:30:00+01:00`, with an
    /// offset or `Z`), seen in the IANA time zone `time_zone`; `None` when either does
    /// not parse.
    #[must_use]
    pub fn at(iso: &str, time_zone: &str) -> Option<FixedClock> {
        let instant: Timestamp = iso.parse().ok()?;
        let zone = zone(time_zone).ok()?;
        Some(FixedClock(Now(instant.to_zoned_datetime(zone))))
    }
}

impl Clock for FixedClock {
    fn now(&self) -> Now {
        self.0.clone()
    }
}

fn zone(name: &str) -> Result<TimeZone, Error> {
    TimeZone::get(name).map_err(|_| Error::NoSuchTimeZone {
        name: name.to_owned(),
    })
}

/// A `YYYY-MM-DD` date that exists.
#[must_use]
pub fn parse_date(s: &str) -> Option<Date> {
    let b = s.as_bytes();
    // jiff also reads other ISO 8601 forms; the tables hold only this one.
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    s.parse().ok()
}

/// Seconds since the epoch of an ISO 8601 date or date-time. One without an offset is
/// read in `zone`, a bare date as its midnight.
#[must_use]
pub fn instant_in(s: &str, zone: &TimeZone) -> Option<i64> {
    if let Ok(t) = s.parse::<Timestamp>() {
        return Some(t.as_second());
    }
    let civil = match s.parse::<DateTime>() {
        Ok(dt) if s.len() > 10 => dt,
        _ => parse_date(s)?.to_datetime(jiff::civil::Time::midnight()),
    };
    civil
        .to_zoned_datetime(zone.clone())
        .ok()
        .map(|z| z.timestamp().as_second())
}

/// [`instant_in`] UTC: how `datetime` cells without an offset compare.
#[must_use]
pub fn parse_instant(s: &str) -> Option<i64> {
    instant_in(s, &TimeZone::UTC)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_clock_reads_in_its_zone_with_daylight_saving() {
        let clock = FixedClock::at("2025-03-14T09:30:00+01:00", "Europe/Berlin").unwrap();
        let now = clock.now();
        assert_eq!(now.iso(), "2025-03-14T09:30:00+01:00");
        assert_eq!(now.weekday(), "Friday");
        assert_eq!(now.unix_seconds(), 1_741_941_000);
        assert_eq!(now.time_zone(), "Europe/Berlin");
        let summer = FixedClock::at("2025-07-01T12:00:00Z", "America/New_York").unwrap();
        assert_eq!(summer.now().iso(), "2025-07-01T08:00:00-04:00");
        let winter = FixedClock::at("2025-01-01T12:00:00Z", "America/New_York").unwrap();
        assert_eq!(winter.now().iso(), "2025-01-01T07:00:00-05:00");
        assert!(FixedClock::at("2025-01-01T12:00:00Z", "Mars/Olympus").is_none());
        assert!(SystemClock::in_zone("Europe/Nowhere").is_err());
    }

    #[test]
    fn rejects_impossible_dates() {
        assert!(parse_date("2024-02-29").is_some());
        assert!(parse_date("2023-02-29").is_none());
        assert!(parse_date("2023-13-01").is_none());
        assert!(parse_date("23-01-01").is_none());
        assert!(parse_instant("2023-01-01T25:00:00Z").is_none());
        assert!(parse_instant("yesterday").is_none());
    }

    #[test]
    fn offsets_move_the_instant() {
        let a = parse_instant("2025-01-01T00:00:00Z").unwrap();
        assert_eq!(parse_instant("2025-01-01T01:00:00+01:00"), Some(a));
        assert_eq!(parse_instant("2025-01-01"), Some(a));
        let berlin = TimeZone::get("Europe/Berlin").unwrap();
        assert_eq!(instant_in("2025-01-01", &berlin), Some(a - 3600));
        assert_eq!(instant_in("2025-01-01T01:00", &berlin), Some(a));
    }
}
