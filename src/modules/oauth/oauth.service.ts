import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KoaContextWithOIDC, default as Provider } from 'oidc-provider';
import { AppError } from '../../core/errors.js';
import { addSeconds, type Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { safeEqual } from '../../security/compare.js';
import type { AppCredentialService } from '../applications/app-credentials.service.js';
import type { LoginMeta, LoginService, ProviderOutcome } from '../auth/login.service.js';
import type { KeyService } from '../keys/keys.service.js';
import type { AccessTokenVerifier } from './access-token-verifier.js';
import type { GrantDelegationService } from '../agents/grant-delegations.service.js';
import { orgContextIfMember, type OrgContext, type OrgContextResolver } from '../organizations/org-context.js';
import type { RbacService } from '../rbac/rbac.service.js';
import { chosenLimits, isOrgScope, limitChoices, orgSlugsIn, permissionsOf, verifiedLimits, type LimitChoices } from './consent.js';
import type { OauthResourceService } from './resources.service.js';
import { createOauthAccounts } from './accounts.js';
import { createOauthClients } from './clients.js';
import { errorPage, loggedOutPage, logoutPage, pageLanguage, pagePolicy, type Refusal } from './pages.js';
import { createProvider, interactionPath, OFFLINE_REQUESTED, REGISTERED, type ProviderPages } from './provider.js';
import { createRefreshGrace } from './refresh-grace.js';
import { createTokenExchange } from './token-exchange.js';
import type { AgentAuthService } from '../agents/agent-auth.service.js';
import type { ChildTokenService } from '../agents/child-tokens.service.js';
import { publicUrlOf, type Config } from '../../config/settings.js';

/** An HTML answer of the provider's own, under the pages' security policy. */
function htmlPage(ctx: KoaContextWithOIDC, formTargets: string[]) {
  ctx.type = 'html';
  ctx.set('content-security-policy', pagePolicy(formTargets));
  ctx.set('cache-control', 'no-store');
  ctx.set('x-frame-options', 'DENY');
}

/** The ways to sign in the page offers besides the password (docs/oauth.md "Sign-in and consent"). */
export interface SignInMethods { passkeys: boolean; social: string[] }

type Deps = {
  methods: SignInMethods;
  db: Db; clock: Clock; config: Config; keys: Pick<KeyService, 'providerKeys'>; appCredentials: AppCredentialService;
  resources: OauthResourceService; rbac: Pick<RbacService, 'grantsOfUserId'>; login: LoginService;
  /** Each grant for a resource is a delegation, bound at consent (docs/oauth.md "Grants and ai/authorize/"). */
  delegations: Pick<GrantDelegationService, 'bind'>;
  orgs: OrgContextResolver;
  /** Checks the provider's JWT access tokens (shared with ai/authorize/). */
  verifier: AccessTokenVerifier;
  /** The token-exchange grant's agents: the subject token's check, and the child it delegates (docs/agents.md "Delegation"). */
  agents: Pick<AgentAuthService, 'authenticate' | 'authenticateExchanged' | 'inspectExchanged' | 'revokeExchanged'>;
  childTokens: Pick<ChildTokenService, 'delegate'>;
  /** Signs the provider's cookies and binds each form's CSRF field to its cookie. */
  cookieKey: Buffer;
  /** Derives a rotated refresh token's successor from it (the reuse grace). */
  rotationKey: Buffer;
};

type Req = IncomingMessage;
type Res = ServerResponse;

/**
 * A sign-in whose first factor was right (a password, a provider), waiting for the second factor (kept in the
 * interaction, server-side); `method` is how it began, as the sign-in is recorded.
 */
interface PendingSecondFactor { user_id: number; identifier: string; method: string }

/** What an interaction holds between its pages: a sign-in waiting for its code, or why the last one was refused. */
type Between = { pending_second_factor?: PendingSecondFactor; refusal?: Refusal } | undefined;

/** How a sign-in method ended once its credential was checked. */
export interface CredentialOutcome { user: { id: number }; identifier: string; outcome: ProviderOutcome }

/** The consent form's fields: the decision, and the limits an agent client's grant gets. */
export type ConsentForm = Record<string, string | undefined>;

/** What the interaction page shows next. */
export type InteractionView =
  | { page: 'sign_in'; uid: string; clientName: string; lang: 'en' | 'fr'; email?: string | undefined; refusal?: Refusal | undefined;
    methods: SignInMethods }
  | { page: 'second_factor'; uid: string; clientName: string; lang: 'en' | 'fr'; refusal?: Refusal | undefined }
  | { page: 'consent'; uid: string; clientName: string; lang: 'en' | 'fr'; redirectHost: string; redirectOrigin: string; unverified: boolean;
    scopes: string[]; account: string; limits?: LimitChoices | undefined; refusal?: Refusal | undefined };

/**
 * The authorization server (docs/oauth.md): the OpenID Provider, built on first use and rebuilt when the signing keys
 * change, and the steps of its sign-in and consent pages — which run every check of a password login.
 */
export function createOauthService({ methods, db, clock, config, keys, appCredentials, resources, rbac, login, delegations, orgs, verifier, cookieKey,
  rotationKey, agents, childTokens }: Deps) {
  const refreshGrace = createRefreshGrace({ db, clock, key: rotationKey, graceSeconds: config.REFRESH_TOKEN_REUSE_GRACE });
  const clients = createOauthClients({ appCredentials, resources });
  const accounts = createOauthAccounts({ db, clock });
  const orgPermissions = async (slug: string, userId: number) => (await organizationOf([slug], userId))?.permissions ?? null;
  const exchange = createTokenExchange({ clock, issuer: publicUrlOf(config), keys, verifier, resources, agents, childTokens, orgPermissions });
  /** The permission codes a person holds now: what consent may grant and introspection reports (docs/oauth.md "Scopes"). */
  const held = async (userId: number) => new Set((await rbac.grantsOfUserId(userId)).permissions);
  let current: { version: string; provider: Provider } | undefined;
  let building: { version: string; promise: Promise<Provider> } | undefined;

  /** The provider for the current keys (a rotation on any instance gives the next request a provider with the new set). */
  async function provider(): Promise<Provider> {
    const set = await keys.providerKeys();
    if (current?.version === set.version) return current.provider;
    // Requests arriving together while it is built share one build.
    if (building?.version !== set.version) {
      const version = set.version;
      const promise = createProvider({ db, clock, config, clients, accounts, resources, verifier, refreshGrace, keys: { keys: set.keys as never },
        orgPermissions, exchange, cookieKeys: [cookieKey.toString('base64url')], pages: providerPages }).then((built) => {
        current = { version, provider: built };
        return built;
      }).finally(() => {
        if (building?.promise === promise) building = undefined;
      });
      building = { version, promise };
    }
    return building!.promise;
  }

  /** The pages the provider renders itself: its errors and RP-initiated logout, in the look and under the policy of the others. */
  const providerPages: ProviderPages = {
    renderError: (ctx, out) => {
      htmlPage(ctx, []);
      ctx.body = errorPage(pageLanguage(undefined, ctx.get('accept-language')), String(out.error), out.error_description);
    },
    logoutSource: (ctx, form) => {
      const next = (ctx.oidc.params as Record<string, string | undefined> | undefined)?.post_logout_redirect_uri;
      htmlPage(ctx, next && URL.canParse(next) ? [new URL(next).origin] : []);
      ctx.body = logoutPage(pageLanguage(undefined, ctx.get('accept-language')), ctx.host, form);
    },
    postLogoutSuccessSource: (ctx) => {
      htmlPage(ctx, []);
      ctx.body = loggedOutPage(pageLanguage(undefined, ctx.get('accept-language')));
    },
  };

  /** The CSRF field of an interaction's forms: bound to the browser's CSRF cookie and to the interaction. */
  const csrfTokenFor = (cookie: string, uid: string) => createHmac('sha256', cookieKey).update(`oauth-csrf:${cookie}:${uid}`).digest('base64url');
  const csrfMatches = (cookie: string | undefined, uid: string, field: string | undefined) =>
    Boolean(cookie && field) && safeEqual(csrfTokenFor(cookie!, uid), field!);

  /** The client's name as the pages show it, and whether it is unverified (not one of Gatehouse's applications). */
  async function clientOf(p: Provider, clientId: string): Promise<{ name: string; unverified: boolean }> {
    const client = await p.Client.find(clientId);
    return { name: client?.clientName ?? clientId, unverified: client?.metadata()[REGISTERED] === true };
  }

  /** What the interaction under way asks of the person, as a page to show. */
  async function view(req: Req, res: Res, extra: { refusal?: Refusal; email?: string } = {}): Promise<InteractionView> {
    const p = await provider();
    const details = await p.interactionDetails(req, res);
    const params = details.params as Record<string, string | undefined>;
    const lang = pageLanguage(params.ui_locales, req.headers['accept-language']);
    const { name: clientName, unverified } = await clientOf(p, params.client_id!);
    const between = details.result as Between;
    if (details.prompt.name === 'login') {
      if (between?.pending_second_factor) return { page: 'second_factor', uid: details.uid, clientName, lang, refusal: extra.refusal };
      // A refusal a provider's sign-in left for this page is shown once.
      const refusal = extra.refusal ?? between?.refusal;
      if (between?.refusal) await saveBetween(details, undefined);
      return { page: 'sign_in', uid: details.uid, clientName, lang, refusal, email: extra.email ?? params.login_hint, methods };
    }
    const redirect = new URL(params.redirect_uri!);
    const requested = [...(params.scope ?? '').split(' ').filter(Boolean), ...(params[OFFLINE_REQUESTED] === 'true' ? ['offline_access'] : [])];
    const account = await accounts.find(details.session!.accountId);
    const claims = account ? await account.claims('id_token', 'openid', {}, []) : undefined;
    // An agent client asking for a resource gets limits the person chooses (docs/oauth.md "Consent").
    const limits = unverified && params.resource ? limitChoices(config) : undefined;
    return { page: 'consent', uid: details.uid, clientName, lang, redirectHost: redirect.host, redirectOrigin: redirect.origin,
      unverified, scopes: requested, account: String(claims?.email ?? details.session!.accountId), limits, refusal: extra.refusal };
  }

  const refusalOf = (err: unknown): Refusal => {
    if (err instanceof AppError && (err.code === 'ACCOUNT_LOCKED' || err.code === 'INVALID_CODE')) return err.code;
    if (err instanceof AppError && err.code === 'RATE_LIMITED') return 'RATE_LIMITED';
    return 'LOGIN_FAILED';
  };

  /** Keeps what the interaction needs between its pages, for the rest of its life. */
  async function saveBetween(interaction: Awaited<ReturnType<Provider['interactionDetails']>>, between: Between) {
    interaction.result = between;
    await interaction.save(interaction.exp - Math.floor(clock.now().getTime() / 1000));
  }

  /**
   * Where a sign-in goes once its credential was checked, for `interaction`: the login ends with the account (the
   * provider's resume URL), or the code page waits for the second factor, or the sign-in page says why not. Answers
   * the URL to send the browser to; `uid`'s interaction page for the last two.
   */
  async function settle(interaction: Awaited<ReturnType<Provider['interactionDetails']>>, done: CredentialOutcome, method: string)
    : Promise<string> {
    if (done.outcome === 'second_factor_required') {
      await saveBetween(interaction, { pending_second_factor: { user_id: done.user.id, identifier: done.identifier, method } });
      return interactionPath(interaction.uid);
    }
    if (done.outcome !== 'signed_in') {
      await saveBetween(interaction, { refusal: done.outcome });
      return interactionPath(interaction.uid);
    }
    await saveBetween(interaction, { login: { accountId: String(done.user.id) } } as Between);
    return interaction.returnTo;
  }

  /** Ends the login prompt with the account, or answers the next page (the code, or the form again with why not). */
  async function afterCredentials(req: Req, res: Res, done: CredentialOutcome, method: string): Promise<InteractionView | null> {
    if (done.outcome !== 'signed_in' && done.outcome !== 'second_factor_required') return view(req, res, { refusal: done.outcome });
    const p = await provider();
    const details = await p.interactionDetails(req, res);
    if (done.outcome === 'second_factor_required') {
      await settle(details, done, method);
      return view(req, res);
    }
    res.statusCode = 303;
    res.setHeader('location', await settle(details, done, method));
    res.setHeader('content-length', '0');
    res.end();
    return null;
  }

  /**
   * A sign-in finished away from the interaction's pages (a provider's callback, which the interaction's cookie does not
   * reach: the state it came back with names the interaction and is bound to this browser). Answers where the browser
   * goes next; an interaction that expired meanwhile is an error page.
   */
  async function finishedElsewhere(uid: string, done: CredentialOutcome | { refused: Refusal }, method: string): Promise<string> {
    const p = await provider();
    const interaction = await p.Interaction.find(uid);
    if (!interaction) throw Object.assign(new Error('interaction expired'), { error: 'invalid_request', statusCode: 400,
      error_description: 'This sign-in took too long. Go back to the application and start again.' });
    if ('refused' in done) {
      await saveBetween(interaction, { refusal: done.refused });
      return interactionPath(uid);
    }
    return settle(interaction, done, method);
  }

  /** The sign-in form: the password login's checks; 2FA asks for a code on a second page. Null: the answer was sent. */
  async function signIn(req: Req, res: Res, form: { email?: string; password?: string }, meta: LoginMeta): Promise<InteractionView | null> {
    const email = (form.email ?? '').trim();
    try {
      const done = await login.signInForProvider({ by: { email }, password: form.password ?? '' }, meta);
      return await afterCredentials(req, res, { ...done, identifier: email }, meta.method);
    } catch (err) {
      if (err instanceof AppError) return view(req, res, { refusal: refusalOf(err), email });
      throw err;
    }
  }

  /** The second page: the code for the account whose password was right. */
  async function secondFactor(req: Req, res: Res, form: { totp_code?: string }, meta: LoginMeta): Promise<InteractionView | null> {
    const p = await provider();
    const details = await p.interactionDetails(req, res);
    const pending = (details.result as Between)?.pending_second_factor;
    if (!pending) return view(req, res);
    try {
      const done = await login.secondFactorForProvider(pending.user_id, pending.identifier, (form.totp_code ?? '').trim(),
        { ...meta, method: pending.method });
      return await afterCredentials(req, res, { ...done, identifier: pending.identifier }, pending.method);
    } catch (err) {
      if (err instanceof AppError) return view(req, res, { refusal: refusalOf(err) });
      throw err;
    }
  }

  /**
   * The organization an `org:<slug>` scope binds the grant to, and what the person holds there: the first one named,
   * where they have a role (docs/oauth.md "Scopes"); none when organizations are off or they have no role there.
   */
  async function organizationOf(slugs: string[], userId: number): Promise<OrgContext | null> {
    if (!config.ORGANIZATIONS_ENABLED || slugs.length === 0) return null;
    return orgContextIfMember(orgs, slugs[0]!, userId);
  }

  /**
   * The consent form: `approve` grants what was asked (and the person may grant), `deny` answers `access_denied`. A
   * grant for a resource becomes a delegation with the limits chosen (an agent client) or the defaults. Answers the
   * form again when the limits chosen are not ones it offers; null once the answer was sent.
   */
  async function consent(req: Req, res: Res, form: ConsentForm): Promise<InteractionView | null> {
    const p = await provider();
    const details = await p.interactionDetails(req, res);
    if (details.prompt.name !== 'consent') throw new AppError('VALIDATION_ERROR');
    if (form.decision !== 'approve') {
      await p.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person denied the request' },
        { mergeWithLastSubmission: false });
      return null;
    }
    const params = details.params as Record<string, string>;
    const { unverified } = await clientOf(p, params.client_id!);
    const limits = unverified ? chosenLimits(form, limitChoices(config)) : verifiedLimits(config);
    if (!limits) return view(req, res, { refusal: 'INVALID_LIMITS' });
    const accountId = Number(details.session!.accountId);
    const grant = details.grantId ? await p.Grant.find(details.grantId)
      // A new grant lives as long as the limits say; oidc-provider reads `expiresIn` when it saves one.
      : Object.assign(new p.Grant({ accountId: String(accountId), clientId: params.client_id! }), { expiresIn: limits.lifetime });
    if (!grant) throw new AppError('VALIDATION_ERROR');
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (params[OFFLINE_REQUESTED] === 'true') grant.addOIDCScope('offline_access');
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    // One organization per grant: the one it holds already, else the first one asked for where the person has a role.
    const bound = orgSlugsIn(Object.values(grant.resources ?? {}).join(' '));
    const org = await organizationOf(bound.length > 0 ? bound : orgSlugsIn(Object.values(missing.missingResourceScopes ?? {}).flat().join(' ')), accountId);
    // A permission scope is granted only if the person holds it now, in the organization for a bound grant (docs/oauth.md "Scopes").
    const holds = new Set([...await held(accountId), ...(org?.permissions ?? [])]);
    const grantable = (scope: string) => (isOrgScope(scope) ? org !== null && scope === `org:${org.organization.slug}` : holds.has(scope));
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      const granted = scopes.filter(grantable);
      const refused = scopes.filter((s) => !grantable(s));
      if (granted.length) grant.addResourceScope(indicator, granted.join(' '));
      // Recorded as refused, so the request is settled without them rather than asked again.
      if (refused.length) grant.rejectResourceScope(indicator, refused.join(' '));
    }
    const expiresAt = addSeconds(clock.now(), grant.remainingTTL);
    const grantId = await grant.save();
    if (Object.keys(grant.resources ?? {}).length > 0) {
      await delegations.bind({ userId: accountId, grantId, clientId: params.client_id!, permissions: permissionsOf(grant.resources),
        organizationId: org?.organization.id ?? null, expiresAt, limits });
    }
    await p.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return null;
  }

  let handling: { provider: Provider; handler: ReturnType<Provider['callback']> } | undefined;
  /** The provider's Node request handler, for the current keys. */
  async function handler() {
    const p = await provider();
    if (handling?.provider !== p) handling = { provider: p, handler: p.callback() };
    return handling.handler;
  }

  return { methods, provider, handler, view, signIn, secondFactor, consent, afterCredentials, finishedElsewhere, refusalOf, csrfTokenFor, csrfMatches };
}

export type OauthService = ReturnType<typeof createOauthService>;
