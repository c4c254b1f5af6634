/**
 * The daily earnings chart (CONTRACT §17.1): server-side SVG, one bar per day, oldest first.
 * Its accessible name carries the summary; the page shows the same numbers in a table. Sizes
 * and colours are SVG attributes and stylesheet classes (the CSP allows no inline styles).
 */

import { millsToUsd, usdToMills } from '../wallet';

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 56 };

export interface ChartDay {
  date: string;
  earnedUsd: string;
}

export function EarningsChart(props: { days: ChartDay[]; label: string }) {
  const values = props.days.map((day) => usdToMills(day.earnedUsd));
  const top = Math.max(0, ...values);
  const bottom = Math.min(0, ...values);
  const span = top - bottom || 1;
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const y = (mills: number) => PAD.top + ((top - mills) / span) * plotHeight;
  const slot = plotWidth / Math.max(1, values.length);
  const barWidth = Math.max(1, slot * 0.7);
  const first = props.days[0]?.date ?? '';
  const last = props.days.at(-1)?.date ?? '';
  return (
    <figure class="chart">
      <svg role="img" aria-label={props.label} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} xmlns="http://www.w3.org/2000/svg">
        <title>{props.label}</title>
        <line class="axis" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} />
        <line class="axis" x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={HEIGHT - PAD.bottom} />
        <text x={PAD.left - 6} y={PAD.top + 4} text-anchor="end">
          {millsToUsd(top)}
        </text>
        <text x={PAD.left - 6} y={y(0) + 4} text-anchor="end">
          0
        </text>
        {props.days.map((day, i) => {
          const value = values[i]!;
          const x = PAD.left + i * slot + (slot - barWidth) / 2;
          const height = Math.abs(y(value) - y(0));
          return (
            <rect class="bar" x={x.toFixed(1)} y={Math.min(y(value), y(0)).toFixed(1)} width={barWidth.toFixed(1)} height={height.toFixed(1)}>
              <title>{`${day.date}: ${day.earnedUsd} USD`}</title>
            </rect>
          );
        })}
        <text x={PAD.left} y={HEIGHT - 8} text-anchor="start">
          {first}
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 8} text-anchor="end">
          {last}
        </text>
      </svg>
    </figure>
  );
}
