import type { Redis } from 'ioredis';
import { publicUrlOf, type Config } from './config/settings.js';
import { systemClock, type Clock } from './core/clock.js';
import { createLifecycle } from './core/lifecycle.js';
import { createOpsStats } from './core/ops-stats.js';
import { throttled } from './core/throttle.js';
import { createChangeBus } from './db/change-bus.js';
import type { Database } from './db/create-db.js';
import { createAgentAuthService } from './modules/agents/agent-auth.service.js';
import { createAgentTokenService } from './modules/agents/agent-tokens.service.js';
import { createChildTokenService } from './modules/agents/child-tokens.service.js';
import { createTrailService } from './modules/agents/trail.service.js';
import { createTrailWriter } from './modules/agents/trail-writer.js';
import { createAuthzenService } from './modules/agents/authzen.service.js';
import { createPendingActionService } from './modules/agents/pending-actions.service.js';
import { createAgentActivityService } from './modules/agents/activity.service.js';
import { createAuthorizeService } from './modules/agents/authorize.service.js';
import { createDelegationService } from './modules/agents/delegations.service.js';
import { createUsageService } from './modules/agents/usage.service.js';
import { createAdminUserService } from './modules/admin/admin-users.service.js';
import { createAuditLogService } from './modules/admin/audit-logs.service.js';
import { createSecurityService } from './modules/admin/security.service.js';
import { createAppCredentialService } from './modules/applications/app-credentials.service.js';
import { createApplicationService } from './modules/applications/applications.service.js';
import { createAuditService } from './modules/audit/audit.service.js';
import { createLockoutService } from './modules/auth/lockout.service.js';
import { createLoginService } from './modules/auth/login.service.js';
import { ADMIN_SETUP_TOKEN_LIFETIME, createSignInService } from './modules/auth/sign-in.service.js';
import { createLogoutService } from './modules/auth/logout.service.js';
import { createReauthService } from './modules/auth/reauth.service.js';
import { createRegistrationService } from './modules/auth/registration.service.js';
import { createConsoleService } from './modules/console/console.service.js';
import { createDashboardService } from './modules/dashboard/dashboard.service.js';
import { createDeletionService } from './modules/deletion/deletion.service.js';
import { createDeletionCompletionService } from './modules/deletion/completion.service.js';
import { createDeletionAdminService } from './modules/deletion/deletion-admin.service.js';
import { createExportService } from './modules/export/export.service.js';
import { createKeyService } from './modules/keys/keys.service.js';
import { createOauthGrantService } from './modules/oauth/grants.service.js';
import { createAccessTokenVerifier } from './modules/oauth/access-token-verifier.js';
import { createGrantDelegationService } from './modules/agents/grant-delegations.service.js';
import { createOauthService } from './modules/oauth/oauth.service.js';
import { createOauthSignInMethods } from './modules/oauth/sign-in-methods.service.js';
import { createOauthResourceService } from './modules/oauth/resources.service.js';
import { createInvitationService } from './modules/organizations/invitations.service.js';
import { createMemberService } from './modules/organizations/members.service.js';
import { createOrganizationService } from './modules/organizations/organizations.service.js';
import { createOtpService } from './modules/otp/otp.service.js';
import { createBreachChecker } from './modules/passwords/breach.js';
import { createPasswordChangeService } from './modules/passwords/password-change.service.js';
import { createPasswordResetService } from './modules/passwords/password-reset.service.js';
import { createMagicLinkService } from './modules/passwordless/magic-link.service.js';
import { createIdentifierProof } from './modules/passwordless/identifier-proof.js';
import { createOtpLoginService } from './modules/passwordless/otp-login.service.js';
import { createPasswordService } from './modules/passwords/passwords.service.js';
import { isCommonPassword } from './modules/passwords/strength.js';
import { createProfileService } from './modules/profile/profile.service.js';
import { createPermissionService } from './modules/rbac/permissions.service.js';
import { createRbacService } from './modules/rbac/rbac.service.js';
import { createRoleService } from './modules/rbac/roles.service.js';
import { createUserGrantsService } from './modules/rbac/user-grants.service.js';
import { createBearerService } from './modules/sessions/bearer.service.js';
import { createSessionService } from './modules/sessions/sessions.service.js';
import { createSocialAccountService } from './modules/social/social-accounts.service.js';
import { createOAuth2Client } from './modules/social/oauth2-client.js';
import { createOidcClient } from './modules/social/oidc-client.js';
import { createSocialLoginService } from './modules/social/social-login.service.js';
import { createSocialService } from './modules/social/social.service.js';
import { createSocialBrowserService } from './modules/social/social-browser.service.js';
import { parseSocialProviders } from './config/social-providers.js';
import { createPasskeyAuthenticationService } from './modules/passkeys/authentication.service.js';
import { createPasskeyCredentialService } from './modules/passkeys/credentials.service.js';
import { createPasskeyRegistrationService } from './modules/passkeys/registration.service.js';
import { createTwoFactorService } from './modules/twofactor/twofactor.service.js';
import { backupCodeKeyOf } from './modules/encryption/backup-code-key.js';
import { createKeyRotationService } from './modules/encryption/rotation.service.js';
import { sealersOf, sealingSecretOf } from './modules/encryption/sealers.js';
import { createUserImportService } from './modules/users/import.service.js';
import { createSecurityNoticeService } from './modules/users/security-notices.service.js';
import { createUserService } from './modules/users/users.service.js';
import { createWebhookDeliveryService } from './modules/webhooks/delivery.service.js';
import { createWebhookEvents } from './modules/webhooks/webhook-events.service.js';
import { createWebhookService } from './modules/webhooks/webhooks.service.js';
import { createOutboxService } from './notifications/outbox.service.js';
import { createNotifier, type Notifier } from './notifications/senders.js';
import { deriveKey } from './security/seal.js';
import { createArgon2Hasher, defaultHashConcurrency, PRODUCTION_ARGON2, type PasswordHasher } from './security/password-hash.js';

export interface ContainerOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  hasher?: PasswordHasher;
  redis?: Redis | null;
  /** Replaces the configured email/SMS backends (embedding); the memory inbox is filled only by `memory` backends. */
  notifier?: Notifier;
  /** Where delivery problems are reported (the server passes its logger). */
  onError?: (message: string) => void;
}

/** The composition root: the one place that wires repos → services. */
export async function buildContainer(opts: ContainerOptions) {
  const { config, database } = opts;
  const db = database.db;
  const clock = opts.clock ?? systemClock;
  const hasher = opts.hasher ?? await createArgon2Hasher(PRODUCTION_ARGON2,
    config.PASSWORD_HASH_CONCURRENCY || defaultHashConcurrency());
  const redis = opts.redis ?? null;
  const secretKey = sealingSecretOf(config);
  // One key per use of the encryption key (modules/encryption/sealers.ts); start-up proves it opens what is stored.
  const sealers = sealersOf(secretKey);
  const onError = opts.onError ?? ((m: string) => process.stderr.write(`${m}\n`));
  const stats = createOpsStats();
  const lifecycle = createLifecycle();
  redis?.on('error', () => stats.redisError());
  // Caches of other instances are dropped within a second of a change made here (docs/decisions.md "Several instances").
  const changes = createChangeBus({ database, redis, redisChannel: `${config.REDIS_KEY_PREFIX}changes`,
    onError: throttled(onError, 60_000, () => clock.now().getTime()) });
  const { notifier: configuredNotifier, inbox } = createNotifier(config);
  const outbox = createOutboxService({ db, clock, config, notifier: opts.notifier ?? configuredNotifier,
    sealer: sealers.outbox, onError });

  const audit = createAuditService({ db, clock, config });
  // Webhook events are written in the transactions of the changes they report, and sent after commit.
  const webhookSealer = sealers.webhooks;
  const webhookDelivery = createWebhookDeliveryService({ db, clock, sealer: webhookSealer, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS,
    onError: throttled(onError, 60_000, () => clock.now().getTime()) });
  const events = createWebhookEvents({ db, clock, onEnqueued: webhookDelivery.kickSoon, changes });
  // Agent requests' audit rows and the agent trail, written off the request path; one lost batch is one line a minute at most.
  const agentActions = createTrailWriter({ db, onError: throttled(onError, 60_000, () => clock.now().getTime()) });
  const applications = createApplicationService({ db, clock, audit, changes });
  // Which application each request is made for; its cache is dropped on every change announced by `applications`.
  const appCredentials = createAppCredentialService({ db, clock, changes });
  // While the range API is down every password set would say so: one line a minute is enough.
  const breach = createBreachChecker({ apiUrl: config.BREACH_CHECK_API_URL, isCommon: isCommonPassword,
    onUnavailable: throttled(onError, 60_000, () => clock.now().getTime()) });
  const passwords = createPasswordService({ db, config, hasher, breach });
  const users = createUserService({ db, clock, hasher, passwords, events });
  const rbac = createRbacService({ db });
  // Access-token signing keys; a superseded key verifies until the longest token it may have signed has expired.
  const keys = createKeyService({ db, clock, config, changes, sealer: sealers['signing-keys'],
    longestTokenLifetime: Math.max(config.JWT_ACCESS_TOKEN_LIFETIME, ADMIN_SETUP_TOKEN_LIFETIME), onError });
  // What a person delegated ends with their sessions: the session service revokes it in the same transaction.
  const oauthGrants = createOauthGrantService({ db, clock, audit, appCredentials });
  const delegations = createDelegationService({ clock, audit, oauthGrants });
  const sessions = createSessionService({ db, clock, config, audit, events, keys, delegations, rbac });
  const bearer = createBearerService({ db, clock, config, keys });
  const lockout = createLockoutService({ db, clock, config, audit, events });
  const notices = createSecurityNoticeService({ clock, outbox });
  const twofactor = createTwoFactorService({ db, clock, config, verifyPassword: users.verifyPassword, audit, lockout,
    sealer: sealers.totp, codeKey: backupCodeKeyOf(db, secretKey, sealers), events, notices });
  const deletion = createDeletionService({ db, clock, config, audit, lockout, sessions, outbox, verifyPassword: users.verifyPassword,
    verifySecondFactor: twofactor.verifyLoginCode, events });
  const members = createMemberService({ db, clock, config, audit, events });
  const invitations = createInvitationService({ db, clock, config, audit, outbox, members });
  // Invitations waiting for a verified address become memberships when its account signs in or verifies it, never
  // at the cost of that sign-in or verification; with organizations off, neither pays anything.
  const acceptInvitations = config.ORGANIZATIONS_ENABLED
    ? (user: { id: number }) => invitations.acceptPendingFor(user)
      .catch((err: Error) => onError(`accepting invitations for user ${user.id} failed: ${err.message}`))
    : undefined;
  // What every sign-in method shares once its own credential is checked; the password login is one of them.
  const signIn = createSignInService({ db, clock, config, audit, lockout, sessions, rbac,
    verifySecondFactor: twofactor.verifyLoginCode, onSignIn: acceptInvitations, events });
  const login = createLoginService({ db, lockout, signIn, verifyPassword: users.verifyPassword });
  const otp = createOtpService({ db, clock, config, outbox, codeKey: deriveKey(secretKey, 'otp'), onEmailVerified: acceptInvitations });
  const registration = createRegistrationService({ db, users, sessions, signIn, audit, otp });
  const reauth = createReauthService({ db, clock, config, audit, lockout, verifyPassword: users.verifyPassword,
    verifySecondFactor: twofactor.verifyLoginCode });
  const logout = createLogoutService({ db, sessions, audit });
  const profile = createProfileService({ db, clock, rbac, events });
  const permissions = createPermissionService({ db, clock, audit });
  const roles = createRoleService({ db, clock, audit });
  const userGrants = createUserGrantsService({ db, audit, rbac });
  const adminUsers = createAdminUserService({ db, clock, audit, rbac, sessions, events, twofactor, notices });
  const security = createSecurityService({ db, clock, audit, sessions });
  const socialAccounts = createSocialAccountService({ db, audit });
  const deletionCompletion = createDeletionCompletionService({ db, clock, config, audit, outbox, events });
  const deletionAdmin = createDeletionAdminService({ db, clock, completion: deletionCompletion });
  const auditLogs = createAuditLogService({ db, pending: agentActions });
  const organizations = createOrganizationService({ db, clock, config, audit });
  const dashboard = createDashboardService({ db, clock, config });
  const dataExport = createExportService({ db, clock, config, verifyPassword: users.verifyPassword, audit, lockout, rbac,
    pendingAudit: agentActions, agentTokenRecords: (executor, userId) => agentTokens.recordsOf(executor, userId) });
  const agentAuth = createAgentAuthService({ db, counters: database.counters, clock, audit, events });
  const agentUsage = createUsageService({ db, clock, agentAuth });
  const agentActivity = createAgentActivityService({ db, clock, writer: agentActions });
  const agentTrail = createTrailService({ db, clock, issuer: config.JWT_ISSUER, writer: agentActions, checkpointKey: keys.checkpointKey });
  const childTokens = createChildTokenService({ db, clock, config, audit, agentAuth, orgs: organizations.resolver });
  const agentTokens = createAgentTokenService({ db, clock, config, audit, rbac, orgs: organizations.resolver, events, sessions,
    notices });
  const pendingActions = createPendingActionService({ db, clock, config, audit, key: deriveKey(secretKey, 'agent-actions'), events });
  // ai/authorize/ accepts the authorization server's access tokens as well (docs/oauth.md "Grants and ai/authorize/").
  const oauthTokens = createAccessTokenVerifier({ keys, clock, issuer: publicUrlOf(config) });
  const authorize = createAuthorizeService({ config, agents: agentAuth, orgs: organizations.resolver, pendingActions, oauthTokens });
  const authzen = createAuthzenService({ authorize, activity: agentActivity });
  const grantDelegations = createGrantDelegationService({ db, clock, audit });
  const socialLogin = createSocialLoginService({ db, clock, signIn, users });
  // Only the provider's name and an error code are reported: never what the provider answered.
  const oidc = createOidcClient();
  const oauth2 = createOAuth2Client();
  const socialProviders = parseSocialProviders(config.SOCIAL_PROVIDERS);
  const social = createSocialService({ db, clock, config, providers: socialProviders, oidc, oauth2, socialLogin,
    onProviderError: throttled((provider: string, reason: string) => onError(`social provider ${provider} failed: ${reason}`), 60_000,
      () => clock.now().getTime()) });
  const socialBrowser = createSocialBrowserService({ db, clock, config, sealer: sealers['social-login'],
    applications, social, oidc, oauth2, socialLogin });
  const passkeyRegistration = createPasskeyRegistrationService({ db, clock, config, audit, notices });
  const passkeyAuthentication = createPasskeyAuthenticationService({ db, clock, config, audit, signIn });
  const passkeyCredentials = createPasskeyCredentialService({ db, audit });
  // The first passwordless proof of an address removes a password set on the account before it.
  const identifierProof = createIdentifierProof({ clock, sessions, passwords, audit, outbox, events });
  const otpLogin = createOtpLoginService({ db, clock, config, users, otp, signIn, lockout, audit, proof: identifierProof,
    codeKey: deriveKey(secretKey, 'otp') });
  const magicLinks = createMagicLinkService({ db, clock, config, outbox, signIn, lockout, proof: identifierProof });
  const passwordReset = createPasswordResetService({ db, clock, config, hasher, audit, sessions, passwords, otp, outbox, events });
  const passwordChange = createPasswordChangeService({ db, clock, hasher, verifyPassword: users.verifyPassword, audit, lockout,
    sessions, passwords, otp,
    consumeLoginCode: otpLogin.consumeLoginCodeForSetInitial, events });
  // The OAuth 2.1 authorization server and OpenID Provider (docs/oauth.md), built on its first request.
  const oauthResources = createOauthResourceService({ db, clock, audit, changes });
  const oauth = createOauthService({ methods: { passkeys: config.WEBAUTHN_ENABLED, social: [...socialProviders.keys()] }, db, clock, config, keys, appCredentials, resources: oauthResources, rbac, login,
    delegations: grantDelegations, orgs: organizations.resolver, verifier: oauthTokens, agents: agentAuth, childTokens,
    cookieKey: deriveKey(secretKey, 'oauth-cookies'), rotationKey: deriveKey(secretKey, 'oauth-refresh-rotation') });
  const oauthSignInMethods = createOauthSignInMethods({ oauth, socialBrowser, passkeys: passkeyAuthentication,
    callbackUrl: (provider) => `${publicUrlOf(config)}/oauth/social/${provider}/callback` });
  const webhooks = createWebhookService({ db, clock, config, audit, sealer: webhookSealer, events, delivery: webhookDelivery });

  return {
    config,
    database,
    db,
    clock,
    hasher,
    redis,
    changes,
    stats,
    lifecycle,
    inbox,
    /** What seals, one sealer per use: the start-up key check opens stored values with them. */
    sealers,
    services: {
      outbox, applications, appCredentials, audit, users, rbac, keys, sessions, bearer, lockout, signIn, login, registration, reauth, logout, profile,
      otpLogin, magicLinks,
      permissions, roles, userGrants, adminUsers, security, auditLogs, otp, passwords, twofactor, passwordChange, passwordReset,
      deletionCompletion, deletionAdmin, socialAccounts, social, socialBrowser, passkeyRegistration, passkeyAuthentication, passkeyCredentials,
      organizations, members, invitations, dashboard, deletion, dataExport, agentAuth, agentTokens, childTokens, delegations, pendingActions, authorize, authzen, agentUsage, agentActivity,
      agentTrail, agentTrailWriter: agentActions,
      webhooks, webhookDelivery, webhookEvents: events, oauth, oauthSignInMethods, oauthGrants, oauthResources,
      userImport: createUserImportService({ db, clock, hasher, audit, events }),
      keyRotation: createKeyRotationService({ db, clock, audit }),
      console: createConsoleService({ db }),
    },
  };
}

export type Container = Awaited<ReturnType<typeof buildContainer>>;
