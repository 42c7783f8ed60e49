import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { AppError } from '../../core/errors.js';
import type { LoginMeta } from '../auth/login.service.js';
import type { PasskeyAuthenticationService } from '../passkeys/authentication.service.js';
import type { SocialBrowserService } from '../social/social-browser.service.js';
import type { InteractionView, OauthService } from './oauth.service.js';
import type { Refusal } from './pages.js';

type Deps = {
  oauth: Pick<OauthService, 'provider' | 'view' | 'afterCredentials' | 'finishedElsewhere'>;
  socialBrowser: Pick<SocialBrowserService, 'startForInteraction' | 'finishForInteraction'>;
  passkeys: Pick<PasskeyAuthenticationService, 'begin' | 'completeForProvider'>;
  /** Gatehouse's callback for a provider's sign-in started on these pages (registered at the provider). */
  callbackUrl: (provider: string) => string;
};

type Req = IncomingMessage;
type Res = ServerResponse;

/** A refusal on these pages: the lock and the rate limit as themselves, anything else as the method's failure. */
const refusalOf = (code: string, failure: Refusal): Refusal => (code === 'ACCOUNT_LOCKED' || code === 'RATE_LIMITED' ? code : failure);

/**
 * The sign-in page's other ways in (docs/oauth.md "Sign-in and consent"): a passkey (the page's script runs the
 * ceremony; the assertion is posted like any form) and the configured social providers (the browser goes to the
 * provider and comes back to Gatehouse's callback, which finishes the interaction it started from). Both run every
 * check of a password login and end like it: the code page for an account with 2FA a provider signed in, consent next.
 */
export function createOauthSignInMethods({ oauth, socialBrowser, passkeys, callbackUrl }: Deps) {
  /** The interaction of this browser, still at its sign-in step: else 400 (nothing to sign in to). */
  async function signInStep(req: Req, res: Res) {
    const details = await (await oauth.provider()).interactionDetails(req, res);
    if (details.prompt.name !== 'login') throw new AppError('VALIDATION_ERROR');
    return details;
  }

  /** The options of a passkey ceremony (resident-key mode: the authenticator names the account). */
  async function passkeyOptions(req: Req, res: Res) {
    await signInStep(req, res);
    return passkeys.begin(undefined, null);
  }

  /** The assertion the page's script posted: the account it proves signs in, or the page again saying why not. */
  async function passkeySignIn(req: Req, res: Res, credential: string, meta: LoginMeta): Promise<InteractionView | null> {
    await signInStep(req, res);
    let parsed: AuthenticationResponseJSON;
    try {
      parsed = JSON.parse(credential) as AuthenticationResponseJSON;
      if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
    } catch {
      return oauth.view(req, res, { refusal: 'PASSKEY_FAILED' });
    }
    try {
      return await oauth.afterCredentials(req, res, await passkeys.completeForProvider(parsed, meta), meta.method);
    } catch (err) {
      if (err instanceof AppError) return oauth.view(req, res, { refusal: refusalOf(err.code, 'PASSKEY_FAILED') });
      throw err;
    }
  }

  /** Sends the browser to the provider for the interaction under way: its URL and the state cookie to set. */
  async function socialStart(req: Req, res: Res, provider: string) {
    const details = await signInStep(req, res);
    return socialBrowser.startForInteraction(provider, details.uid, callbackUrl(provider));
  }

  /** The provider's answer: where the browser goes next (consent, the code page, or the sign-in page saying why not). */
  async function socialFinish(provider: string, query: { code?: string; state?: string; error?: string }, cookie: string | undefined,
    meta: Omit<LoginMeta, 'method'>): Promise<string> {
    const done = await socialBrowser.finishForInteraction(provider, query, cookie, callbackUrl(provider), meta);
    if ('refused' in done) return oauth.finishedElsewhere(done.uid, { refused: refusalOf(done.refused, 'SOCIAL_FAILED') }, done.method);
    return oauth.finishedElsewhere(done.uid, done, done.method);
  }

  return { passkeyOptions, passkeySignIn, socialStart, socialFinish };
}

export type OauthSignInMethods = ReturnType<typeof createOauthSignInMethods>;
