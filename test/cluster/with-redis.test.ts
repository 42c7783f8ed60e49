import { CLUSTER_MODES } from './helpers.js';
import { describeCluster } from './suite.js';

// Rate-limit counters and cache invalidations travel through Redis; PostgreSQL stays the truth.
describeCluster(CLUSTER_MODES.redis);
