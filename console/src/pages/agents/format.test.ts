import { describe, expect, it } from 'vitest';
import { durationText, EMPTY_TOKEN_FORM, parsePermissions, payloadLines, spendText, togglePermission, tokenBody } from './format';

describe('agent token form', () => {
  it('reads permission codes from lines, commas and spaces, each once', () => {
    expect(parsePermissions('users.view\n users.manage, users.view\n\n roles.view ')).toEqual(['users.view', 'users.manage', 'roles.view']);
    expect(parsePermissions('  ')).toEqual([]);
  });

  it('adds and removes one code from the typed list', () => {
    expect(togglePermission('users.view, roles.view', 'users.manage', true)).toBe('users.view\nroles.view\nusers.manage');
    expect(togglePermission('users.view\nusers.manage', 'users.view', false)).toBe('users.manage');
    expect(togglePermission('users.view', 'users.view', true)).toBe('users.view');
  });

  it('leaves blank fields to the server and sends numbers as numbers', () => {
    expect(tokenBody({ ...EMPTY_TOKEN_FORM, agent_id: ' ops ', permissions: 'users.view', expires_in: '' })).toEqual({
      body: { agent_id: 'ops', permissions: ['users.view'] },
    });
    expect(tokenBody({ ...EMPTY_TOKEN_FORM, agent_id: 'ops', budget_limit_usd: '5.5', max_requests_total: '500',
      heartbeat_required_every: '300', organization: 'acme' })).toEqual({
      body: { agent_id: 'ops', permissions: [], expires_in: 3600, organization: 'acme', budget_limit_usd: 5.5,
        circuit_breaker: { max_requests_total: 500 }, dead_mans_switch: { heartbeat_required_every: 300 } },
    });
    // "May delegate to sub-agents" (docs/agents.md "Delegation"): sent only when checked.
    expect(tokenBody({ ...EMPTY_TOKEN_FORM, agent_id: 'planner', can_delegate: true })).toEqual({
      body: { agent_id: 'planner', permissions: [], expires_in: 3600, can_delegate: true },
    });
  });

  it('names a field that is not a number', () => {
    expect(tokenBody({ ...EMPTY_TOKEN_FORM, agent_id: 'x', expires_in: '1.5' })).toEqual({ problem: 'Lifetime: a whole number is needed.' });
    expect(tokenBody({ ...EMPTY_TOKEN_FORM, agent_id: 'x', budget_limit_usd: 'five' })).toEqual({ problem: 'Budget: a number is needed.' });
  });
});

describe('agent requests in words', () => {
  it('shows a body as key: value lines, nested values as JSON, long ones cut', () => {
    expect(payloadLines({ reason: '<img src=x onerror=alert(1)>', meta: { a: 1 } })).toEqual(['reason: <img src=x onerror=alert(1)>', 'meta: {"a":1}']);
    expect(payloadLines(null)).toEqual([]);
    expect(payloadLines([1, 2])).toEqual(['[1,2]']);
    expect(payloadLines({ long: 'x'.repeat(300) }, 20)[0]).toHaveLength(20);
  });

  it('puts spend and durations in words', () => {
    expect(spendText(0.42, 5)).toBe('$0.42 of $5.00');
    expect(spendText(0, null)).toBe('$0.00 (no budget)');
    expect(durationText(300)).toBe('5 minutes');
    expect(durationText(3600)).toBe('1 hour');
    expect(durationText(90)).toBe('90 seconds');
  });
});
