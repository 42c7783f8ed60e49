/**
 * The webhook routes' answers, as the server's OpenAPI document describes them (api-types.ts, generated:
 * docs/console.md).
 */
import type { Answer, Row } from '../../api';

export type Webhook = Answer<'webhooks/{id}/'>;

/** The creation answer: the only one carrying the signing secret. */
export type WebhookCreated = Answer<'webhooks/', 'post'>;

export type Delivery = Row<'webhooks/{id}/deliveries/'>;
