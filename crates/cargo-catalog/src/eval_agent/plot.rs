//! Each split as a point of accuracy against tokens per request: the trade-off between
//! showing the model every tool and making it search, at a glance.

use std::iter::once;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::report::Report;

const WIDTH: u32 = 760;
const HEIGHT: u32 = 480;

/// The plot as an SVG document.
pub(super) fn svg(report: &Report) -> String {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        // The backend writes to a string: drawing fails only on a bug of ours, and a
        // plot cut short is still a valid document, so the report goes on.
        let _ = draw(&root, report).and_then(|()| root.present());
    }
    out
}

type Failure = DrawingAreaErrorKind<<SVGBackend<'static> as DrawingBackend>::ErrorType>;

fn draw(root: &DrawingArea<SVGBackend<'_>, Shift>, report: &Report) -> Result<(), Failure> {
    root.fill(&WHITE)?;
    let tokens =
        |f: &super::report::Figures| f.input_tokens_per_request + f.output_tokens_per_request;
    let most = report.splits.iter().map(tokens).fold(1.0, f64::max) * 1.2;
    let run = &report.run;
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!(
                "{} {}: {} requests × {} run(s)",
                run.provider, run.model, run.requests, run.runs
            ),
            ("sans-serif", 18),
        )
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d(0f64..most, 0f64..1.05f64)?;
    chart
        .configure_mesh()
        .x_desc("tokens per request (input + output)")
        .y_desc("share of requests")
        .draw()?;
    for (i, f) in report.splits.iter().enumerate() {
        let x = tokens(f);
        let colour = Palette99::pick(i).to_rgba();
        for spread in [f.selection_accuracy, f.success] {
            if spread.max > spread.min {
                chart.draw_series(once(PathElement::new(
                    vec![(x, spread.min), (x, spread.max)],
                    colour.stroke_width(1),
                )))?;
            }
        }
        chart
            .draw_series(once(Circle::new(
                (x, f.selection_accuracy.mean),
                6,
                colour.filled(),
            )))?
            .label(format!("{}: selection (filled), success (ring)", f.split))
            .legend(move |(x, y)| Circle::new((x + 8, y), 5, colour.filled()));
        chart.draw_series(once(Circle::new(
            (x, f.success.mean),
            9,
            colour.stroke_width(2),
        )))?;
        chart.draw_series(once(Text::new(
            f.split.clone(),
            (x, f.selection_accuracy.mean),
            ("sans-serif", 13).into_font().color(&BLACK),
        )))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}
