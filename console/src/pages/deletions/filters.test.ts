import { describe, expect, it } from 'vitest';
import { deletionQuery, NO_FILTERS, phraseMatches, statusLabel } from './filters';

describe('deletion request filters', () => {
  it('sends only the filters set', () => {
    expect(deletionQuery(NO_FILTERS)).toEqual({ query: {} });
    expect(deletionQuery({ status: 'confirmed', user_id: ' 12 ', date_from: '2025-01-01', date_to: '2025-01-31', grace: 'true' })).toEqual({
      query: { status: 'confirmed', user_id: '12', date_from: '2025-01-01', date_to: '2025-01-31', grace_period_expiring: 'true' },
    });
    expect(deletionQuery({ ...NO_FILTERS, grace: 'false' })).toEqual({ query: { grace_period_expiring: 'false' } });
  });

  it('says what is wrong instead of asking the server', () => {
    expect(deletionQuery({ ...NO_FILTERS, user_id: 'ann' })).toEqual({ problem: 'User id: a positive whole number is needed.' });
    expect(deletionQuery({ ...NO_FILTERS, user_id: '0' })).toHaveProperty('problem');
    expect(deletionQuery({ ...NO_FILTERS, date_from: '2025-02-01', date_to: '2025-01-01' })).toHaveProperty('problem');
  });

  it('takes the exact phrase only', () => {
    expect(phraseMatches('PERMANENTLY DELETE')).toBe(true);
    expect(phraseMatches(' PERMANENTLY DELETE ')).toBe(true);
    expect(phraseMatches('permanently delete')).toBe(false);
    expect(phraseMatches('')).toBe(false);
  });

  it('names statuses in words', () => {
    expect(statusLabel('confirmation_sent')).toBe('Confirmation sent');
    expect(statusLabel('unknown')).toBe('unknown');
  });
});
