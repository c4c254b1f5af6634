import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { EarningsChart } from './earnings-chart';

/** The chart's money labels, top to bottom, and where the zero line is (in percent of the plot's height). */
function chart(earned: string[]): { labels: string[]; zeroAt: number; bars: { y: number; height: number }[]; html: string } {
  const days = earned.map((earnedUsd, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, earnedUsd }));
  const html = renderToString(h(EarningsChart, { days, label: 'Daily earnings, test' }));
  const labels = [...html.matchAll(/<text [^>]*y="([\d.]+)%"[^>]*>([^<]*)<\/text>/g)].sort((a, b) => Number(a[1]) - Number(b[1])).map((m) => m[2]!);
  const zeroAt = Number(/<line class="axis"[^>]* y1="([\d.]+)"/.exec(html)![1]);
  const bars = [...html.matchAll(/<rect class="bar"[^>]* y="([\d.]+)"[^>]* height="([\d.]+)"/g)].map((m) => ({ y: Number(m[1]), height: Number(m[2]) }));
  return { labels, zeroAt, bars, html };
}

describe('the earnings chart', () => {
  it('labels the top and the zero line in §17.2 dollars, and names each bar with its day and amount', () => {
    const drawn = chart(['0', '0.175', '1.05']);
    expect(drawn.labels).toEqual(['$1.05', '$0.00']);
    expect(drawn.zeroAt).toBe(94);
    expect(drawn.bars.map((bar) => bar.y + bar.height)).toEqual([94, 94, 94]);
    expect(drawn.html).toContain('<title>2 Nov 2026: $0.175</title>');
    expect(drawn.html).toContain('<time datetime="2026-11-01">1 Nov 2026</time>');
    expect(drawn.html).toContain('<time datetime="2026-11-03">3 Nov 2026</time>');
  });

  it('draws a day with more voided than earned below the zero line, with its own label', () => {
    const drawn = chart(['0.7', '-0.35', '0']);
    expect(drawn.labels).toEqual(['$0.70', '$0.00', '-$0.35']);
    expect(drawn.zeroAt).toBeGreaterThan(6);
    expect(drawn.zeroAt).toBeLessThan(94);
    expect(drawn.bars[1]).toEqual({ y: drawn.zeroAt, height: Number((94 - drawn.zeroAt).toFixed(2)) });
  });

  it('keeps the zero line at the bottom of an empty month, labelled alone, and never overlaps two labels', () => {
    expect(chart(['0', '0', '0'])).toMatchObject({ labels: ['$0.00'], zeroAt: 94 });
    expect(chart(['0.001', '-5'])).toMatchObject({ labels: ['$0.00', '-$5.00'] });
  });
});
