import { describe, expect, it } from 'vitest';
import {
  adoptionSeries, counted, dayLabel, daySeries, describeCounts, describeDays, describeLogins, loginSeries, methodLabel, methodSeries,
  percentText, statusSeries, trendView,
} from './series';

describe('dayLabel', () => {
  it('names a UTC day without moving it into the local zone', () => {
    expect(dayLabel('2026-03-18')).toBe('18 Mar');
    expect(dayLabel('2026-01-01')).toBe('1 Jan');
    expect(dayLabel('2026-12-31')).toBe('31 Dec');
  });
  it('leaves anything else as it came', () => {
    expect(dayLabel('soon')).toBe('soon');
  });
});

describe('day and login series', () => {
  it('keeps every day, zeros included, oldest first', () => {
    expect(daySeries([{ date: '2026-03-17', count: 0 }, { date: '2026-03-18', count: 4 }]))
      .toEqual([{ day: '17 Mar', count: 0 }, { day: '18 Mar', count: 4 }]);
    expect(loginSeries([{ date: '2026-03-18', success: 3, failed: 2, second_step: 1 }]))
      .toEqual([{ day: '18 Mar', success: 3, failed: 2, secondStep: 1 }]);
    expect(loginSeries([{ date: '2026-03-18', success: 3, failed: 2 }])).toEqual([{ day: '18 Mar', success: 3, failed: 2, secondStep: 0 }]);
  });
  it('describes days in a sentence: total and busiest day', () => {
    expect(describeDays('Registrations', [{ day: '17 Mar', count: 1 }, { day: '18 Mar', count: 4 }, { day: '19 Mar', count: 4 }]))
      .toBe('Registrations: 9 in 3 days, most on 18 Mar (4).');
    expect(describeDays('Registrations', [{ day: '17 Mar', count: 0 }])).toBe('Registrations: 0 in 1 day.');
  });
  it('describes sign-ins with the days that had any', () => {
    expect(describeLogins([{ day: '17 Mar', success: 0, failed: 0, secondStep: 0 }, { day: '18 Mar', success: 3, failed: 1, secondStep: 0 }]))
      .toBe('Sign-in attempts of the last 2 days: 3 succeeded, 1 failed, 0 second steps pending. 18 Mar: 3 succeeded, 1 failed.');
  });
  it('tells the second steps (2FA required, 2FA setup required) apart from successes and failures', () => {
    expect(describeLogins([{ day: '17 Mar', success: 0, failed: 0, secondStep: 1 }, { day: '18 Mar', success: 2, failed: 0, secondStep: 2 }]))
      .toBe('Sign-in attempts of the last 2 days: 2 succeeded, 0 failed, 3 second steps pending. '
        + '17 Mar: 0 succeeded, 0 failed, 1 second step pending; 18 Mar: 2 succeeded, 0 failed, 2 second steps pending.');
  });
});

describe('methods and statuses', () => {
  it('names the methods, social providers by their name', () => {
    expect(methodLabel('magic_link')).toBe('Magic link');
    expect(methodLabel('social_github')).toBe('Social: github');
    expect(methodLabel('carrier_pigeon')).toBe('carrier_pigeon');
  });
  it('orders methods by count, ties by name', () => {
    expect(methodSeries({ passkey: 2, password: 5, otp: 2, magic_link: 0 }).map((m) => [m.key, m.count]))
      .toEqual([['password', 5], ['otp', 2], ['passkey', 2], ['magic_link', 0]]);
  });
  it('keeps the statuses in the order given, named', () => {
    expect(statusSeries({ pending: 1, confirmation_sent: 0, confirmed: 2 }).map((s) => s.label))
      .toEqual(['Pending', 'Confirmation sent', 'Confirmed']);
  });
  it('describes counts without the zeros', () => {
    expect(describeCounts('Methods', methodSeries({ password: 5, otp: 0, passkey: 1 }))).toBe('Methods: Password 5, Passkey 1.');
    expect(describeCounts('Methods', methodSeries({ otp: 0 }))).toBe('Methods: none.');
  });
});

describe('counted', () => {
  it('puts the noun in the plural but for one', () => {
    expect(counted(1, 'warning')).toBe('1 warning');
    expect(counted(0, 'warning')).toBe('0 warnings');
    expect(counted(2, 'sub-organization', 'sub-organizations')).toBe('2 sub-organizations');
  });
});

describe('percentages', () => {
  it('writes two decimals at most', () => {
    expect(percentText(33.3333)).toBe('33.33%');
    expect(percentText(50)).toBe('50%');
  });
  it('splits 2FA adoption into two slices adding up to 100', () => {
    expect(adoptionSeries(33.33)).toEqual([{ name: 'With 2FA', value: 33.33 }, { name: 'Without 2FA', value: 66.67 }]);
    expect(adoptionSeries(0)[1]!.value).toBe(100);
    expect(adoptionSeries(140)[0]!.value).toBe(100);
  });
});

describe('trendView', () => {
  it('shows a plain figure without a comparison', () => {
    expect(trendView(7)).toEqual({ current: 7, previous: null, change: null, direction: null });
  });
  it('words the change the API computed', () => {
    expect(trendView({ current: 5, previous: 4, change_percent: 25 })).toMatchObject({ previous: 4, change: '+25%', direction: 'up' });
    expect(trendView({ current: 3, previous: 4, change_percent: -25 })).toMatchObject({ change: '−25%', direction: 'down' });
    expect(trendView({ current: 0, previous: 0, change_percent: 0 })).toMatchObject({ change: 'no change', direction: 'flat' });
    expect(trendView({ current: 2, previous: 0, change_percent: null })).toMatchObject({ change: 'new', direction: 'up' });
  });
});
