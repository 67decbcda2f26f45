// A chart of lines over time, drawn by uPlot on a canvas as wide as its container (a ResizeObserver
// keeps it so, from a phone's width to a desktop's), its x axis the whole range asked for. The
// chart is a picture: what its lines say in text is its view's to show (a legend, a table).
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Line } from '../lib/series';
import './time-chart.css';

export interface ChartLine {
  label: string;
  color: string;
  line: Line;
}

/** Where the cursor is: its time (seconds) and each line's value there (null: none at that time). */
export interface Cursor {
  time: number;
  values: (number | null)[];
}

/** Ten colours told apart on white, each at least 3:1 against it (WCAG's contrast for graphics). */
const PALETTE = ['#0a58ca', '#c2410c', '#15803d', '#7e22ce', '#be123c', '#0e7490', '#a16207', '#4d7c0f', '#9d174d', '#334155'];

export function colorOf(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

const FONT = '12px system-ui, sans-serif';

/** The y axis as wide as its longest value needs, so that big numbers are not cut off. */
function axisSize(self: uPlot, values: string[] | null): number {
  self.ctx.font = FONT;
  // null before the axis has its first values.
  const widest = Math.max(0, ...(values ?? []).map((value) => self.ctx.measureText(value).width));
  return Math.ceil(widest + 18);
}

function sizeOf(element: HTMLElement): { width: number; height: number } {
  const width = Math.max(element.clientWidth, 160);
  return { width, height: width < 600 ? 220 : 300 };
}

/**
 * `lines` must keep its identity while it is the same (a useMemo'd value): a new array draws the
 * chart anew. `from` and `to` are seconds since the epoch.
 */
export function TimeChart(props: { lines: ChartLine[]; from: number; to: number; label: string; onCursor?: (cursor: Cursor | undefined) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const onCursor = useRef(props.onCursor);
  onCursor.current = props.onCursor;
  const { lines, from, to } = props;

  useEffect(() => {
    const element = box.current;
    if (element === null) return undefined;
    const data: uPlot.AlignedData = lines.length === 0 ? [[]] : uPlot.join(lines.map((l) => [l.line.times, l.line.values]));
    const options: uPlot.Options = {
      ...sizeOf(element),
      series: [{}, ...lines.map((l) => ({ label: l.label, stroke: l.color, width: 2 }))],
      scales: { x: { time: true, range: [from, to] } },
      axes: [
        { font: FONT, stroke: '#59636e' },
        { font: FONT, stroke: '#59636e', size: axisSize },
      ],
      legend: { show: false },
      // The range is the view's filter: a drag would zoom the chart away from what the filter says.
      cursor: { drag: { x: false, y: false, setScale: false } },
      hooks: {
        setCursor: [
          (self) => {
            const index = self.cursor.idx;
            const time = index === null || index === undefined ? undefined : self.data[0][index];
            onCursor.current?.(time === undefined ? undefined : { time, values: lines.map((_, i) => self.data[i + 1]?.[index as number] ?? null) });
          },
        ],
      },
    };
    const plot = new uPlot(options, data, element);
    const observer = new ResizeObserver(() => plot.setSize(sizeOf(element)));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
      onCursor.current?.(undefined);
    };
  }, [lines, from, to]);

  return <div ref={box} class="time-chart" role="img" aria-label={props.label} data-testid="metric-chart" data-series={lines.length} />;
}
