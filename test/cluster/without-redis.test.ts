import { CLUSTER_MODES } from './helpers.js';
import { describeCluster } from './suite.js';

// No Redis: the same promises hold through PostgreSQL alone (docs/decisions.md "Several instances").
describeCluster(CLUSTER_MODES.postgres);
