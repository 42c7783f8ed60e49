import { Type, type Static } from 'typebox';
import { Body, Nullable } from '../../http/schema.js';

/** At most a billion dollars per report: a finite bound (JSON's 1e400 parses as Infinity) far above any real cost. */
const MAX_REPORTED_COST = 1e9;
/** Token counts per report, well inside the bigint columns they add to. */
const MAX_REPORTED_TOKENS = 1e12;

export const ReportUsageBody = Body({
  cost_usd: Type.Number({ minimum: 0, maximum: MAX_REPORTED_COST, description: 'What this call cost, in US dollars (kept to 8 decimals)' }),
  prompt_tokens: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_REPORTED_TOKENS })),
  completion_tokens: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_REPORTED_TOKENS })),
});
export type ReportUsageInput = Static<typeof ReportUsageBody>;

export const HeartbeatResponse = Type.Object({
  status: Type.Enum(['ok'], { type: 'string' }),
  last_heartbeat_at: Type.String({ format: 'date-time' }),
});

export const UsageResponse = Type.Object({
  status: Type.Enum(['ok'], { type: 'string' }),
  spend_usd: Type.Number(),
  budget_limit_usd: Nullable(Type.Number()),
  remaining_usd: Nullable(Type.Number({ description: 'Budget left; null without a budget' })),
});
