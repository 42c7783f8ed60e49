import { after, before, describe } from 'node:test';
import { describeCounters } from './counters.js';
import { createCluster, type ClusterMode } from './helpers.js';
import { describeRefresh } from './refresh.js';
import { describeRevocations } from './revocations.js';
import { describeKeyRotation } from './signing-keys.js';

/**
 * The multi-instance suite for one deployment: three `gatehouse serve` processes on one fresh database behind a
 * round-robin proxy. Areas run one after another (none leans on another's leftovers); every process is stopped in
 * `after`, whatever happened.
 */
export function describeCluster(mode: ClusterMode): void {
  describe(`three instances behind a round-robin proxy (${mode.name})`, { skip: mode.skip }, () => {
    const cluster = createCluster(mode);
    before(() => cluster.start());
    after(() => cluster.stop());

    describeRevocations(cluster);
    describeKeyRotation(cluster);
    describeRefresh(cluster);
    describeCounters(cluster);
  });
}
