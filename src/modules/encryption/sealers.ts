import type { Config } from '../../config/settings.js';
import { createSealer, deriveKey, type Sealer } from '../../security/seal.js';

/**
 * Every use of the encryption key, each with a key of its own derived from it (security/seal.ts `deriveKey`), so that
 * one key never serves two uses. The last two seal values about the key itself (`sealed_values`).
 */
export const SEALING_PURPOSES = ['totp', 'webhooks', 'signing-keys', 'outbox', 'social-login', 'key-check', 'backup-code-key'] as const;
export type SealingPurpose = (typeof SEALING_PURPOSES)[number];
export type Sealers = Readonly<Record<SealingPurpose, Sealer>>;

export const sealersOf = (secret: string): Sealers =>
  Object.fromEntries(SEALING_PURPOSES.map((p) => [p, createSealer(deriveKey(secret, p))])) as Record<SealingPurpose, Sealer>;

/** What seals: `SVC_ENCRYPTION_KEY`, or the JWT secret while it is unset (docs/deployment.md "Production checklist"). */
export const sealingSecretOf = (config: Pick<Config, 'ENCRYPTION_KEY' | 'JWT_SECRET_KEY'>): string =>
  config.ENCRYPTION_KEY ?? config.JWT_SECRET_KEY!;

/** A column of sealed values: what the key check tries the key on, and what a rotation re-seals. */
export interface SealedColumns {
  /** In words, for messages: `TOTP secrets`. */
  what: string;
  table: 'totp_credentials' | 'webhooks' | 'signing_keys' | 'outbox_messages' | 'social_login_states';
  /** The row's key, an integer. */
  key: 'user_id' | 'id';
  columns: readonly string[];
  purpose: SealingPurpose;
}

/** Every value sealed with the encryption key, except `sealed_values`' own (sealed for the purpose each row names). */
export const SEALED_COLUMNS: readonly SealedColumns[] = [
  { what: 'signing keys', table: 'signing_keys', key: 'id', columns: ['private_key_sealed'], purpose: 'signing-keys' },
  { what: 'TOTP secrets', table: 'totp_credentials', key: 'user_id', columns: ['secret_sealed', 'pending_secret_sealed'], purpose: 'totp' },
  { what: 'webhook secrets', table: 'webhooks', key: 'id', columns: ['secret_sealed'], purpose: 'webhooks' },
  { what: 'queued emails and SMS', table: 'outbox_messages', key: 'id', columns: ['payload'], purpose: 'outbox' },
  { what: 'social sign-ins under way', table: 'social_login_states', key: 'id', columns: ['code_verifier_sealed'], purpose: 'social-login' },
];

/** Whether `sealer` opens `sealed`: AES-GCM refuses a value sealed under another key (its tag does not verify). */
export function opens(sealer: Sealer, sealed: string): boolean {
  try { sealer.open(sealed); return true; } catch { return false; }
}
