//! proposeChart: the data computed in SQL and a Vega-Lite specification a front end
//! draws as it is (vega-embed in a web view, or any Vega-Lite renderer), the data
//! inline so the chart needs nothing else.

use app_catalog as cat;
use app_catalog::Tool;
use serde_json::{Value, json};

use crate::Error;
use crate::reads::select;
use crate::schema::{self, quote};
use crate::store::Store;
use crate::types::ColumnType;

/// More points than this make a chart no one can read; the call asks for buckets or
/// an aggregation instead.
const MAX_POINTS: usize = 5000;

fn bucketed(column: &str, bucket: cat::ProposeChartBucket) -> String {
    use cat::ProposeChartBucket as B;
    let c = quote(column);
    match bucket {
        B::Day => format!("date({c})"),
        // Weeks start on Monday, as ISO 8601 has them.
        B::Week => format!("date({c}, '-6 days', 'weekday 1')"),
        B::Month => format!("strftime('%Y-%m-01', {c})"),
        B::Quarter => format!(
            "printf('%s-%02d-01', strftime('%Y', {c}), \
             ((CAST(strftime('%m', {c}) AS INTEGER) - 1) / 3) * 3 + 1)"
        ),
        B::Year => format!("strftime('%Y-01-01', {c})"),
    }
}

pub(crate) fn propose(
    store: &Store,
    conn: &rusqlite::Connection,
    args: &cat::ProposeChartArgs,
) -> Result<Value, Error> {
    use cat::ProposeChartAggregation as A;
    use cat::ProposeChartChartType as K;
    let tool = Tool::ProposeChart;
    let t = schema::load(conn, &args.table)?;
    let x = t.column(&args.x)?;
    let y = args.y.as_deref().map(|y| t.column(y)).transpose()?;
    let series = args.series.as_deref().map(|s| t.column(s)).transpose()?;
    if let Some(y) = y.filter(|y| !y.ty.is_numeric() && args.aggregation != A::Count) {
        return Err(Error::invalid(
            tool,
            format!(
                "y must be a number column, and `{}` is {}; use aggregation count, or pick a \
                 number column",
                y.name,
                y.ty.as_str()
            ),
        ));
    }
    if args.chart_type == K::Pie && series.is_some() {
        return Err(Error::invalid(
            tool,
            "a pie chart has no series; leave series out or use a bar chart",
        ));
    }
    let dated = matches!(x.ty, ColumnType::Date | ColumnType::Datetime);
    if args.bucket.is_some() && !dated {
        return Err(Error::invalid(
            tool,
            format!(
                "bucket groups dates, and `{}` is {}; leave bucket out",
                x.name,
                x.ty.as_str()
            ),
        ));
    }
    let x_expr = args
        .bucket
        .map_or_else(|| quote(&x.name), |b| bucketed(&x.name, b));
    let (y_expr, y_name) = match (args.aggregation, y) {
        (A::None, Some(y)) => (quote(&y.name), y.name.clone()),
        (A::None, None) => {
            return Err(Error::invalid(
                tool,
                "aggregation none plots raw points and needs y; name a number column",
            ));
        }
        (A::Count, _) | (_, None) => ("count(*)".to_owned(), "count".to_owned()),
        (agg, Some(y)) => (
            format!("{}({})", agg.as_str(), quote(&y.name)),
            format!("{}_{}", agg.as_str(), y.name),
        ),
    };
    let series_expr = series.map(|s| quote(&s.name));
    let mut fields = vec![format!("{x_expr} AS x"), format!("{y_expr} AS y")];
    fields.extend(series_expr.iter().map(|s| format!("{s} AS series")));
    let mut sql = format!(
        "SELECT {} FROM {} WHERE {} IS NOT NULL",
        fields.join(", "),
        quote(&t.name),
        quote(&x.name)
    );
    if args.aggregation != A::None {
        let mut group = vec![x_expr.clone()];
        group.extend(series_expr.iter().cloned());
        sql.push_str(&format!(" GROUP BY {}", group.join(", ")));
    }
    sql.push_str(&format!(" ORDER BY x LIMIT {}", MAX_POINTS + 1));
    let x_type = if args.bucket.is_some() {
        Some(ColumnType::Text)
    } else {
        Some(x.ty)
    };
    let mut names = vec![(x.name.clone(), x_type), (y_name.clone(), None)];
    if let Some(s) = series {
        names.push((s.name.clone(), Some(s.ty)));
    }
    let values = select(store, conn, &sql, &[], &names)?;
    if values.len() > MAX_POINTS {
        return Err(Error::invalid(
            tool,
            format!(
                "more than {MAX_POINTS} points to draw; bucket the dates, aggregate per x value, \
                 or pick a column with fewer values"
            ),
        ));
    }
    let x_kind = match (args.chart_type, x.ty) {
        (_, ColumnType::Date | ColumnType::Datetime) => "temporal",
        (K::Scatter | K::Line, ColumnType::Integer | ColumnType::Real) => "quantitative",
        (K::Bar, ColumnType::Integer | ColumnType::Real) => "ordinal",
        _ => "nominal",
    };
    let x_title = match args.bucket {
        Some(b) => format!("{} ({})", x.name, b.as_str()),
        None => x.name.clone(),
    };
    let mut encoding = if args.chart_type == K::Pie {
        json!({
            "theta": {"field": y_name, "type": "quantitative", "title": y_name},
            "color": {"field": x.name, "type": "nominal", "title": x_title},
        })
    } else {
        json!({
            "x": {"field": x.name, "type": x_kind, "title": x_title},
            "y": {"field": y_name, "type": "quantitative", "title": y_name},
        })
    };
    if let Some(s) = series {
        encoding["color"] = json!({"field": s.name, "type": "nominal", "title": s.name});
    }
    let mark = match args.chart_type {
        K::Bar => "bar",
        K::Line => "line",
        K::Pie => "arc",
        K::Scatter => "point",
    };
    let title = args
        .title
        .clone()
        .unwrap_or_else(|| format!("{y_name} by {x_title}"));
    let spec = json!({
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "title": title,
        "data": {"values": values},
        "mark": {"type": mark, "tooltip": true},
        "encoding": encoding,
    });
    Ok(json!({ "shown": true, "points": values.len(), "spec": spec }))
}
