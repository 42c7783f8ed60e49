import { describe, expect, it } from 'vitest';
import { whoOf } from './who';

describe('the top bar\'s name and email', () => {
  it('shows the name with the email beside it', () => {
    expect(whoOf({ first_name: 'Olivia', last_name: 'Operator', email: 'olivia@example.com' }))
      .toEqual({ name: 'Olivia Operator', email: 'olivia@example.com' });
    expect(whoOf({ first_name: '', last_name: 'Operator', email: 'olivia@example.com' }))
      .toEqual({ name: 'Operator', email: 'olivia@example.com' });
  });
  it('shows the email once where there is no name', () => {
    expect(whoOf({ first_name: '', last_name: '', email: 'olivia@example.com' })).toEqual({ name: 'olivia@example.com', email: null });
    expect(whoOf({ first_name: '  ', last_name: ' ', email: 'olivia@example.com' })).toEqual({ name: 'olivia@example.com', email: null });
  });
  it('says "Signed in" with neither a name nor an email (an account known by its phone)', () => {
    expect(whoOf({ first_name: '', last_name: '', email: null })).toEqual({ name: 'Signed in', email: null });
  });
});
