import { userAuthOf } from '../../http/guards/index.js';
import { createRefreshCookie } from '../../http/refresh-cookie.js';
import { metaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { AuthenticateBeginBody, AuthenticateCompleteBody, BeginResponse, PasskeyLoginResponse, RegisterBeginBody,
  RegisterCompleteBody, RegisterCompleteResponse } from './passkeys.schemas.js';

const tags = ['passkeys'];

/** docs/passkeys.md (docs/decisions.md "Passkeys"): the registration and sign-in ceremonies. */
export default async function passkeyRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { passkeyRegistration, passkeyAuthentication } = container.services;
  const cookie = createRefreshCookie(container.config);
  const enabled = guards.feature('WEBAUTHN_ENABLED');
  // An administrator held at the 2FA gate may register a passkey: signing in with it (verifying the person) passes the gate.
  const user = guards.user({ scopes: ['full', '2fa_setup_only'] });
  const signInLimit = guards.rateLimit('passkey_login', [{ max: 10, per: 'minute' }, { max: 60, per: 'hour' }]);
  const originsOf = (application: { allowed_origins: string[] } | null) => application?.allowed_origins ?? [];

  // Only a begin that passed the recent-authentication check issues a registration challenge, and complete accepts
  // nothing else: a stolen access token alone cannot add a passkey that outlives it.
  app.post('/webauthn/register/begin/', {
    schema: { tags, body: RegisterBeginBody, response: { 200: BeginResponse } }, onRequest: [enabled, user],
    preHandler: [guards.recentAuth()],
  }, async (req) => {
    const attachment = req.body?.authenticator_attachment;
    return passkeyRegistration.begin(userAuthOf(req).user, req.application?.id ?? null, attachment);
  });

  app.post('/webauthn/register/complete/', {
    schema: { tags, body: RegisterCompleteBody, response: { 201: RegisterCompleteResponse } }, onRequest: [enabled, user],
  }, async (req, reply) => {
    const credential = await passkeyRegistration.complete(userAuthOf(req).user.id, req.body,
      originsOf(req.application), metaOf(req));
    return reply.code(201).send({ message: 'Passkey registered', credential });
  });

  app.post('/webauthn/authenticate/begin/', {
    schema: { tags, body: AuthenticateBeginBody, response: { 200: BeginResponse } }, onRequest: [enabled, signInLimit],
  }, async (req) => {
    const email = req.body?.email;
    return passkeyAuthentication.begin(email === '' ? undefined : email, req.application?.id ?? null);
  });

  app.post('/webauthn/authenticate/complete/', {
    schema: { tags, body: AuthenticateCompleteBody, response: { 200: PasskeyLoginResponse } }, onRequest: [enabled, signInLimit],
  }, async (req, reply) => {
    const body = await passkeyAuthentication.complete(req.body, req.application?.id ?? null,
      originsOf(req.application), metaOf(req, 'passkey'));
    return cookie.withCookie(reply, body);
  });
}
