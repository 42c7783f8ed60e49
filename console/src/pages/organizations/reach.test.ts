import { describe, expect, it } from 'vitest';
import { emptyTreeText, reachNote } from './reach';

describe('the organizations out of sight', () => {
  it('says how many exist and why only the operator\'s own are listed', () => {
    expect(reachNote(0, 2)).toBe('2 organizations exist; you are a member of none of them. Organizations are administered by their'
      + ' own members: a global role, admin included, gives no role in them. An owner or admin of one can add you as a member.');
    expect(reachNote(1, 3)).toMatch(/^3 organizations exist; you see the 1 you are a member of \(directly or through a parent\)\. /);
    expect(reachNote(0, 1)).toMatch(/^1 organization exists; /);
  });
  it('says nothing when every organization is listed, or when the total is unknown', () => {
    expect(reachNote(2, 2)).toBeNull();
    expect(reachNote(0, 0)).toBeNull();
    expect(reachNote(1, null)).toBeNull();
    expect(reachNote(null, 3)).toBeNull();
  });
  it('words an empty tree after what exists', () => {
    expect(emptyTreeText(0, false)).toBe('No organization yet.');
    expect(emptyTreeText(2, false)).toBe('You are a member of no organization.');
    expect(emptyTreeText(null, false)).toBe('You are a member of no organization.');
    expect(emptyTreeText(2, true)).toBe('No organization of yours matches.');
  });
});
