import { describe, expect, it } from 'vitest';
import { ALL_EVENTS, eventSummary, toggleEvent, unknownEvents } from './events';

describe('webhook events', () => {
  it('lists every event the server knows, once', () => {
    expect(ALL_EVENTS).toHaveLength(18);
    expect(new Set(ALL_EVENTS).size).toBe(ALL_EVENTS.length);
    expect(ALL_EVENTS).toContain('webhook.test');
  });
  it('adds and removes an event, keeping the list order', () => {
    expect(toggleEvent(['user.locked'], 'user.created', true)).toEqual(['user.created', 'user.locked']);
    expect(toggleEvent(['user.created', 'user.locked'], 'user.created', false)).toEqual(['user.locked']);
    expect(toggleEvent(['user.created'], 'user.created', true)).toEqual(['user.created']);
  });
  it('keeps events it does not know', () => {
    expect(toggleEvent(['future.event'], 'user.created', true)).toEqual(['user.created', 'future.event']);
    expect(unknownEvents(['future.event', 'user.created'])).toEqual(['future.event']);
  });
  it('summarises a subscription', () => {
    expect(eventSummary(ALL_EVENTS.filter((e) => e !== 'webhook.test'))).toBe('all events');
    expect(eventSummary(['user.created', 'user.locked'])).toBe('user.created, user.locked');
    expect(eventSummary(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c and 2 more');
  });
});
