// The metrics view (/ui/metrics): a metric picked from those stored in the range (metric_names) and
// its series (metric_series) drawn over the range with uPlot: gauges and sums as their values,
// cumulative counters as per-second rates, histograms and summaries as their count, mean or a
// quantile (lib/plot.ts), the unit on the axis; every series with a legend entry that is also its
// checkbox; and the drawn numbers as a table, for whoever cannot see the chart.
//
// The address holds range/from/to and service (components/query-filters.tsx), `name` and `type`
// (the metric; without a name, the first one listed), `series` (the series chosen, as
// plot.ts's selectionParam; absent: every series), `mode` and `q` (histograms and summaries).
//
// data-testid: view-metrics (the root; data-state loading, ready or error), metrics-error (why a
// read failed), metric-name (the metric's <select>), metrics-empty (no metric in the range),
// metric-heading, metric-facts (type, unit, temporality), metric-description, metric-mode and
// metric-quantile (the <select>s of histograms and summaries), metric-note (what the lines are),
// metric-axis-label (the y axis's label: the unit), metric-chart (the chart; data-series: how many
// lines), series-list (the legend and picker), series-entry (one series; data-key: its key),
// series-toggle (its checkbox), series-label (service and attributes), series-value (its value at
// the cursor, else its last), series-all, series-none, series-empty, series-none-chosen,
// series-truncated, table-toggle (Show as table), metric-table, metric-row (one value;
// data-value: the exact number), metric-cell-series, metric-cell-time, metric-cell-value,
// table-truncated.
import { useMemo, useState } from 'preact/hooks';
import type { Api } from '../api';
import { QueryFilters, useQuery } from '../components/query-filters';
import { colorOf, TimeChart, type ChartLine, type Cursor } from '../components/time-chart';
import { useRead } from '../components/use-read';
import { formatNumber, formatTime } from '../lib/format';
import { MODE_NAMES, modeFor, modesOf, plotOf, pointsPerSeries, QUANTILES, quantileFor, DEFAULT_QUANTILE, parseSelection, selectionParam, SERIES_LIMIT, seriesKey, seriesLabel, type MetricShape } from '../lib/plot';
import type { Line } from '../lib/series';
import type { MetricName, MetricSeries } from '../rows';
import { useFilters } from '../url';
import './metrics.css';

const DEFAULTS = { name: '', type: '', series: '', mode: '', q: DEFAULT_QUANTILE };

/** The table's rows shown at most. */
const TABLE_LIMIT = 2000;

const TEMPORALITY = ['', 'delta', 'cumulative'];

/** A time of a line (seconds since the epoch, to the microsecond) as the tables write times. */
const timeText = (seconds: number): string => formatTime(String(BigInt(Math.round(seconds * 1e6)) * 1000n));

/** A line's last value, where it has one. */
function lastValue(line: Line): number | null {
  for (let i = line.values.length - 1; i >= 0; i--) if (line.values[i] !== null) return line.values[i]!;
  return null;
}

const optionValue = (name: string, type: string): string => JSON.stringify([name, type]);

export function MetricsView(props: { api: Api }) {
  const { api } = props;
  const query = useQuery();
  const [filters, setFilters] = useFilters(DEFAULTS);
  const [showTable, setShowTable] = useState(false);
  const [cursor, setCursor] = useState<Cursor>();
  const range = { from: String(query.from), to: String(query.to), ...(query.service === '' ? {} : { service: query.service }) };

  const names = useRead(`names ${query.key}`, (signal) => api.metricNames(range, signal));
  const nameRows = names.state === 'ready' ? names.data.rows : names.state === 'loading' ? names.previous?.rows : undefined;
  // A name in the address is read at once, beside the names; without one, the first listed is.
  const name = filters.name !== '' ? filters.name : nameRows?.[0]?.metric_name;
  const series = useRead(name === undefined ? undefined : JSON.stringify([query.key, name]), (signal) =>
    api.metricSeries({ ...range, name: name as string, limit: SERIES_LIMIT, max_points: pointsPerSeries(query.from, query.to) }, signal),
  );
  // While the range or the service changes, the metric's series before stay on screen; another metric's do not.
  const previous = series.state === 'loading' ? series.previous : undefined;
  const seriesAnswer = series.state === 'ready' ? series.data : previous?.rows[0]?.metric_name === name ? previous : undefined;
  const seriesRows = seriesAnswer?.rows;
  /** The answer stopped at 32 MiB: the series after those read are not shown. */
  const cut = seriesAnswer?.truncated === true;

  const listed: MetricName | undefined = nameRows?.find((row) => row.metric_name === name && (filters.type === '' || row.type === filters.type));
  const type = filters.type !== '' ? filters.type : (listed?.type ?? seriesRows?.[0]?.type);
  const shown: MetricSeries[] = useMemo(() => (seriesRows ?? []).filter((s) => s.type === type), [seriesRows, type]);
  const shape: (MetricShape & { description: string }) | undefined = shown[0] ?? listed;
  const mode = shape === undefined ? undefined : modeFor(shape.type, filters.mode);
  const q = quantileFor(filters.q);
  const plot = useMemo(() => (shape === undefined ? undefined : plotOf(shape, shown, mode, q)), [shown, shape?.type, shape?.unit, shape?.temporality, shape?.is_monotonic, mode, q]);

  const keys = useMemo(() => shown.map(seriesKey), [shown]);
  const chosen = parseSelection(filters.series);
  const drawn = keys.map((key) => chosen === undefined || chosen.has(key));
  const drawnText = drawn.join();
  const chartLines: ChartLine[] = useMemo(
    () => (plot === undefined ? [] : shown.flatMap((s, i) => (drawn[i] === true ? [{ label: seriesLabel(s), color: colorOf(i), line: plot.lines[i]! }] : []))),
    [plot, drawnText],
  );

  const state = names.state === 'error' || series.state === 'error' ? 'error' : names.state === 'loading' || series.state === 'loading' ? 'loading' : 'ready';
  const failure = names.state === 'error' ? names.message : series.state === 'error' ? series.message : undefined;

  const pickMetric = (value: string): void => {
    const [pickedName, pickedType] = JSON.parse(value) as [string, string];
    const types = (nameRows ?? []).filter((row) => row.metric_name === pickedName).length;
    setFilters({ name: pickedName, type: types > 1 ? pickedType : '', series: '', mode: '' }, 'push');
  };
  const choose = (next: readonly boolean[]): void => {
    setFilters({ series: next.every(Boolean) ? '' : selectionParam(keys.filter((_, i) => next[i])) });
  };
  const toggle = (index: number): void => choose(drawn.map((on, i) => (i === index ? !on : on)));

  const options = nameRows ?? [];
  const current = name === undefined ? '' : optionValue(name, type ?? '');
  const unlisted = name !== undefined && !options.some((row) => optionValue(row.metric_name, row.type) === current);
  const valueAt = (index: number): number | null => {
    if (plot === undefined) return null;
    if (cursor !== undefined) {
      const position = chartLines.findIndex((line) => line.line === plot.lines[index]);
      return position < 0 ? null : (cursor.values[position] ?? null);
    }
    return lastValue(plot.lines[index]!);
  };

  return (
    <section class="view metrics" data-testid="view-metrics" data-state={state}>
      <h1>Metrics</h1>
      <QueryFilters query={query} />
      {failure !== undefined && (
        <p class="message" role="alert" data-testid="metrics-error">
          {failure}
        </p>
      )}
      {names.state === 'ready' && options.length === 0 && filters.name === '' ? (
        <p data-testid="metrics-empty">No metrics were stored in this range{query.service === '' ? '' : ` for the service ${query.service}`}.</p>
      ) : nameRows === undefined && filters.name === '' ? (
        names.state === 'loading' && <p class="hint">Reading the metrics…</p>
      ) : (
        <div class="field metric-picker">
          <label for="metric-name">Metric</label>
          <select id="metric-name" data-testid="metric-name" value={current} onChange={(e) => pickMetric(e.currentTarget.value)}>
            {unlisted && <option value={current}>{name}</option>}
            {options.map((row) => (
              <option key={optionValue(row.metric_name, row.type)} value={optionValue(row.metric_name, row.type)}>
                {row.metric_name} ({row.type}
                {row.unit === '' ? '' : `, ${row.unit}`}) · {row.series_count} series
              </option>
            ))}
          </select>
        </div>
      )}
      {name !== undefined && series.state === 'ready' && shape === undefined && <p data-testid="series-empty">No series of {name} in this range.</p>}
      {name !== undefined && shape !== undefined && plot !== undefined && (
        <article class="metric" aria-labelledby="metric-heading">
          <h2 id="metric-heading" data-testid="metric-heading">
            {name}
          </h2>
          <p class="hint" data-testid="metric-facts">
            {[shape.type.replace('_', ' '), shape.is_monotonic ? 'monotonic' : '', TEMPORALITY[shape.temporality] ?? '', shape.unit === '' ? '' : `unit ${shape.unit}`].filter((s) => s !== '').join(' · ')}
          </p>
          {shape.description !== '' && <p data-testid="metric-description">{shape.description}</p>}
          {mode !== undefined && (
            <div class="metric-modes">
              <div class="field">
                <label for="metric-mode">Show</label>
                <select id="metric-mode" data-testid="metric-mode" value={mode} onChange={(e) => setFilters({ mode: e.currentTarget.value })}>
                  {modesOf(shape.type).map((m) => (
                    <option key={m} value={m}>
                      {MODE_NAMES[m]}
                    </option>
                  ))}
                </select>
              </div>
              {mode === 'quantile' && (
                <div class="field">
                  <label for="metric-quantile">Quantile</label>
                  <select id="metric-quantile" data-testid="metric-quantile" value={String(q)} onChange={(e) => setFilters({ q: e.currentTarget.value })}>
                    {QUANTILES.map((value) => (
                      <option key={value} value={value}>
                        {value}
                      </option>
                    ))}
                  </select>
                </div>
              )}
            </div>
          )}
          <p class="hint" data-testid="metric-note">
            {plot.note}
          </p>
          {shown.length === 0 ? (
            series.state === 'ready' ? (
              <p data-testid="series-empty">No series of {name} in this range.</p>
            ) : (
              <p class="hint">Reading the series…</p>
            )
          ) : (
            <>
              <p class="axis-label" data-testid="metric-axis-label">
                {plot.axis === '' ? '\u00a0' : plot.axis}
              </p>
              <TimeChart
                lines={chartLines}
                from={Number(query.from / 1_000_000n) / 1000}
                to={Number(query.to / 1_000_000n) / 1000}
                label={`${name}: ${chartLines.length} of ${shown.length} series over the time range${plot.axis === '' ? '' : `, in ${plot.axis}`}. The values are in the legend and, shown as a table, below.`}
                onCursor={setCursor}
              />
              {chartLines.length === 0 && <p data-testid="series-none-chosen">No series chosen: tick one to draw it.</p>}
              <fieldset class="series">
                <legend>Series {cursor === undefined ? '(last values)' : `at ${timeText(cursor.time)}`}</legend>
                <div class="series-buttons">
                  <button type="button" data-testid="series-all" onClick={() => choose(keys.map(() => true))}>
                    All
                  </button>
                  <button type="button" data-testid="series-none" onClick={() => choose(keys.map(() => false))}>
                    None
                  </button>
                </div>
                <ul class="series-list" data-testid="series-list">
                  {shown.map((s, i) => (
                    <li key={keys[i]} data-testid="series-entry" data-key={keys[i]}>
                      <label>
                        <input type="checkbox" data-testid="series-toggle" checked={drawn[i]} onChange={() => toggle(i)} />
                        <span class="swatch" style={{ backgroundColor: colorOf(i) }} aria-hidden="true" />
                        <span class="series-label" data-testid="series-label">
                          {seriesLabel(s)}
                        </span>
                        <span class="series-value" data-testid="series-value">
                          {drawn[i] === true ? formatNumber(valueAt(i)) : ''}
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
                {(shown.length >= SERIES_LIMIT || cut || shown.some((s) => s.truncated)) && (
                  <p class="hint" data-testid="series-truncated">
                    {shown.length >= SERIES_LIMIT ? `The first ${SERIES_LIMIT} series are shown; narrow them with the service filter. ` : ''}
                    {cut ? 'The answer stopped at 32 MiB: some series are not shown; narrow the range or the service. ' : ''}
                    {shown.some((s) => s.truncated) ? 'A series with more points than the read API gives at once shows its newest ones.' : ''}
                  </p>
                )}
              </fieldset>
              <button type="button" data-testid="table-toggle" aria-expanded={showTable} aria-controls={showTable ? 'metric-table' : undefined} onClick={() => setShowTable(!showTable)}>
                {showTable ? 'Hide the table' : 'Show as table'}
              </button>
              {showTable && <ValuesTable lines={chartLines} axis={plot.axis} />}
            </>
          )}
        </article>
      )}
    </section>
  );
}

function ValuesTable(props: { lines: ChartLine[]; axis: string }) {
  const rows = props.lines.flatMap((line) => line.line.times.flatMap((time, i) => (line.line.values[i] === null ? [] : [{ line, time, value: line.line.values[i] as number }])));
  return (
    <div class="table-box">
      <table id="metric-table" class="data-table" data-testid="metric-table">
        <caption>The values drawn, by series and time</caption>
        <thead>
          <tr>
            <th scope="col">Series</th>
            <th scope="col">Time</th>
            <th scope="col" class="num">
              Value{props.axis === '' ? '' : ` (${props.axis})`}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, TABLE_LIMIT).map((row) => (
            <tr key={`${row.line.label} ${row.time}`} data-testid="metric-row" data-value={String(row.value)}>
              <td data-testid="metric-cell-series">{row.line.label}</td>
              <td data-testid="metric-cell-time">{timeText(row.time)}</td>
              <td class="num" data-testid="metric-cell-value">
                {formatNumber(row.value)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > TABLE_LIMIT && (
        <p class="hint" data-testid="table-truncated">
          The first {TABLE_LIMIT} of {rows.length} values are shown.
        </p>
      )}
    </div>
  );
}
