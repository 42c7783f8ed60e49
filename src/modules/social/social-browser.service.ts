import * as oauth from 'openid-client';
import type { Config } from '../../config/settings.js';
import type { SocialProviderConfig } from '../../config/social-providers.js';
import { addSeconds, type Clock } from '../../core/clock.js';
import { AppError, isAppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { hashMatches, sha256Digest } from '../../security/compare.js';
import { newOpaqueToken, sha256Hex } from '../../security/random.js';
import type { Sealer } from '../../security/seal.js';
import type { ApplicationService } from '../applications/applications.service.js';
import type { LoginMeta, ProviderOutcome } from '../auth/sign-in.service.js';
import type { OAuth2Client } from './oauth2-client.js';
import type { OidcClient } from './oidc-client.js';
import * as repo from './social-browser.repo.js';
import type { SocialLoginService } from './social-login.service.js';
import type { SocialService } from './social.service.js';

type Deps = {
  db: Db; clock: Clock; config: Config; sealer: Sealer; applications: ApplicationService; social: SocialService;
  oidc: OidcClient; oauth2: OAuth2Client; socialLogin: SocialLoginService;
};

/** docs/social-login.md "The browser flow": a state lives 10 minutes; a second-factor hand-over 5. */
const STATE_LIFETIME = 600;
const MFA_TOKEN_LIFETIME = 300;

/** How a sign-in started on the authorization server's page came back: the interaction, and the account or the refusal. */
export type InteractionSignIn = { uid: string; method: string }
  & ({ refused: string } | { user: { id: number }; identifier: string; outcome: ProviderOutcome });

/** Where the browser goes next: the provider, or back to the application with tokens or an error. */
export interface Redirect {
  location: string;
  /** The state cookie to set on the way to the provider. */
  cookie?: string;
  /**
   * A public application's refresh token, for the HttpOnly refresh cookie: it never travels in the redirect, where page
   * script would read it (docs/decisions.md "Public applications").
   */
  refreshCookie?: { raw: string; maxAge: number };
}

/**
 * The browser flow: `authorize/` sends the browser to the provider with a single-use state (holding the application,
 * its redirect URI, the PKCE S256 verifier and the OpenID nonce server-side) and a cookie bound to it; `callback/`
 * takes the state back only from the browser holding that cookie (login CSRF, RFC 9700 §4.7), signs the person in and
 * sends the browser back to the application with the tokens, or `error=<CODE>`.
 */
export function createSocialBrowserService(deps: Deps) {
  const { db, clock, config, sealer, applications, social, oidc, oauth2, socialLogin } = deps;

  /**
   * A single-use state for the way to the provider and back, bound to a cookie for the browser, holding where the
   * sign-in goes back to; answers the provider's authorization URL and the cookie.
   */
  async function toProvider(p: SocialProviderConfig, destination: { application_id: number; redirect_uri: string; oauth_interaction: null }
    | { application_id: null; redirect_uri: null; oauth_interaction: string }, callbackUrl: string) {
    const state = newOpaqueToken(32);
    const cookie = newOpaqueToken(32);
    const verifier = oauth.randomPKCECodeVerifier();
    const codeChallenge = await oauth.calculatePKCECodeChallenge(verifier);
    const nonce = p.kind === 'oidc' ? oauth.randomNonce() : null;
    const now = clock.now();
    await repo.insertState(db, { state_hash: state.hash, cookie_hash: cookie.hash, provider: p.name, ...destination,
      code_verifier_sealed: sealer.seal(verifier), nonce, expires_at: addSeconds(now, STATE_LIFETIME), created_at: now });
    const target = { redirectUri: callbackUrl, state: state.raw, codeChallenge };
    let location: URL;
    try {
      location = p.kind === 'oidc' ? await oidc.authorizationUrl(p, { ...target, nonce: nonce! }) : oauth2.authorizationUrl(p, target);
    } catch {
      throw new AppError('PROVIDER_AUTH_FAILED');
    }
    return { location: location.toString(), cookie: cookie.raw };
  }

  /**
   * The state the provider sent back, consumed, if this browser started it for this provider (login CSRF, RFC 9700
   * §4.7): else 400 CALLBACK_ERROR.
   */
  async function takeState(p: SocialProviderConfig, state: string | undefined, cookieValue: string | undefined) {
    if (!state) throw new AppError('CALLBACK_ERROR', { details: { reason: 'missing_state' } });
    const row = await repo.consumeState(db, sha256Hex(state), clock.now());
    // A state issued for another provider, replayed, expired, forged, or brought by a browser that did not start it.
    if (!row || row.provider !== p.name || !cookieValue || !hashMatches(cookieValue, sha256Digest(row.cookie_hash))) {
      throw new AppError('CALLBACK_ERROR', { details: { reason: 'invalid_state' } });
    }
    return row;
  }

  /** GET social/<provider>/authorize/. */
  async function start(segment: string, accessKey: string | undefined, redirectUri: string | undefined, callbackUrl: (name: string) => string) {
    const p = social.providerOf(segment);
    if (!redirectUri) throw new AppError('MISSING_REDIRECT_URI');
    const application = accessKey ? await applications.byAccessKey(accessKey) : null;
    if (!application) throw new AppError('APP_AUTH_INVALID');
    social.checkRedirectUri(application, redirectUri);
    return toProvider(p, { application_id: application.id, redirect_uri: redirectUri, oauth_interaction: null }, callbackUrl(p.name));
  }

  /** The provider's sign-in offered on the authorization server's page, for the interaction `uid` (docs/oauth.md). */
  async function startForInteraction(name: string, uid: string, callbackUrl: string) {
    return toProvider(social.providerOf(name), { application_id: null, redirect_uri: null, oauth_interaction: uid }, callbackUrl);
  }

  /**
   * The provider's answer to a sign-in started on the authorization server's page: the interaction it finishes and,
   * once the provider vouched for the person, how their sign-in ends there. A refusal by the provider or of the
   * account is answered as its code.
   */
  async function finishForInteraction(name: string, query: { code?: string | undefined; state?: string | undefined; error?: string | undefined },
    cookieValue: string | undefined, callbackUrl: string, meta: Omit<LoginMeta, 'method'>): Promise<InteractionSignIn> {
    const p = social.providerOf(name, 'PROVIDER_NOT_SUPPORTED');
    const row = await takeState(p, query.state, cookieValue);
    if (!row.oauth_interaction) throw new AppError('CALLBACK_ERROR', { details: { reason: 'invalid_state' } });
    const uid = row.oauth_interaction;
    const method = `social_${p.name}`;
    if (query.error || !query.code) return { uid, method, refused: query.error ? 'CALLBACK_ERROR' : 'MISSING_CODE' };
    try {
      const identity = await social.identityOfCode(p, null, { code: query.code, redirectUri: callbackUrl,
        codeVerifier: sealer.open(row.code_verifier_sealed), nonce: row.nonce ?? undefined }, { checkRedirect: false });
      return { uid, method, ...await socialLogin.signInForProvider(p.name, identity, { ...meta, method }) };
    } catch (err) {
      if (isAppError(err)) return { uid, method, refused: err.code };
      throw err;
    }
  }

  /** `redirectUri` with `params` in its query, or in its fragment when SVC_SOCIAL_CALLBACK_TOKENS_IN_FRAGMENT is on. */
  function back(redirectUri: string, params: Record<string, string>, tokens: boolean): Redirect {
    const url = new URL(redirectUri);
    if (tokens && config.SOCIAL_CALLBACK_TOKENS_IN_FRAGMENT) {
      url.hash = new URLSearchParams(params).toString();
    } else {
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    }
    return { location: url.toString() };
  }

  /** GET social/<provider>/callback/ in the browser: the state and its cookie, then the code. */
  async function finish(segment: string, query: { code?: string | undefined; state?: string | undefined; error?: string | undefined },
    cookieValue: string | undefined, callbackUrl: (name: string) => string, meta: Omit<LoginMeta, 'applicationId' | 'method'>): Promise<Redirect> {
    const p = social.providerOf(segment, 'PROVIDER_NOT_SUPPORTED');
    const row = await takeState(p, query.state, cookieValue);
    // A state issued for the authorization server's page finishes there only.
    if (row.application_id === null || row.redirect_uri === null) throw new AppError('CALLBACK_ERROR', { details: { reason: 'invalid_state' } });
    const redirectUri = row.redirect_uri;
    const application = await applications.byId(row.application_id);
    if (!application || !application.redirect_uris.includes(redirectUri)) throw new AppError('INVALID_REDIRECT_URI');
    const fail = (code: string) => back(redirectUri, { error: code }, false);
    if (query.error) return fail('CALLBACK_ERROR');
    if (!query.code) return fail('MISSING_CODE');
    const loginMeta: LoginMeta = { ...meta, applicationId: application.id, method: `social_${p.name}` };
    const applicationId = application.id;
    try {
      const identity = await social.identityOfCode(p, application, { code: query.code, redirectUri: callbackUrl(p.name),
        codeVerifier: sealer.open(row.code_verifier_sealed), nonce: row.nonce ?? undefined }, { checkRedirect: false });
      const outcome = await socialLogin.signInFromRedirect(p.name, identity, loginMeta);
      if ('secondFactorFor' in outcome) {
        const token = newOpaqueToken(32);
        await repo.insertMfaToken(db, { token_hash: token.hash, user_id: outcome.secondFactorFor!, provider: p.name,
          application_id: applicationId, expires_at: addSeconds(clock.now(), MFA_TOKEN_LIFETIME) });
        return back(redirectUri, { error: '2FA_REQUIRED', mfa_token: token.raw }, true);
      }
      const t = outcome.tokens as { access_token: string; refresh_token?: string; token_type: string; expires_in: number;
        refresh_expires_in?: number };
      const inCookie = application.kind === 'public' && t.refresh_token !== undefined;
      const to = back(redirectUri, { access_token: t.access_token,
        ...(t.refresh_token && !inCookie ? { refresh_token: t.refresh_token } : {}),
        token_type: t.token_type, expires_in: String(t.expires_in) }, true);
      return inCookie
        ? { ...to, refreshCookie: { raw: t.refresh_token!, maxAge: t.refresh_expires_in ?? config.JWT_REFRESH_TOKEN_LIFETIME } } : to;
    } catch (err) {
      if (isAppError(err)) return fail(err.code);
      throw err;
    }
  }

  return { start, finish, startForInteraction, finishForInteraction };
}

export type SocialBrowserService = ReturnType<typeof createSocialBrowserService>;
