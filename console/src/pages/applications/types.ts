/**
 * The applications routes' answers, as the server's OpenAPI document describes them (api-types.ts, generated:
 * docs/console.md).
 */
import type { Answer } from '../../api';

/** An application as the API shows it (never its secret). */
export type Application = Answer<'applications/{id}/'>;

/** The answer of create and regenerate: the only two that carry the secret. */
export type Credentials = Answer<'applications/', 'post'>;
