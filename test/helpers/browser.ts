import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`): the browser tests drive it and never download a browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Headless, and nothing leaves loopback: no background updates, sync, or QUIC probes. */
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
];

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });

/**
 * A suite that runs in Chromium. Without the browser it is skipped, so `npm test` passes on a machine with
 * nothing but Node; with TEST_REQUIRE_BROWSER=1 (CI, which installs it) a missing browser fails instead, and with
 * TEST_SKIP_BROWSER=1 the suite is skipped whether or not the browser is there.
 */
export function describeInBrowser(name: string, suite: () => void): void {
  // CI runs the browser tests once, in its PostgreSQL pass (what they check does not depend on the database).
  if (process.env.TEST_SKIP_BROWSER === '1') {
    describe(name, { skip: 'TEST_SKIP_BROWSER=1: the browser tests run in another pass' }, suite);
    return;
  }
  if (existsSync(CHROMIUM_PATH)) {
    describe(name, suite);
    return;
  }
  const missing = `${CHROMIUM_PATH} is not installed (Debian package chromium)`;
  if (process.env.TEST_REQUIRE_BROWSER === '1') {
    describe(name, () => { it('finds Chromium, which TEST_REQUIRE_BROWSER=1 requires', () => assert.fail(missing)); });
  } else {
    describe(name, { skip: `${missing}: browser tests skipped` }, suite);
  }
}
