import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReactNode } from 'react';
import { ChartFrame } from './ChartFrame';
import {
  adoptionSeries, daySeries, describeCounts, describeDays, describeLogins, loginSeries, percentText, type NamedCount,
} from './series';
import type { DayCount } from './types';

/** Colours with enough contrast on white, distinct for the common kinds of colour blindness. */
export const COLOURS = { good: '#1b7f3b', bad: '#b3261e', main: '#1f5fbf', other: '#8a96a6', warn: '#b25e00' };
const SLICES = ['#1f5fbf', '#1b7f3b', '#b25e00', '#6a3fb5', '#b3261e', '#00838f', '#5b6675'];

// The frame names each chart in words; recharts' own keyboard layer would add a focus stop inside that image.
const CHART = { accessibilityLayer: false, margin: { top: 8, right: 8, bottom: 0, left: -16 } } as const;

export function LoginsChart({ days }: { days: Parameters<typeof loginSeries>[0] }) {
  const data = loginSeries(days);
  return (
    <ChartFrame title="Sign-ins per day, last 7 days" summary={describeLogins(data)}>
      <BarChart data={data} {...CHART}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Legend itemSorter={null} />
        <Bar dataKey="success" name="Succeeded" stackId="logins" fill={COLOURS.good} isAnimationActive={false} />
        <Bar dataKey="failed" name="Failed" stackId="logins" fill={COLOURS.bad} isAnimationActive={false} />
        <Bar dataKey="secondStep" name="Second step pending" stackId="logins" fill={COLOURS.other} isAnimationActive={false} />
      </BarChart>
    </ChartFrame>
  );
}

/** A count per day of the chosen period: a line, since 90 bars would be too thin to read at 390 px. */
export function DaysChart({ title, what, days, colour }: { title: string; what: string; days: DayCount[]; colour: string }) {
  const data = daySeries(days);
  return (
    <ChartFrame title={title} summary={describeDays(what, data)}>
      <LineChart data={data} {...CHART}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" minTickGap={16} />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Line type="monotone" dataKey="count" name={what} stroke={colour} strokeWidth={2} dot={data.length <= 31}
          isAnimationActive={false} />
      </LineChart>
    </ChartFrame>
  );
}

/** Named counts as horizontal bars: labels stay readable on a phone. */
export function CountsChart({ title, what, items, colour = COLOURS.main, notes }: {
  title: string; what: string; items: NamedCount[]; colour?: string; notes?: ReactNode;
}) {
  return (
    <ChartFrame title={title} summary={describeCounts(what, items)} height={Math.max(160, items.length * 36 + 40)} notes={notes}>
      <BarChart data={items} layout="vertical" {...CHART} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" allowDecimals={false} />
        <YAxis type="category" dataKey="label" width={120} />
        <Tooltip />
        <Bar dataKey="count" name={what} fill={colour} isAnimationActive={false} />
      </BarChart>
    </ChartFrame>
  );
}

/** Shares of a whole as a ring, each slice named in the legend. */
export function ShareChart({ title, summary, slices, notes }: {
  title: string; summary: string; slices: Array<{ name: string; value: number; fill?: string }>; notes?: ReactNode;
}) {
  const data = slices.map((s, i) => ({ ...s, fill: s.fill ?? SLICES[i % SLICES.length] }));
  return (
    <ChartFrame title={title} summary={summary} notes={notes}>
      <PieChart accessibilityLayer={false}>
        <Pie data={data} dataKey="value" nameKey="name" innerRadius="50%" outerRadius="80%" isAnimationActive={false} />
        <Tooltip />
        <Legend itemSorter={null} />
      </PieChart>
    </ChartFrame>
  );
}

export function AdoptionChart({ rate, notes }: { rate: number; notes?: ReactNode }) {
  const [on, off] = adoptionSeries(rate);
  return (
    <ShareChart title="Two-factor adoption" summary={`${percentText(rate)} of accounts use two-factor authentication.`}
      slices={[{ ...on!, fill: COLOURS.good }, { ...off!, fill: COLOURS.other }]} notes={notes} />
  );
}
