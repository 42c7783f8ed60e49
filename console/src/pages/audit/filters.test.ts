import { describe, expect, it } from 'vitest';
import { attemptOutcome, cleanFilters, filtersOf, prettyDetails, severityTone, withFilter } from './filters';

describe('filtersOf', () => {
  it('keeps the known, non-empty filters of the URL, trimmed', () => {
    const query = new URLSearchParams('action=login&user_id=%203%20&severity=&page=2&evil=1');
    expect(filtersOf(query, ['action', 'user_id', 'severity'])).toEqual({ action: 'login', user_id: '3' });
  });
  it('answers nothing for an empty query', () => {
    expect(filtersOf(new URLSearchParams(''), ['action'])).toEqual({});
  });
});

describe('cleanFilters and withFilter', () => {
  it('drops empty values and trims the others', () => {
    expect(cleanFilters({ action: ' login ', user_id: '', ip_address: '   ' })).toEqual({ action: 'login' });
  });
  it('sets or removes one filter', () => {
    expect(withFilter({ action: 'login' }, 'user_id', 12)).toEqual({ action: 'login', user_id: '12' });
    expect(withFilter({ action: 'login', user_id: '12' }, 'user_id', null)).toEqual({ action: 'login' });
  });
});

describe('prettyDetails', () => {
  it('indents JSON, markup included as plain characters', () => {
    expect(prettyDetails({ name: '<img src=x>', n: 1 })).toBe('{\n  "name": "<img src=x>",\n  "n": 1\n}');
    expect(prettyDetails(null)).toBe('{}');
  });
});

describe('severityTone and attemptOutcome', () => {
  it('marks warnings and critical events', () => {
    expect(severityTone('critical')).toBe('badge bad');
    expect(severityTone('warning')).toBe('badge warn');
    expect(severityTone('info')).toBe('badge');
  });
  it('words an attempt with its reason', () => {
    expect(attemptOutcome({ success: true, failure_reason: null })).toBe('Succeeded');
    expect(attemptOutcome({ success: false, failure_reason: 'invalid_credentials' })).toBe('Failed: invalid_credentials');
    expect(attemptOutcome({ success: false, failure_reason: null })).toBe('Failed');
  });
});
