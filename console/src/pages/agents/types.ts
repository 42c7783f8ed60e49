/**
 * The records the ai/ routes answer, as the server's OpenAPI document describes them (api-types.ts, generated:
 * docs/console.md).
 */
import type { Answer, Row } from '../../api';

export type AgentToken = Answer<'ai/tokens/{id}/'>;

export type CreatedToken = Answer<'ai/tokens/', 'post'>;

export type PendingAction = Row<'ai/pending-actions/'>;

export type Activity = Row<'ai/tokens/{id}/activity/'>;
