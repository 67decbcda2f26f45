// The count of log records over the range, a bar per bucket stacked by severity band in the
// table's colours, drawn as SVG: rectangles only for the non-empty bands of each bucket. Its key
// says each band's total in words (the chart's accessible summary as well, with the chart's own
// label), so the numbers do not depend on reading the bars.
//
// data-testid: logs-histogram (the section), histogram-chart (the svg, with data-buckets),
// histogram-total-<band> (each band's total, every band), histogram-total (all), histogram-step.
import { formatDuration, formatTime, SEVERITY_BANDS } from '../lib/format';
import type { Histogram } from '../lib/histogram';

/** Each bucket's width in the SVG's own units, and the bar's within it: a gap between bars. */
const SLOT = 10;
const BAR = 8;
const HEIGHT = 100;

export function LogHistogram(props: { histogram: Histogram | undefined; error: string | undefined }) {
  const { histogram } = props;
  if (histogram === undefined) {
    // As tall as the chart, so that the table below does not move when it comes.
    return (
      <section class="histogram" aria-labelledby="logs-histogram-title" data-testid="logs-histogram">
        <div class="histogram-top">
          <h2 id="logs-histogram-title">Counts by severity</h2>
        </div>
        <div class="plot plot-empty">
          <p class={props.error === undefined ? 'hint' : 'message'}>{props.error ?? 'Counting…'}</p>
        </div>
        <div class="plot-axis" aria-hidden="true">
          &nbsp;
        </div>
      </section>
    );
  }
  const { buckets, max, totals, step } = histogram;
  const per = formatDuration(step);
  const summary = SEVERITY_BANDS.filter((band) => totals[band] > 0)
    .map((band) => `${totals[band]} ${band}`)
    .join(', ');
  const label = `Log records per ${per} from ${formatTime(String(histogram.from))} to ${formatTime(String(histogram.to))}: ${summary === '' ? 'none' : summary}.`;
  return (
    <section class="histogram" aria-labelledby="logs-histogram-title" data-testid="logs-histogram">
      <div class="histogram-top">
        <h2 id="logs-histogram-title">Counts by severity</h2>
        <ul class="legend" aria-label="Totals by severity">
          {SEVERITY_BANDS.map((band) => (
            <li key={band} class={totals[band] === 0 ? 'zero' : undefined}>
              <span class={`swatch sev-fill sev-${band}`} aria-hidden="true" />
              {band} <b data-testid={`histogram-total-${band}`}>{totals[band]}</b>
            </li>
          ))}
          <li>
            all <b data-testid="histogram-total">{histogram.total}</b>
          </li>
        </ul>
      </div>
      <div class="plot">
        <span class="plot-max" aria-hidden="true">
          {max}
        </span>
        <svg
          viewBox={`0 0 ${Math.max(1, buckets.length) * SLOT} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={label}
          data-testid="histogram-chart"
          data-buckets={buckets.length}
        >
          {buckets.map((bucket, k) => {
            if (bucket.total === 0) return null;
            let below = 0;
            return (
              <g key={k}>
                <title>{`${formatTime(String(bucket.start))}: ${SEVERITY_BANDS.filter((band) => bucket.counts[band] > 0)
                  .map((band) => `${bucket.counts[band]} ${band}`)
                  .join(', ')}`}</title>
                {SEVERITY_BANDS.map((band) => {
                  const count = bucket.counts[band];
                  if (count === 0) return null;
                  const height = (count / max) * HEIGHT;
                  below += height;
                  return <rect key={band} class={`bar sev-${band}`} x={k * SLOT + (SLOT - BAR) / 2} width={BAR} y={HEIGHT - below} height={height} />;
                })}
              </g>
            );
          })}
        </svg>
      </div>
      <div class="plot-axis" aria-hidden="true">
        <span>{formatTime(String(histogram.from))}</span>
        <span data-testid="histogram-step">per {per}</span>
        <span>{formatTime(String(histogram.to))}</span>
      </div>
    </section>
  );
}
