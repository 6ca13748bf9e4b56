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
use crate::types::{Column, ColumnType};

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

/// One chart's query, its parts checked.
struct Plot<'a> {
    table: &'a str,
    x: &'a Column,
    /// x as grouped: the column, or its date bucket.
    x_expr: String,
    /// y as drawn: the column, or its aggregate.
    y_expr: String,
    y_name: String,
    series: Option<&'a Column>,
    /// Whether y is aggregated per x (and series) value, rather than raw points.
    grouped: bool,
    bucketed: bool,
}

/// The points to draw: x, y and the series, one object each, in x order.
fn points(
    store: &Store,
    conn: &rusqlite::Connection,
    plot: &Plot<'_>,
) -> Result<Vec<Value>, Error> {
    let series_expr = plot.series.map(|s| quote(&s.name));
    let mut fields = vec![
        format!("{} AS x", plot.x_expr),
        format!("{} AS y", plot.y_expr),
    ];
    fields.extend(series_expr.iter().map(|s| format!("{s} AS series")));
    let mut group = vec![plot.x_expr.clone()];
    group.extend(series_expr);
    let group = if plot.grouped {
        format!(" GROUP BY {}", group.join(", "))
    } else {
        String::new()
    };
    let sql = format!(
        "SELECT {} FROM {} WHERE {} IS NOT NULL{group} ORDER BY x LIMIT {}",
        fields.join(", "),
        quote(plot.table),
        quote(&plot.x.name),
        MAX_POINTS + 1
    );
    // A bucket is a date as text; otherwise x keeps its column's type.
    let x_type = if plot.bucketed {
        ColumnType::Text
    } else {
        plot.x.ty
    };
    let mut names = vec![
        (plot.x.name.clone(), Some(x_type)),
        (plot.y_name.clone(), None),
    ];
    names.extend(plot.series.map(|s| (s.name.clone(), Some(s.ty))));
    let values = select(store, conn, &sql, &[], &names)?;
    if values.len() > MAX_POINTS {
        return Err(Error::invalid(
            Tool::ProposeChart,
            format!(
                "more than {MAX_POINTS} points to draw; bucket the dates, aggregate per x value, \
                 or pick a column with fewer values"
            ),
        ));
    }
    Ok(values)
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
    let plot = Plot {
        table: &t.name,
        x,
        x_expr,
        y_expr,
        y_name: y_name.clone(),
        series,
        grouped: args.aggregation != A::None,
        bucketed: args.bucket.is_some(),
    };
    let values = points(store, conn, &plot)?;
    let spec = vega_lite(args, x, &y_name, series, &values);
    Ok(json!({ "shown": true, "points": values.len(), "spec": spec }))
}

/// The Vega-Lite specification of a chart of `values`.
fn vega_lite(
    args: &cat::ProposeChartArgs,
    x: &Column,
    y_name: &str,
    series: Option<&Column>,
    values: &[Value],
) -> Value {
    use cat::ProposeChartChartType as K;
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
    spec
}
