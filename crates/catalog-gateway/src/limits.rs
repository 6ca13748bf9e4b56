//! Rate limits: token buckets (GCRA, the `governor` crate) per client and per tool, from
//! the `[[limit]]` tables of the operator's file:
//!
//! ```toml
//! [[limit]]              # every client: 20 calls a second, bursts of 40
//! rate = "20/second"
//! burst = 40
//!
//! [[limit]]              # each client may push once a minute
//! rate = "1/minute"
//! tools = ["git_push"]
//!
//! [[limit]]              # the search tool, for every client together
//! rate = "100/minute"
//! tools = ["searchTools"]
//! shared = true
//! ```
//!
//! A call counts against every table whose `tools` (all, when absent) and `clients` (all,
//! when absent) take it; each client has its own bucket, or, with `shared`, all the
//! clients the table takes share one. A call over any of them is refused before it is
//! verified or forwarded, with the seconds to wait. Each gateway process keeps its own
//! buckets: behind a load balancer, `n` replicas let through up to `n` times a rate.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};

/// One `[[limit]]` table as written.
#[derive(Clone, PartialEq, Eq, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LimitRow {
    /// `N/second`, `N/minute` or `N/hour`.
    pub rate: toml::Spanned<String>,
    /// How many calls may come at once after a quiet spell (default: the rate's `N`).
    pub burst: Option<toml::Spanned<u32>>,
    /// The rows it counts, by catalog name (default: every row).
    #[serde(default)]
    pub tools: Vec<toml::Spanned<String>>,
    /// The clients it counts (default: every client).
    #[serde(default)]
    pub clients: Vec<String>,
    /// One bucket for all the clients it counts, instead of one each.
    #[serde(default)]
    pub shared: bool,
}

/// A rate as written, read: calls per period.
///
/// # Errors
/// What is wrong, with the forms that are right.
pub fn parse_rate(rate: &str) -> Result<(NonZeroU32, Duration), String> {
    let wrong = || {
        format!(
            "`{rate}` is not a rate; write calls per period, e.g. \"20/second\", \"1/minute\" or \"500/hour\""
        )
    };
    let (count, period) = rate.split_once('/').ok_or_else(wrong)?;
    let count: u32 = count.trim().parse().map_err(|_| wrong())?;
    let count = NonZeroU32::new(count).ok_or_else(|| {
        format!("`{rate}` lets no call through; remove the table, or give a rate above 0")
    })?;
    let period = match period.trim() {
        "second" | "s" => Duration::from_secs(1),
        "minute" | "min" => Duration::from_secs(60),
        "hour" | "h" => Duration::from_secs(3600),
        _ => return Err(wrong()),
    };
    Ok((count, period))
}

/// One table, ready: which calls it counts and its buckets.
struct Limit {
    tools: Vec<String>,
    clients: Vec<String>,
    buckets: Buckets,
    rate: String,
}

enum Buckets {
    /// One bucket per client.
    Each(DefaultKeyedRateLimiter<Arc<str>>),
    /// One bucket for every client the table counts.
    Shared(DefaultDirectRateLimiter),
}

/// Every `[[limit]]` of the operator's file.
#[derive(Default)]
pub struct Limits {
    limits: Vec<Limit>,
}

impl std::fmt::Debug for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.limits.iter().map(|l| &l.rate))
            .finish()
    }
}

/// A call over a limit: how long until it would pass, and the limit it broke.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Over {
    /// Whole seconds to wait, at least 1.
    pub retry_after: u64,
    /// The broken limit's rate, as written.
    pub rate: String,
    /// Whether all clients share the bucket.
    pub shared: bool,
}

impl Limits {
    /// The limits of `rows`, already checked (see [`parse_rate`]).
    #[must_use]
    pub fn new(rows: &[LimitRow]) -> Limits {
        let limits = rows
            .iter()
            .filter_map(|row| {
                let (count, period) = parse_rate(row.rate.get_ref()).ok()?;
                let burst = row
                    .burst
                    .as_ref()
                    .and_then(|b| NonZeroU32::new(*b.get_ref()))
                    .unwrap_or(count);
                let quota = Quota::with_period(period / count.get())?.allow_burst(burst);
                Some(Limit {
                    tools: row.tools.iter().map(|t| t.get_ref().clone()).collect(),
                    clients: row.clients.clone(),
                    buckets: if row.shared {
                        Buckets::Shared(RateLimiter::direct(quota))
                    } else {
                        Buckets::Each(RateLimiter::keyed(quota))
                    },
                    rate: row.rate.get_ref().clone(),
                })
            })
            .collect();
        Limits { limits }
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.limits.is_empty()
    }

    /// Counts a call of `tool` by `client` against every limit that takes it: `Err` with
    /// the longest wait when any is spent. The limits checked before the spent one keep
    /// the call counted.
    ///
    /// # Errors
    /// The call is over a limit.
    pub fn check(&self, client: &Arc<str>, tool: &str) -> Result<(), Over> {
        let mut over: Option<Over> = None;
        for limit in &self.limits {
            let takes = (limit.tools.is_empty() || limit.tools.iter().any(|t| t == tool))
                && (limit.clients.is_empty() || limit.clients.iter().any(|c| **c == **client));
            if !takes {
                continue;
            }
            let outcome = match &limit.buckets {
                Buckets::Each(buckets) => buckets.check_key(client),
                Buckets::Shared(bucket) => bucket.check(),
            };
            if let Err(not_until) = outcome {
                // Made only here: a clock costs more to make than a call's every check.
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                let retry_after = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                let this = Over {
                    retry_after: retry_after.max(1),
                    rate: limit.rate.clone(),
                    shared: matches!(limit.buckets, Buckets::Shared(_)),
                };
                if over
                    .as_ref()
                    .is_none_or(|o| o.retry_after < this.retry_after)
                {
                    over = Some(this);
                }
            }
        }
        over.map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<LimitRow> {
        #[derive(serde::Deserialize)]
        struct File {
            limit: Vec<LimitRow>,
        }
        toml::from_str::<File>(text).unwrap().limit
    }

    #[test]
    fn rates_are_read_or_refused_with_the_forms_that_work() {
        assert_eq!(
            parse_rate("20/second"),
            Ok((NonZeroU32::new(20).unwrap(), Duration::from_secs(1)))
        );
        assert_eq!(
            parse_rate("1 / minute"),
            Ok((NonZeroU32::new(1).unwrap(), Duration::from_secs(60)))
        );
        assert!(
            parse_rate("0/second")
                .unwrap_err()
                .contains("lets no call through")
        );
        for wrong in ["20", "x/second", "20/day", "-1/hour", ""] {
            assert!(
                parse_rate(wrong)
                    .unwrap_err()
                    .contains("e.g. \"20/second\""),
                "{wrong}"
            );
        }
    }

    #[test]
    fn each_client_has_its_own_bucket_and_a_tool_limit_counts_only_its_tools() {
        let limits = Limits::new(&rows(
            "[[limit]]\nrate = \"2/minute\"\n\n[[limit]]\nrate = \"1/hour\"\ntools = [\"push\"]\n",
        ));
        let (a, b): (Arc<str>, Arc<str>) = (Arc::from("a"), Arc::from("b"));
        assert_eq!(limits.check(&a, "read"), Ok(()));
        assert_eq!(limits.check(&a, "read"), Ok(()));
        let over = limits.check(&a, "read").unwrap_err();
        assert!((1..=60).contains(&over.retry_after), "{over:?}");
        assert_eq!(over.rate, "2/minute");
        // Another client is not held back by the first.
        assert_eq!(limits.check(&b, "push"), Ok(()));
        // The hourly push limit: the second push waits most of an hour.
        let over = limits.check(&b, "push").unwrap_err();
        assert!(over.retry_after > 3000, "{over:?}");
        assert_eq!(over.rate, "1/hour");
    }

    #[test]
    fn a_shared_limit_holds_every_client_together() {
        let limits = Limits::new(&rows(
            "[[limit]]\nrate = \"2/minute\"\nshared = true\nclients = [\"a\", \"b\"]\n",
        ));
        let (a, b, c): (Arc<str>, Arc<str>, Arc<str>) =
            (Arc::from("a"), Arc::from("b"), Arc::from("c"));
        assert_eq!(limits.check(&a, "t"), Ok(()));
        assert_eq!(limits.check(&b, "t"), Ok(()));
        let over = limits.check(&a, "t").unwrap_err();
        assert!(over.shared);
        // A client the table does not name is not counted.
        for _ in 0..5 {
            assert_eq!(limits.check(&c, "t"), Ok(()));
        }
    }
}
