import { describe, expect, it } from 'vitest';
import { describeRequirements, detailLines, localProblem, retryAfterText } from './rules';

describe('sign-in rules', () => {
  it('describes the announced password requirements', () => {
    expect(describeRequirements({
      requirements: { min_length: 12, require_lowercase: true, require_uppercase: false, require_numbers: true, require_special: false },
      min_length: 12, max_length: 128,
    })).toEqual(['At least 12 characters (at most 128)', 'a lowercase letter', 'a digit']);
  });

  it('refuses a confirmation that differs, and a new password equal to the current one', () => {
    expect(localProblem('old', 'new-one', 'new-two')).toMatch(/do not match/);
    expect(localProblem('same', 'same', 'same')).toMatch(/differ/);
    expect(localProblem('old', 'new', 'new')).toBeNull();
  });

  it('says when to try again, from seconds or a time', () => {
    expect(retryAfterText(42)).toBe('Try again in 42 seconds.');
    expect(retryAfterText(900)).toBe('Try again in 15 minutes.');
    const now = new Date('2025-01-01T00:00:00Z');
    expect(retryAfterText('2025-01-01T00:00:30Z', now)).toBe('Try again in 30 seconds.');
    expect(retryAfterText('2024-12-31T00:00:00Z', now)).toBeNull();
    expect(retryAfterText(undefined)).toBeNull();
    expect(retryAfterText('soon')).toBeNull();
  });

  it('lists validation details field by field', () => {
    expect(detailLines({ new_password: ['Too short', 'No digit'], email: 'Bad' })).toEqual(['new_password: Too short', 'new_password: No digit', 'email: Bad']);
    expect(detailLines(null)).toEqual([]);
    expect(detailLines(['x'])).toEqual([]);
  });
});
