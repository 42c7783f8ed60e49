import type { Migration } from 'kysely';
import * as m0001 from './0001_initial.js';
import * as m0002 from './0002_sessions.js';
import * as m0003 from './0003_notifications.js';
import * as m0004 from './0004_codes.js';
import * as m0005 from './0005_password_history.js';
import * as m0006 from './0006_two_factor.js';
import * as m0007 from './0007_magic_links.js';
import * as m0008 from './0008_password_normalization.js';
import * as m0009 from './0009_sessions_version.js';
import * as m0010 from './0010_organizations.js';
import * as m0011 from './0011_agents.js';
import * as m0012 from './0012_account_deletion.js';
import * as m0013 from './0013_dashboard_indexes.js';
import * as m0014 from './0014_social_login.js';
import * as m0015 from './0015_passkeys.js';
import * as m0016 from './0016_avatars.js';
import * as m0017 from './0017_signing_keys.js';
import * as m0018 from './0018_webhooks.js';
import * as m0019 from './0019_rate_limit_counters.js';
import * as m0020 from './0020_public_applications.js';
import * as m0021 from './0021_admin_hold.js';
import * as m0022 from './0022_session_auth_time.js';
import * as m0023 from './0023_webhook_delivery_attempts.js';
import * as m0024 from './0024_invitation_sends.js';
import * as m0025 from './0025_sealed_values.js';
import * as m0026 from './0026_permission_graph_version.js';
import * as m0027 from './0027_signing_key_purpose.js';
import * as m0028 from './0028_oauth_records.js';
import * as m0029 from './0029_oauth_record_accounts.js';
import * as m0030 from './0030_oauth_resources.js';
import * as m0031 from './0031_oauth_grant_delegations.js';
import * as m0032 from './0032_social_states_for_oauth.js';
import * as m0033 from './0033_agent_delegation.js';
import * as m0034 from './0034_agent_trail.js';

/** Every migration, in order. Migrations are frozen once released: add a new one, never edit an old one. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_sessions': m0002,
  '0003_notifications': m0003,
  '0004_codes': m0004,
  '0005_password_history': m0005,
  '0006_two_factor': m0006,
  '0007_magic_links': m0007,
  '0008_password_normalization': m0008,
  '0009_sessions_version': m0009,
  '0010_organizations': m0010,
  '0011_agents': m0011,
  '0012_account_deletion': m0012,
  '0013_dashboard_indexes': m0013,
  '0014_social_login': m0014,
  '0015_passkeys': m0015,
  '0016_avatars': m0016,
  '0017_signing_keys': m0017,
  '0018_webhooks': m0018,
  '0019_rate_limit_counters': m0019,
  '0020_public_applications': m0020,
  '0021_admin_hold': m0021,
  '0022_session_auth_time': m0022,
  '0023_webhook_delivery_attempts': m0023,
  '0024_invitation_sends': m0024,
  '0025_sealed_values': m0025,
  '0026_permission_graph_version': m0026,
  '0027_signing_key_purpose': m0027,
  '0028_oauth_records': m0028,
  '0029_oauth_record_accounts': m0029,
  '0030_oauth_resources': m0030,
  '0031_oauth_grant_delegations': m0031,
  '0032_social_states_for_oauth': m0032,
  '0033_agent_delegation': m0033,
  '0034_agent_trail': m0034,
};
