import { describe, expect, it } from 'vitest';
import { describeDevice, deviceOf, devicesOf } from './devices';
import { displayName, filtersFromQuery, filtersToParams } from './filters';

describe('the user list filters', () => {
  it('keeps what the API accepts from the URL and drops the rest', () => {
    const f = filtersFromQuery(new URLSearchParams('search=%20ann%20&is_banned=true&is_active=maybe&ordering=email&evil=1&date_from=2024-13'));
    expect(f).toEqual({ search: 'ann', role: '', ordering: 'email', date_from: '', date_to: '', flags: { is_banned: 'true' } });
    expect(filtersToParams(f)).toEqual({ search: 'ann', ordering: 'email', is_banned: 'true' });
  });

  it('round-trips every filter', () => {
    const params = { search: 'x', role: 'admin', ordering: '-last_login', date_from: '2024-01-01', date_to: '2024-02-01',
      is_active: 'false', is_staff: 'true', is_locked: 'true' };
    expect(filtersToParams(filtersFromQuery(new URLSearchParams(params)))).toEqual(params);
  });

  it('names an account by its names, then email, phone or id', () => {
    const base = { id: 7, first_name: '', last_name: '', email: null, phone: null };
    expect(displayName({ ...base, first_name: 'Ann', last_name: 'Lee' })).toBe('Ann Lee');
    expect(displayName({ ...base, email: 'a@example.com' })).toBe('a@example.com');
    expect(displayName({ ...base, phone: '+33600000000' })).toBe('+33600000000');
    expect(displayName(base)).toBe('User 7');
  });
});

describe('devices from sessions', () => {
  it('reads a fingerprint, free text, or nothing', () => {
    expect(describeDevice('v=1|os=Android 14|device=Pixel 8|app=Acme 2.1')).toBe('Pixel 8 · Android 14 · Acme 2.1');
    expect(describeDevice('My laptop')).toBe('My laptop');
    expect(describeDevice('  ')).toBeNull();
    expect(describeDevice('v=1|tz=UTC')).toBe('v=1|tz=UTC');
  });

  it('shows the API\'s summary first, the fingerprint next, "Unknown device" only when neither says anything', () => {
    expect(deviceOf({ device_info: null, device_summary: 'curl' })).toBe('curl');
    expect(deviceOf({ device_info: 'v=1|device=Pixel 8', device_summary: 'Pixel 8' })).toBe('Pixel 8');
    expect(deviceOf({ device_info: 'v=1|os=Android 14|device=Pixel 8' })).toBe('Pixel 8 · Android 14');
    expect(deviceOf({ device_info: null, device_summary: null })).toBe('Unknown device');
    expect(deviceOf({ device_info: ' ', device_summary: ' ' })).toBe('Unknown device');
  });

  it('groups sessions by device, counts the live ones, most recent first', () => {
    const s = (info: string | null, at: string, extra: Partial<{ is_revoked: boolean; ip_address: string }> = {}) => ({
      device_info: info, ip_address: extra.ip_address ?? null, created_at: at, last_used_at: null, is_revoked: extra.is_revoked ?? false,
      is_expired: false });
    const devices = devicesOf([
      s('v=1|device=Phone', '2024-01-01T00:00:00Z', { ip_address: '10.0.0.1' }),
      s(null, '2024-03-01T00:00:00Z'),
      s('v=1|device=Phone', '2024-02-01T00:00:00Z', { is_revoked: true, ip_address: '10.0.0.1' }),
      { ...s(null, '2024-02-15T00:00:00Z'), device_summary: 'curl' },
    ]);
    expect(devices).toEqual([
      { device: 'Unknown device', sessions: 1, active: 1, lastSeen: '2024-03-01T00:00:00Z', ips: [] },
      { device: 'curl', sessions: 1, active: 1, lastSeen: '2024-02-15T00:00:00Z', ips: [] },
      { device: 'Phone', sessions: 2, active: 1, lastSeen: '2024-02-01T00:00:00Z', ips: ['10.0.0.1'] },
    ]);
  });
});
