import { CLUSTER_MODES } from './helpers.js';
import { describeCluster } from './suite.js';

// No Redis: the same promises hold through PostgreSQL alone (DECISIONS.md "Several instances").
describeCluster(CLUSTER_MODES.postgres);
