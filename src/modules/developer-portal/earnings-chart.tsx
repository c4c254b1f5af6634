/**
 * The daily earnings chart (CONTRACT §17.1): server-side SVG, one bar per day, oldest first.
 * Its accessible name carries the summary; the page shows the same numbers in a table. Sizes
 * and colours are SVG attributes and stylesheet classes (the CSP allows no inline styles).
 *
 * Readable on a phone (issue 27 item 10): only the bars stretch with the screen (a viewBox
 * without a fixed aspect ratio); the labels are drawn at the size they are shown, the money
 * beside the plot in an SVG without a viewBox (its `y` in percent of the plot's height) and the
 * first and last day under it in HTML, so a 360 px screen shows them as large as a wide one.
 */
import { dateText, moneyText } from '../../http/pages/formats';
import { millsToUsd, usdToMills } from '../wallet';

/** The plot in viewBox units: 10 a day wide, 100 tall, so a `y` here is also a percentage of its height. */
const SLOT = 10;
const BAR = 7;
const TOP = 6;
const BOTTOM = 94;
/** Labels closer than this (in percent of the plot's height) would overlap: the zero line's wins. */
const LABEL_GAP = 10;
/** About one character of the labels' 14 px digits, for the width of the money labels' column. */
const CHAR_PX = 8.5;

export interface ChartDay {
  date: string;
  earnedUsd: string;
}

export function EarningsChart(props: { days: ChartDay[]; label: string }) {
  const values = props.days.map((day) => usdToMills(day.earnedUsd));
  const top = Math.max(0, ...values);
  const bottom = Math.min(0, ...values);
  const span = top - bottom;
  const y = (mills: number): number => (span === 0 ? BOTTOM : TOP + ((top - mills) / span) * (BOTTOM - TOP));
  const zero = y(0);
  const ticks = [
    { mills: 0, at: zero },
    ...[top, bottom].filter((mills) => mills !== 0 && Math.abs(y(mills) - zero) >= LABEL_GAP).map((mills) => ({ mills, at: y(mills) })),
  ].map((tick) => ({ ...tick, text: moneyText(millsToUsd(tick.mills)) }));
  const labelWidth = Math.ceil(Math.max(...ticks.map((tick) => tick.text.length)) * CHAR_PX + 10);
  const width = Math.max(1, values.length) * SLOT;
  const first = props.days[0]?.date;
  const last = props.days.at(-1)?.date;
  return (
    <figure class="chart">
      <div class="chart-area">
        <svg class="chart-y" width={labelWidth} aria-hidden="true" focusable="false" xmlns="http://www.w3.org/2000/svg">
          {ticks.map((tick) => (
            <text x="100%" dx="-8" y={`${tick.at.toFixed(2)}%`} dominant-baseline="middle" text-anchor="end">
              {tick.text}
            </text>
          ))}
        </svg>
        <svg role="img" aria-label={props.label} class="chart-plot" viewBox={`0 0 ${width} 100`} preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg">
          <title>{props.label}</title>
          {ticks
            .filter((tick) => tick.mills !== 0)
            .map((tick) => (
              <line class="grid" x1={0} x2={width} y1={tick.at.toFixed(2)} y2={tick.at.toFixed(2)} vector-effect="non-scaling-stroke" />
            ))}
          {props.days.map((day, i) => {
            const value = values[i]!;
            const height = Math.abs(y(value) - zero);
            return (
              <rect class="bar" x={i * SLOT + (SLOT - BAR) / 2} y={Math.min(y(value), zero).toFixed(2)} width={BAR} height={height.toFixed(2)}>
                <title>{`${dateText(day.date)}: ${moneyText(day.earnedUsd)}`}</title>
              </rect>
            );
          })}
          <line class="axis" x1={0} x2={width} y1={zero.toFixed(2)} y2={zero.toFixed(2)} vector-effect="non-scaling-stroke" />
        </svg>
        {first && last ? (
          <div class="chart-x" aria-hidden="true">
            <time datetime={first}>{dateText(first)}</time>
            <time datetime={last}>{dateText(last)}</time>
          </div>
        ) : null}
      </div>
    </figure>
  );
}
