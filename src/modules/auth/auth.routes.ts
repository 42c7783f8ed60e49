import { AppError } from '../../core/errors.js';
import { userAuthOf } from '../../http/guards/index.js';
import { createRefreshCookie } from '../../http/refresh-cookie.js';
import { metaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { MessageResponse } from '../../http/schema.js';
import { isValidEmail, normalizeEmail, phoneFromParts } from '../users/contact.js';
import {
  LoginEmailBody, LoginPhoneBody, LogoutAllResponse, LogoutBody, RegisterBody, RegisterResponse, TokenResponse,
} from './auth.schemas.js';
import { refreshAnswer, refreshRouteOptions } from './refresh-endpoint.js';

const LOGIN_LIMITS = [{ max: 5, per: 'minute' }, { max: 20, per: 'hour' }] as const;

/** Registration, password logins, refresh and logout (docs/authentication.md). */
export default async function authRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { login, registration, sessions } = container.services;
  const cookie = createRefreshCookie(container.config);
  const loginLimit = guards.rateLimit('login', [...LOGIN_LIMITS]);

  app.post('/register/', {
    schema: { tags: ['auth'], body: RegisterBody, response: { 201: RegisterResponse } },
    onRequest: [guards.rateLimit('register', [{ max: 3, per: 'hour' }, { max: 10, per: 'day' }])],
  }, async (req, reply) => {
    const body = await registration.register(req.body, metaOf(req, 'register'));
    return reply.code(201).send(cookie.withCookie(reply, body));
  });

  app.post('/login/email/', {
    schema: { tags: ['auth'], body: LoginEmailBody, response: { 200: TokenResponse } },
    onRequest: [loginLimit],
  }, async (req, reply) => {
    const { email, password, totp_code, device_info } = req.body;
    const normalized = normalizeEmail(email);
    if (!isValidEmail(normalized)) throw AppError.validation({ email: ['Enter a valid email address.'] });
    return cookie.withCookie(reply, await login.loginWithPassword({ by: { email: normalized }, password, totp_code, device_info }, metaOf(req)));
  });

  app.post('/login/phone/', {
    schema: { tags: ['auth'], body: LoginPhoneBody, response: { 200: TokenResponse } },
    onRequest: [loginLimit],
  }, async (req, reply) => {
    const b = req.body;
    const parsed = phoneFromParts(b.phone_country_code, b.phone_number);
    if (parsed.errors) throw AppError.validation(parsed.errors);
    return cookie.withCookie(reply, await login.loginWithPassword(
      { by: { phone: parsed.phone }, password: b.password, totp_code: b.totp_code, device_info: b.device_info }, metaOf(req)));
  });

  app.post('/refresh/', refreshRouteOptions(guards), async (req, reply) => {
    const raw = cookie.read(req, req.body.refresh_token);
    if (!raw) throw new AppError('MISSING_REFRESH_TOKEN');
    return refreshAnswer(sessions, cookie, req, reply, raw);
  });

  app.post('/logout/', {
    schema: { tags: ['auth'], body: LogoutBody, response: { 200: MessageResponse } },
    onRequest: [guards.user({ optional: true, scopes: ['full', 'password_change_only', '2fa_setup_only', 'deletion_pending'] })],
  }, async (req, reply) => {
    const raw = cookie.read(req, req.body.refresh_token);
    // The scopes whose sessions are given no refresh token: the bearer session itself is what ends.
    if (!raw && (req.auth?.claims.scope === 'deletion_pending' || req.auth?.claims.scope === '2fa_setup_only')) {
      await container.services.logout.logoutBearerSession(req.auth, metaOf(req));
      return { message: 'Logged out successfully' };
    }
    if (!raw) throw new AppError('MISSING_REFRESH_TOKEN');
    await container.services.logout.logout(raw, req.auth, metaOf(req));
    if (cookie.enabledFor(req.application)) cookie.clear(reply);
    return { message: 'Logged out successfully' };
  });

  app.post('/logout/all/', {
    schema: { tags: ['auth'], response: { 200: LogoutAllResponse } },
    onRequest: [guards.user({ scopes: ['full', 'password_change_only'] })],
  }, async (req, reply) => {
    const devices = await container.services.logout.logoutAll(userAuthOf(req), metaOf(req));
    if (cookie.enabledFor(req.application)) cookie.clear(reply);
    return { message: `Logged out from ${devices} device${devices === 1 ? '' : 's'}`, devices_logged_out: devices };
  });
}
