// A small bar chart of counts over time, one bar per bucket of a range (lib/buckets.ts), in SVG:
// no script draws it, so it needs no size of its own and stretches to its container's width.
import { formatDuration } from '../lib/format';
import './count-strip.css';

/** `step` the buckets' width in nanoseconds; `what` names the things counted ("errors"). */
export function CountStrip(props: { counts: number[]; step: string; what: string; testid?: string }) {
  const { counts } = props;
  const max = Math.max(1, ...counts);
  const total = counts.reduce((a, b) => a + b, 0);
  const label = `${total} ${props.what} over the range, at most ${max} in a bucket of ${formatDuration(props.step)}`;
  return (
    <svg class="count-strip" viewBox={`0 0 ${Math.max(counts.length, 1)} 10`} preserveAspectRatio="none" role="img" aria-label={label} data-testid={props.testid} data-buckets={counts.length}>
      <title>{label}</title>
      <line class="count-strip-base" x1={0} x2={counts.length} y1={10} y2={10} />
      {counts.map((count, i) => {
        if (count === 0) return null;
        // The smallest count stays visible: a bar of at least a fifth of the strip's height.
        const height = Math.max(2, (count / max) * 10);
        return <rect key={i} x={i + 0.1} width={0.8} y={10 - height} height={height} data-count={count} />;
      })}
    </svg>
  );
}
