/**
 * The sign-in, second-factor, consent and error pages of the authorization server (docs/oauth.md "Sign-in and consent"):
 * plain HTML forms that work without JavaScript, in English and French, every value escaped. Field and button names are
 * a contract: `email`, `password`, `totp_code`, `csrf_token`, and `decision` = `approve` | `deny`.
 */
export type PageLanguage = 'en' | 'fr';

const TEXT = {
  en: {
    signInTitle: 'Sign in', signInTo: 'to continue to', email: 'Email', password: 'Password', signIn: 'Sign in',
    totpTitle: 'Two-step verification', totpCode: 'Authentication or backup code', verify: 'Verify',
    consentTitle: 'Allow access?', wantsAccess: 'wants to access your account.', redirectsTo: 'You will be sent back to',
    unverified: 'Unverified application', approve: 'Allow', deny: 'Deny', signedInAs: 'Signed in as',
    errorTitle: 'Something went wrong',
    logoutTitle: 'Sign out?', logoutFrom: 'Do you want to sign out from', logoutYes: 'Yes, sign me out', logoutNo: 'No, stay signed in',
    loggedOutTitle: 'Signed out', loggedOut: 'You are signed out.',
    refusals: {
      LOGIN_FAILED: 'The email or password is wrong.',
      ACCOUNT_LOCKED: 'This account is locked after too many failed attempts. Try again later.',
      INVALID_CODE: 'That code is not valid.',
      admin_2fa_setup_required: 'Administrator accounts must set up two-factor authentication before signing in here.',
      password_change_required: 'Your password must be changed before you can sign in here.',
      deletion_pending: 'This account is scheduled for deletion.',
      RATE_LIMITED: 'Too many attempts. Try again later.',
      INVALID_LIMITS: 'Choose one of the lifetimes and rates offered, and a spending limit in dollars (up to 1,000,000), or none.',
      SOCIAL_FAILED: 'Signing in with that provider did not succeed.',
      PASSKEY_FAILED: 'That passkey could not sign you in.',
    },
    or: 'Or', passkey: 'Sign in with a passkey', continueWith: (provider: string) => `Continue with ${provider}`,
    limitsTitle: 'Limits for this application', lifetime: 'Access lasts', rate: 'Requests per minute, at most',
    budget: 'Spending limit in US dollars (optional)', hours: (n: number) => (n === 1 ? '1 hour' : n < 24 ? `${n} hours` : n === 24 ? '1 day' : `${n / 24} days`),
    orgScope: (slug: string) => `Act in the organization ${slug}`, permissionScope: (code: string) => `Use the permission ${code}`,
    scopes: {
      openid: 'Know who you are', profile: 'See your name', email: 'See your email address', phone: 'See your phone number',
      offline_access: 'Keep access while you are away',
    } as Record<string, string>,
  },
  fr: {
    signInTitle: 'Connexion', signInTo: 'pour continuer vers', email: 'Adresse e-mail', password: 'Mot de passe', signIn: 'Se connecter',
    totpTitle: 'Vérification en deux étapes', totpCode: 'Code d\u2019authentification ou de secours', verify: 'Vérifier',
    consentTitle: 'Autoriser l\u2019accès ?', wantsAccess: 'souhaite accéder à votre compte.', redirectsTo: 'Vous serez renvoyé vers',
    unverified: 'Application non vérifiée', approve: 'Autoriser', deny: 'Refuser', signedInAs: 'Connecté en tant que',
    errorTitle: 'Une erreur est survenue',
    logoutTitle: 'Se déconnecter ?', logoutFrom: 'Voulez-vous vous déconnecter de', logoutYes: 'Oui, me déconnecter',
    logoutNo: 'Non, rester connecté', loggedOutTitle: 'Déconnecté', loggedOut: 'Vous êtes déconnecté.',
    refusals: {
      LOGIN_FAILED: 'L\u2019adresse e-mail ou le mot de passe est incorrect.',
      ACCOUNT_LOCKED: 'Ce compte est verrouillé après trop d\u2019échecs. Réessayez plus tard.',
      INVALID_CODE: 'Ce code n\u2019est pas valide.',
      admin_2fa_setup_required: 'Les comptes administrateurs doivent activer la double authentification avant de se connecter ici.',
      password_change_required: 'Vous devez changer votre mot de passe avant de vous connecter ici.',
      deletion_pending: 'La suppression de ce compte est programmée.',
      RATE_LIMITED: 'Trop de tentatives. Réessayez plus tard.',
      INVALID_LIMITS: 'Choisissez une des durées et cadences proposées, et un plafond de dépenses en dollars (jusqu\u2019à 1 000 000), ou aucun.',
      SOCIAL_FAILED: 'La connexion avec ce fournisseur n\u2019a pas abouti.',
      PASSKEY_FAILED: 'Cette clé d\u2019accès n\u2019a pas permis de vous connecter.',
    },
    or: 'Ou', passkey: 'Se connecter avec une clé d\u2019accès', continueWith: (provider: string) => `Continuer avec ${provider}`,
    limitsTitle: 'Limites pour cette application', lifetime: 'Durée de l\u2019accès', rate: 'Requêtes par minute, au plus',
    budget: 'Plafond de dépenses en dollars US (facultatif)',
    hours: (n: number) => (n === 1 ? '1 heure' : n < 24 ? `${n} heures` : n === 24 ? '1 jour' : `${n / 24} jours`),
    orgScope: (slug: string) => `Agir dans l\u2019organisation ${slug}`, permissionScope: (code: string) => `Utiliser la permission ${code}`,
    scopes: {
      openid: 'Savoir qui vous êtes', profile: 'Voir votre nom', email: 'Voir votre adresse e-mail',
      phone: 'Voir votre numéro de téléphone', offline_access: 'Garder l\u2019accès en votre absence',
    } as Record<string, string>,
  },
} as const;

export type Refusal = keyof (typeof TEXT)['en']['refusals'];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;' };
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** French for `fr`, `fr-CA`…, first in `ui_locales`, else first in `Accept-Language`; English otherwise. */
export function pageLanguage(uiLocales: string | undefined, acceptLanguage: string | undefined): PageLanguage {
  const first = (uiLocales?.split(' ')[0] || acceptLanguage?.split(',')[0] || '').trim().toLowerCase();
  return first === 'fr' || first.startsWith('fr-') || first.startsWith('fr;') ? 'fr' : 'en';
}

/** The stylesheet every page links (served by the interaction routes, so the CSP needs no inline style). */
export const PAGE_CSS = `body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin:.75rem 0 .25rem}input[type=email],input[type=password],input[type=text],select{width:100%;padding:.5rem;box-sizing:border-box}
fieldset{margin:1rem 0;border:1px solid #ccc}
button{margin:1rem .5rem 0 0;padding:.5rem 1rem}.error{color:#a40000}.unverified{color:#8a4b00;font-weight:bold}ul{padding-left:1.2rem}`;
export const PAGE_CSS_PATH = '/oauth/pages.css';
export const PASSKEY_SCRIPT_PATH = '/oauth/passkey.js';

function page(lang: PageLanguage, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>${escapeHtml(title)}</title><link rel="stylesheet" href="${PAGE_CSS_PATH}"></head><body><main>`
    + `<h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

const refusalOf = (lang: PageLanguage, refusal: Refusal | undefined) =>
  (refusal ? `<p class="error" role="alert">${escapeHtml(TEXT[lang].refusals[refusal])}</p>` : '');
const csrfField = (token: string) => `<input type="hidden" name="csrf_token" value="${escapeHtml(token)}">`;

export interface FormPage {
  lang: PageLanguage;
  action: string;
  csrfToken: string;
  clientName: string;
  refusal?: Refusal | undefined;
}

/** The other ways in the sign-in page offers: where a passkey's options are asked and its assertion posted, the providers' links. */
export interface SignInAlternatives {
  passkey?: { optionsAction: string; action: string } | undefined;
  social: { name: string; href: string }[];
}

/** A provider's name as people know it: `google` → Google. */
const providerLabel = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

function alternatives(lang: PageLanguage, csrfToken: string, a: SignInAlternatives): string {
  const t = TEXT[lang];
  if (!a.passkey && a.social.length === 0) return '';
  // The passkey button is shown by the page's script only, where the browser can run the ceremony.
  const passkey = a.passkey ? `<form method="post" action="${escapeHtml(a.passkey.action)}" id="passkey-form">${csrfField(csrfToken)}`
    + '<input type="hidden" name="credential" value="">'
    + `<button type="button" id="passkey" data-options="${escapeHtml(a.passkey.optionsAction)}" hidden>${t.passkey}</button></form>`
    + `<script src="${PASSKEY_SCRIPT_PATH}" defer></script>` : '';
  const social = a.social.map((p) => `<li><a href="${escapeHtml(p.href)}">${escapeHtml(t.continueWith(providerLabel(p.name)))}</a></li>`).join('');
  return `<section aria-label="${t.or}"><p>${t.or}</p>${passkey}${social ? `<ul class="providers">${social}</ul>` : ''}</section>`;
}

export function signInPage(p: FormPage & { email?: string | undefined; alternatives: SignInAlternatives }): string {
  const t = TEXT[p.lang];
  return page(p.lang, t.signInTitle, `<p>${escapeHtml(t.signInTo)} <strong>${escapeHtml(p.clientName)}</strong></p>${refusalOf(p.lang, p.refusal)}`
    + `<form method="post" action="${escapeHtml(p.action)}">${csrfField(p.csrfToken)}`
    + `<label for="email">${t.email}</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(p.email ?? '')}">`
    + `<label for="password">${t.password}</label><input id="password" name="password" type="password" autocomplete="current-password" required>`
    + `<button type="submit">${t.signIn}</button></form>${alternatives(p.lang, p.csrfToken, p.alternatives)}`);
}

export function totpPage(p: FormPage): string {
  const t = TEXT[p.lang];
  return page(p.lang, t.totpTitle, `${refusalOf(p.lang, p.refusal)}<form method="post" action="${escapeHtml(p.action)}">${csrfField(p.csrfToken)}`
    + `<label for="totp_code">${t.totpCode}</label><input id="totp_code" name="totp_code" type="text" inputmode="numeric" autocomplete="one-time-code" required>`
    + `<button type="submit">${t.verify}</button></form>`);
}

/** A scope in words: the OpenID ones by name, an organization by its slug, a permission by its code. */
function scopeWords(lang: PageLanguage, scope: string): string {
  const t = TEXT[lang];
  if (t.scopes[scope]) return t.scopes[scope]!;
  return scope.startsWith('org:') ? t.orgScope(scope.slice(4)) : t.permissionScope(scope);
}

/** The limits an agent client's grant gets, chosen by the person (docs/oauth.md "Consent"). */
export interface LimitFields {
  lifetimes: number[];
  rates: number[];
  lifetime: number;
  rate: number;
}

function limitsFieldset(lang: PageLanguage, l: LimitFields): string {
  const t = TEXT[lang];
  const option = (value: number, label: string, chosen: boolean) =>
    `<option value="${value}"${chosen ? ' selected' : ''}>${escapeHtml(label)}</option>`;
  const lifetimes = l.lifetimes.map((s) => option(s, s % 3600 === 0 ? t.hours(s / 3600) : `${s} s`, s === l.lifetime)).join('');
  const rates = l.rates.map((r) => option(r, String(r), r === l.rate)).join('');
  return `<fieldset><legend>${t.limitsTitle}</legend>`
    + `<label for="lifetime">${t.lifetime}</label><select id="lifetime" name="lifetime">${lifetimes}</select>`
    + `<label for="max_requests_per_minute">${t.rate}</label><select id="max_requests_per_minute" name="max_requests_per_minute">${rates}</select>`
    + `<label for="budget_limit_usd">${t.budget}</label><input id="budget_limit_usd" name="budget_limit_usd" type="text" inputmode="decimal">`
    + '</fieldset>';
}

export function consentPage(p: FormPage & { redirectHost: string; unverified: boolean; scopes: string[]; account: string;
  limits?: LimitFields | undefined }): string {
  const t = TEXT[p.lang];
  const scopes = p.scopes.map((s) => `<li>${escapeHtml(scopeWords(p.lang, s))}</li>`).join('');
  return page(p.lang, t.consentTitle, `<p><strong>${escapeHtml(p.clientName)}</strong> ${t.wantsAccess}</p>`
    + (p.unverified ? `<p class="unverified">${t.unverified}</p>` : '')
    + `<p>${t.signedInAs} ${escapeHtml(p.account)}</p><ul>${scopes}</ul>`
    + `<p>${t.redirectsTo} <strong>${escapeHtml(p.redirectHost)}</strong></p>${refusalOf(p.lang, p.refusal)}`
    + `<form method="post" action="${escapeHtml(p.action)}">${csrfField(p.csrfToken)}`
    + (p.limits ? limitsFieldset(p.lang, p.limits) : '')
    + `<button type="submit" name="decision" value="approve">${t.approve}</button>`
    + `<button type="submit" name="decision" value="deny">${t.deny}</button></form>`);
}

export function errorPage(lang: PageLanguage, error: string, description: string | undefined): string {
  const t = TEXT[lang];
  return page(lang, t.errorTitle, `<p class="error"><code>${escapeHtml(error)}</code></p>`
    + (description ? `<p>${escapeHtml(description)}</p>` : ''));
}

/** RP-initiated logout's question; `form` is the provider's hidden form (its CSRF field), which the buttons submit. */
export function logoutPage(lang: PageLanguage, host: string, form: string): string {
  const t = TEXT[lang];
  return page(lang, t.logoutTitle, `<p>${t.logoutFrom} <strong>${escapeHtml(host)}</strong>?</p>${form}`
    + `<button type="submit" form="op.logoutForm" value="yes" name="logout">${t.logoutYes}</button>`
    + `<button type="submit" form="op.logoutForm">${t.logoutNo}</button>`);
}

export function loggedOutPage(lang: PageLanguage): string {
  const t = TEXT[lang];
  return page(lang, t.loggedOutTitle, `<p>${t.loggedOut}</p>`);
}

/**
 * The Content-Security-Policy of every page; `formTargets` are the other origins a form may end at (after redirects);
 * `script` lets the page run its own script (the sign-in page's passkey ceremony) and call its own origin.
 */
export const pagePolicy = (formTargets: string[] = [], { script = false } = {}) => `default-src 'none'; style-src 'self'; img-src 'self'${
  script ? "; script-src 'self'; connect-src 'self'" : ''}; form-action 'self'${formTargets.map((o) => ` ${o}`).join('')}; `
  + 'frame-ancestors \'none\'; base-uri \'none\'';
