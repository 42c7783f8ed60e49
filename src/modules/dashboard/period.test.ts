import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calendarRanges, changePercent, daysIn, percentOf, periodRanges } from './period.js';

const at = (iso: string) => new Date(iso);
const iso = (r: { from: Date; until: Date }) => ({ from: r.from.toISOString(), until: r.until.toISOString() });

describe('dashboard periods', () => {
  it('covers the N UTC days ending today, up to and including now, and the N days before cut at the same time of day', () => {
    const { current, previous } = periodRanges(7, at('2026-03-18T12:00:00.000Z'));
    assert.deepEqual(iso(current), { from: '2026-03-12T00:00:00.000Z', until: '2026-03-18T12:00:00.001Z' });
    assert.deepEqual(iso(previous), { from: '2026-03-05T00:00:00.000Z', until: '2026-03-11T12:00:00.001Z' });
  });

  it('starts a 1-day period at today\'s midnight, and the 90-day one 89 days before it', () => {
    assert.equal(periodRanges(1, at('2026-03-18T00:00:00.000Z')).current.from.toISOString(), '2026-03-18T00:00:00.000Z');
    assert.equal(periodRanges(90, at('2026-03-18T23:59:59.999Z')).current.from.toISOString(), '2025-12-19T00:00:00.000Z');
  });

  it('lists one day per UTC day a range touches, oldest first', () => {
    assert.deepEqual(daysIn(periodRanges(3, at('2026-03-01T08:00:00.000Z')).current), ['2026-02-27', '2026-02-28', '2026-03-01']);
    assert.equal(daysIn(periodRanges(90, at('2026-03-18T12:00:00.000Z')).current).length, 90);
  });

  it('starts weeks on Monday (ISO 8601) and months on the first, in UTC', () => {
    const sunday = calendarRanges(at('2026-03-15T23:59:59.999Z'));
    assert.equal(sunday.this_week.from.toISOString(), '2026-03-09T00:00:00.000Z');
    const monday = calendarRanges(at('2026-03-16T00:00:00.000Z'));
    assert.equal(monday.this_week.from.toISOString(), '2026-03-16T00:00:00.000Z');
    assert.equal(monday.today.from.toISOString(), '2026-03-16T00:00:00.000Z');
    assert.equal(monday.this_month.from.toISOString(), '2026-03-01T00:00:00.000Z');
    assert.equal(calendarRanges(at('2026-01-01T00:00:00.000Z')).this_week.from.toISOString(), '2025-12-29T00:00:00.000Z');
  });

  it('answers percentages to two decimals, 0 of nothing', () => {
    assert.equal(percentOf(2, 3), 66.67);
    assert.equal(percentOf(0, 0), 0);
    assert.equal(percentOf(5, 5), 100);
  });

  it('answers a change in percent: 0 from 0 to 0, null from 0 to anything else', () => {
    assert.equal(changePercent(150, 100), 50);
    assert.equal(changePercent(1, 3), -66.67);
    assert.equal(changePercent(0, 4), -100);
    assert.equal(changePercent(0, 0), 0);
    assert.equal(changePercent(3, 0), null);
  });
});
