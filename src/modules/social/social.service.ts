import { resolveProvider, type SocialProviderConfig } from '../../config/social-providers.js';
import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { aliasField } from '../../core/aliases.js';
import type { Db } from '../../db/database.js';
import { sha256Hex } from '../../security/random.js';
import type { AppContext } from '../applications/applications.service.js';
import type { LoginMeta } from '../auth/sign-in.service.js';
import { providerRefusal } from './callback-refusal.js';
import { ProviderError, type ProviderIdentity } from './identity.js';
import type { OAuth2Client } from './oauth2-client.js';
import type { OidcClient } from './oidc-client.js';
import { consumeMfaToken } from './social-browser.repo.js';
import type { SocialLoginService } from './social-login.service.js';
import type { CallbackInput, SocialLoginInput } from './social.schemas.js';

type Deps = {
  db: Db; clock: Clock; config: Config; providers: Map<string, SocialProviderConfig>; oidc: OidcClient; oauth2: OAuth2Client; socialLogin: SocialLoginService;
  onProviderError?: (provider: string, reason: string) => void;
};

/** The social-login entry points: which provider, which proof, then the sign-in itself. */
export function createSocialService({ db, clock, config, providers, oidc, oauth2, socialLogin, onProviderError }: Deps) {
  /** The configured provider a path names (`provider_a` is google's alias); 400 `code` listing the configured ones. */
  function providerOf(segment: string, code: 'INVALID_PROVIDER' | 'PROVIDER_NOT_SUPPORTED' = 'INVALID_PROVIDER'): SocialProviderConfig {
    const provider = resolveProvider(providers, segment);
    if (!provider) throw new AppError(code, { extra: { supported_providers: [...providers.keys()] } });
    return provider;
  }

  /** The application's redirect URIs are the allow-list, exact match (docs/social-login.md). */
  function checkRedirectUri(application: AppContext | null, redirectUri: string): void {
    if (!application?.redirect_uris.includes(redirectUri)) throw new AppError('INVALID_REDIRECT_URI');
  }

  /** Runs a provider call; its failure answers `code` (401) and is reported by its reason only. */
  async function vouched(p: SocialProviderConfig, code: 'PROVIDER_AUTH_FAILED' | 'CODE_EXCHANGE_FAILED',
    call: () => Promise<ProviderIdentity>): Promise<ProviderIdentity> {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      onProviderError?.(p.name, err.reason);
      throw new AppError(code);
    }
  }

  /**
   * The identity a code proves. Its redirect URI is checked against the application's list first, except for the
   * browser flow's code, whose redirect URI is Gatehouse's own callback.
   */
  function identityOfCode(p: SocialProviderConfig, application: AppContext | null, x: { code: string; redirectUri: string;
    codeVerifier?: string | undefined; nonce?: string | undefined }, opts: { checkRedirect: boolean } = { checkRedirect: true }): Promise<ProviderIdentity> {
    if (opts.checkRedirect) checkRedirectUri(application, x.redirectUri);
    return vouched(p, 'CODE_EXCHANGE_FAILED', () => (p.kind === 'oidc' ? oidc : oauth2).exchangeCode(p, x));
  }

  /** POST social/<provider>/. */
  async function login(segment: string, input: SocialLoginInput, application: AppContext | null, meta: LoginMeta) {
    const p = providerOf(segment);
    if (input.mfa_token) {
      const row = await consumeMfaToken(db, sha256Hex(input.mfa_token), p.name, clock.now());
      // Redeemed through the application the browser flow ran for, like every token it leads to.
      if (!row || (config.APPLICATION_AUTH_ENABLED && row.application_id !== (application?.id ?? null))) throw new AppError('INVALID_TOKEN');
      return socialLogin.finishSecondFactor(p.name, row.user_id, input, { ...meta, method: `social_${p.name}` });
    }
    const code = aliasField(input, 'code', 'authorization_code');
    let identity: ProviderIdentity;
    if (code) {
      if (!input.redirect_uri) throw new AppError('MISSING_REDIRECT_URI');
      identity = await identityOfCode(p, application, { code, redirectUri: input.redirect_uri, codeVerifier: input.code_verifier });
    } else if (input.id_token) {
      const idToken = input.id_token;
      identity = await vouched(p, 'PROVIDER_AUTH_FAILED', async () => {
        if (p.kind !== 'oidc') throw new ProviderError('no_id_tokens');
        return oidc.verifyIdToken(p, idToken, input.nonce);
      });
    } else if (input.access_token) {
      const accessToken = input.access_token;
      // Only where the provider proves the token is ours (google, github, facebook); elsewhere use the code or the ID token.
      identity = await vouched(p, 'PROVIDER_AUTH_FAILED', () => (p.kind === 'oidc' ? oidc : oauth2).fromAccessToken(p, accessToken));
    } else {
      throw AppError.validation({ non_field_errors: ['Provide code with redirect_uri, access_token, or id_token.'] });
    }
    return socialLogin.signIn(p.name, identity, input, { ...meta, method: `social_${p.name}` });
  }

  /**
   * GET social/<provider>/callback/ with application headers: the code the application's redirect page forwards,
   * answered like the POST. A refusal at the provider (`error`) answers 400 CALLBACK_ERROR with what it said.
   */
  async function callback(segment: string, query: CallbackInput, application: AppContext | null, meta: LoginMeta) {
    providerOf(segment, 'PROVIDER_NOT_SUPPORTED');
    const refusal = providerRefusal(query);
    if (refusal) throw new AppError('CALLBACK_ERROR', { details: refusal });
    if (!query.code) throw new AppError('MISSING_CODE');
    if (!query.redirect_uri) throw new AppError('MISSING_REDIRECT_URI');
    return login(segment, { code: query.code, redirect_uri: query.redirect_uri, code_verifier: query.code_verifier }, application, meta);
  }

  return { providerOf, checkRedirectUri, identityOfCode, login, callback };
}

export type SocialService = ReturnType<typeof createSocialService>;
