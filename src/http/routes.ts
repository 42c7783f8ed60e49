import agentActivityRoutes from '../modules/agents/activity.routes.js';
import agentTokenRoutes from '../modules/agents/agent-tokens.routes.js';
import childTokenRoutes from '../modules/agents/child-tokens.routes.js';
import usageRoutes from '../modules/agents/usage.routes.js';
import pendingActionRoutes from '../modules/agents/pending-actions.routes.js';
import authorizeRoutes from '../modules/agents/authorize.routes.js';
import adminUserRoutes from '../modules/admin/admin-users.routes.js';
import securityRoutes from '../modules/admin/security.routes.js';
import applicationRoutes from '../modules/applications/applications.routes.js';
import authRoutes from '../modules/auth/auth.routes.js';
import consoleRoutes from '../modules/console/console.routes.js';
import rootRefreshRoutes from '../modules/auth/root-refresh.routes.js';
import dashboardRoutes from '../modules/dashboard/dashboard.routes.js';
import deletionRoutes from '../modules/deletion/deletion.routes.js';
import deletionAdminRoutes from '../modules/deletion/deletion-admin.routes.js';
import docsRoutes from '../modules/docs/docs.routes.js';
import exportRoutes from '../modules/export/export.routes.js';
import jwksRoutes from '../modules/keys/jwks.routes.js';
import wellKnownRoutes from '../modules/keys/well-known.routes.js';
import mediaRoutes from '../modules/media/media.routes.js';
import oauthGrantRoutes from '../modules/oauth/grants.routes.js';
import oauthRoutes from '../modules/oauth/oauth.routes.js';
import oauthPageRoutes from '../modules/oauth/pages.routes.js';
import authzenRoutes from '../modules/agents/authzen.routes.js';
import oauthResourceRoutes from '../modules/oauth/resources.routes.js';
import healthRoutes from '../modules/ops/health.routes.js';
import metricsRoutes from '../modules/ops/metrics.routes.js';
import invitationRoutes from '../modules/organizations/invitations.routes.js';
import memberRoutes from '../modules/organizations/members.routes.js';
import organizationRoutes from '../modules/organizations/organizations.routes.js';
import organizationRestRoutes from '../modules/organizations/organizations-rest.routes.js';
import otpRoutes from '../modules/otp/otp.routes.js';
import passkeyCredentialRoutes from '../modules/passkeys/credentials.routes.js';
import passkeyRoutes from '../modules/passkeys/passkeys.routes.js';
import passwordlessRoutes from '../modules/passwordless/passwordless.routes.js';
import passwordRoutes from '../modules/passwords/passwords.routes.js';
import profileRoutes from '../modules/profile/profile.routes.js';
import permissionRoutes from '../modules/rbac/permissions.routes.js';
import roleRoutes from '../modules/rbac/roles.routes.js';
import socialAccountRoutes from '../modules/social/social-accounts.routes.js';
import socialRoutes from '../modules/social/social.routes.js';
import userGrantRoutes from '../modules/rbac/user-grants.routes.js';
import twoFactorRoutes from '../modules/twofactor/twofactor.routes.js';
import webhookRoutes from '../modules/webhooks/webhooks.routes.js';
import type { RoutePlugin } from './route-plugin.js';

/** Every route plugin mounted under the API prefix (application credentials required unless a route says otherwise). */
export const API_ROUTES: RoutePlugin[] = [
  docsRoutes,
  authRoutes,
  profileRoutes,
  permissionRoutes,
  roleRoutes,
  userGrantRoutes,
  applicationRoutes,
  adminUserRoutes,
  securityRoutes,
  deletionAdminRoutes,
  otpRoutes,
  passwordlessRoutes,
  passwordRoutes,
  twoFactorRoutes,
  organizationRoutes,
  memberRoutes,
  invitationRoutes,
  organizationRestRoutes,
  dashboardRoutes,
  deletionRoutes,
  exportRoutes,
  socialAccountRoutes,
  socialRoutes,
  passkeyRoutes,
  passkeyCredentialRoutes,
  agentTokenRoutes,
  childTokenRoutes,
  usageRoutes,
  agentActivityRoutes,
  pendingActionRoutes,
  authorizeRoutes,
  jwksRoutes,
  webhookRoutes,
  oauthGrantRoutes,
  oauthResourceRoutes,
];

/** Operational routes at the root: no prefix, no application credentials. */
export const ROOT_ROUTES: RoutePlugin[] = [
  healthRoutes,
  metricsRoutes,
  rootRefreshRoutes,
  mediaRoutes,
  wellKnownRoutes,
  oauthRoutes,
  oauthPageRoutes,
  authzenRoutes,
  consoleRoutes,
];
