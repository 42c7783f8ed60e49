import { MAX_USER_TEXT, plainLine } from './plain-line.js';

/**
 * Message templates (subject, text and HTML) in English and French, chosen by the user's `language`
 * (`fr`, `fr-CA`… → French; anything else → English).
 */
export type Purpose = 'otp' | 'password_reset' | 'magic_link' | 'invitation' | 'security_alert' | 'password_revoked'
  | 'deletion_confirmation' | 'deletion_confirmed' | 'deletion_cancelled' | 'deletion_completed'
  | 'passkey_added' | 'two_factor_disabled' | 'two_factor_reset' | 'agent_token_created';
export const PURPOSES: readonly Purpose[] = ['otp', 'password_reset', 'magic_link', 'invitation', 'security_alert',
  'password_revoked', 'deletion_confirmation', 'deletion_confirmed', 'deletion_cancelled', 'deletion_completed',
  'passkey_added', 'two_factor_disabled', 'two_factor_reset', 'agent_token_created'];
export type Language = 'en' | 'fr';

/** Template variables. Every value is plain text; HTML escaping happens here, never in callers. */
export interface TemplateVars {
  code?: string;
  link?: string;
  minutes?: number;
  organization?: string;
  /** The inviter's name, and the address the invitation came from (docs/organizations.md). */
  inviter?: string;
  inviter_email?: string;
  /** An invitation's role and lifetime, and its token when there is no link to carry it. */
  role?: string;
  days?: number;
  token?: string;
  event?: string;
  date?: string;
  /** A deletion request's cancellation reference (not a credential). */
  reference?: string;
  app?: string;
  /** The address a sign-in proved (`password_revoked`). */
  proven?: 'email' | 'phone';
  /** An agent token's agent name (text its creator chose), its granted permission codes and its expiry. */
  agent?: string;
  permissions?: string;
  expires?: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

interface Copy {
  subject: (v: TemplateVars) => string;
  /** Paragraphs of the body; the link, when there is one, is added as a button in HTML. */
  lines: (v: TemplateVars) => string[];
  sms?: (v: TemplateVars) => string;
}

const m = (v: TemplateVars) => v.minutes ?? 10;

/** Who invites: name and address; the address alone; or, in a message queued before addresses were named, the name. */
const inviterOf = (v: TemplateVars, someone: string) =>
  (v.inviter && v.inviter_email ? `${v.inviter} (${v.inviter_email})` : v.inviter_email ?? v.inviter) || someone;

const COPY: Record<Purpose, Record<Language, Copy>> = {
  otp: {
    en: {
      subject: (v) => `Your verification code: ${v.code}`,
      lines: (v) => [`Your verification code is ${v.code}.`, `It expires in ${m(v)} minutes. If you did not ask for it, ignore this message.`],
      sms: (v) => `Your verification code is ${v.code}. It expires in ${m(v)} minutes.`,
    },
    fr: {
      subject: (v) => `Votre code de vérification : ${v.code}`,
      lines: (v) => [`Votre code de vérification est ${v.code}.`, `Il expire dans ${m(v)} minutes. Si vous ne l'avez pas demandé, ignorez ce message.`],
      sms: (v) => `Votre code de vérification est ${v.code}. Il expire dans ${m(v)} minutes.`,
    },
  },
  password_reset: {
    en: {
      subject: () => 'Reset your password',
      lines: (v) => [`Someone asked to reset your password. Your reset code is ${v.code}.`, `It expires in ${m(v)} minutes. If it was not you, ignore this message: your password stays unchanged.`],
      sms: (v) => `Your password reset code is ${v.code}. It expires in ${m(v)} minutes.`,
    },
    fr: {
      subject: () => 'Réinitialisez votre mot de passe',
      lines: (v) => [`Une réinitialisation de votre mot de passe a été demandée. Votre code est ${v.code}.`, `Il expire dans ${m(v)} minutes. Si ce n'était pas vous, ignorez ce message : votre mot de passe reste inchangé.`],
      sms: (v) => `Votre code de réinitialisation est ${v.code}. Il expire dans ${m(v)} minutes.`,
    },
  },
  magic_link: {
    en: {
      subject: () => 'Your sign-in link',
      lines: (v) => ['Use this link to sign in. It works once.', `It expires in ${m(v)} minutes. If you did not ask for it, ignore this message.`],
    },
    fr: {
      subject: () => 'Votre lien de connexion',
      lines: (v) => ['Utilisez ce lien pour vous connecter. Il ne fonctionne qu\'une fois.', `Il expire dans ${m(v)} minutes. Si vous ne l'avez pas demandé, ignorez ce message.`],
    },
  },
  invitation: {
    en: {
      subject: (v) => `You are invited to join ${v.organization}`,
      lines: (v) => [
        `${inviterOf(v, 'A member')} invited you to join ${v.organization}${v.role ? ` as ${v.role}` : ''}.`,
        ...(v.token
          ? [`Your invitation token: ${v.token}`, 'To accept, sign in and enter this token where the application asks for it (it sends it to organizations/invitations/accept/).']
          : ['Use the link below to accept the invitation.']),
        'Signing in with this email address, once it is verified, also accepts it.',
        `It expires in ${v.days ?? 7} days. If you did not expect it, ignore this message.`,
      ],
    },
    fr: {
      subject: (v) => `Vous êtes invité à rejoindre ${v.organization}`,
      lines: (v) => [
        `${inviterOf(v, 'Un membre')} vous invite à rejoindre ${v.organization}${v.role ? ` en tant que ${v.role}` : ''}.`,
        ...(v.token
          ? [`Votre jeton d'invitation : ${v.token}`, 'Pour accepter, connectez-vous et saisissez ce jeton là où l\'application le demande (elle l\'envoie à organizations/invitations/accept/).']
          : ['Utilisez le lien ci-dessous pour accepter l\'invitation.']),
        'Vous connecter avec cette adresse e-mail, une fois vérifiée, l\'accepte aussi.',
        `Elle expire dans ${v.days ?? 7} jours. Si vous ne l'attendiez pas, ignorez ce message.`,
      ],
    },
  },
  security_alert: {
    en: {
      subject: () => 'Security alert on your account',
      lines: (v) => [`We noticed this on your account: ${v.event}.`, `When: ${v.date}. If it was not you, change your password and sign out of every device.`],
    },
    fr: {
      subject: () => 'Alerte de sécurité sur votre compte',
      lines: (v) => [`Nous avons remarqué ceci sur votre compte : ${v.event}.`, `Quand : ${v.date}. Si ce n'était pas vous, changez votre mot de passe et déconnectez tous vos appareils.`],
    },
  },
  // No secret: it says what happened and how to get a password back, and goes to the address just proven.
  password_revoked: {
    en: {
      subject: () => 'The password of your account was removed',
      lines: (v) => [
        `You signed in with ${v.proven === 'phone' ? 'a code sent to your phone number' : 'a link sent to your email address'}, which this account had not verified until now. The password set on the account before, possibly by someone else, was removed, and every other session of the account was signed out.`,
        'To sign in with a password again, set one: with a code sent to your phone (password/set-initial/), or with a password reset.',
      ],
      sms: () => 'A password set on your account before this number was verified was removed and your other sessions signed out. To use a password, set one (password/set-initial/) or reset it.',
    },
    fr: {
      subject: () => 'Le mot de passe de votre compte a été supprimé',
      lines: (v) => [
        `Vous vous êtes connecté avec ${v.proven === 'phone' ? 'un code envoyé à votre numéro de téléphone' : 'un lien envoyé à votre adresse e-mail'}, que ce compte n'avait pas encore vérifié. Le mot de passe défini auparavant sur le compte, peut-être par quelqu'un d'autre, a été supprimé, et toutes les autres sessions du compte ont été fermées.`,
        'Pour vous connecter de nouveau avec un mot de passe, définissez-en un : avec un code envoyé à votre téléphone (password/set-initial/), ou par une réinitialisation du mot de passe.',
      ],
      sms: () => 'Un mot de passe défini sur votre compte avant la vérification de ce numéro a été supprimé et vos autres sessions fermées. Pour utiliser un mot de passe, définissez-en un (password/set-initial/) ou réinitialisez-le.',
    },
  },
  deletion_confirmation: {
    en: {
      subject: () => 'Confirm the deletion of your account',
      lines: (v) => [
        'Someone asked to delete your account. To confirm, send this confirmation token to the confirmation page of the application:',
        `${v.token}`,
        `It expires in ${v.minutes ?? 1440} minutes. Once confirmed, your account is deactivated and deleted after ${v.days} days; until then you can cancel.`,
        `Request reference: ${v.reference}. If it was not you, change your password: the request stays unconfirmed and expires.`,
      ],
    },
    fr: {
      subject: () => 'Confirmez la suppression de votre compte',
      lines: (v) => [
        "Quelqu'un a demandé la suppression de votre compte. Pour confirmer, transmettez ce jeton de confirmation à la page de confirmation de l'application :",
        `${v.token}`,
        `Il expire dans ${v.minutes ?? 1440} minutes. Une fois confirmée, votre compte est désactivé puis supprimé au bout de ${v.days} jours ; d'ici là vous pouvez annuler.`,
        `Référence de la demande : ${v.reference}. Si ce n'était pas vous, changez votre mot de passe : la demande reste non confirmée et expire.`,
      ],
    },
  },
  deletion_confirmed: {
    en: {
      subject: () => 'Your account will be deleted',
      lines: (v) => [
        `Your account deletion is confirmed. Your account is deactivated; the grace period ends ${v.date}, and your data is then anonymized.`,
        `Until then you can sign in and cancel the deletion. Request reference: ${v.reference}.`,
      ],
    },
    fr: {
      subject: () => 'Votre compte va être supprimé',
      lines: (v) => [
        `La suppression de votre compte est confirmée. Votre compte est désactivé ; le délai de grâce se termine le ${v.date}, puis vos données sont anonymisées.`,
        `D'ici là vous pouvez vous connecter et annuler la suppression. Référence de la demande : ${v.reference}.`,
      ],
    },
  },
  deletion_cancelled: {
    en: {
      subject: () => 'Your account deletion is cancelled',
      lines: (v) => [`The deletion of your account was cancelled on ${v.date}; your account is active again.`,
        'If it was not you, change your password and sign out of every device.'],
    },
    fr: {
      subject: () => 'La suppression de votre compte est annulée',
      lines: (v) => [`La suppression de votre compte a été annulée le ${v.date} ; votre compte est de nouveau actif.`,
        "Si ce n'était pas vous, changez votre mot de passe et déconnectez tous vos appareils."],
    },
  },
  deletion_completed: {
    en: {
      subject: () => 'Your account has been deleted',
      lines: (v) => [`Your account was deleted on ${v.date}: your personal data has been anonymized and you can no longer sign in.`,
        'This is the last message we send to this address.'],
    },
    fr: {
      subject: () => 'Votre compte a été supprimé',
      lines: (v) => [`Votre compte a été supprimé le ${v.date} : vos données personnelles ont été anonymisées et vous ne pouvez plus vous connecter.`,
        'Ceci est le dernier message envoyé à cette adresse.'],
    },
  },
  passkey_added: {
    en: {
      subject: () => 'A passkey was added to your account',
      lines: (v) => [`A passkey was added to your account on ${v.date}. It can now be used to sign in.`,
        'If it was not you, remove it from your passkeys, change your password and sign out of every device.'],
    },
    fr: {
      subject: () => 'Une clé d\'accès a été ajoutée à votre compte',
      lines: (v) => [`Une clé d'accès (passkey) a été ajoutée à votre compte le ${v.date}. Elle permet désormais de se connecter.`,
        "Si ce n'était pas vous, supprimez-la de vos clés d'accès, changez votre mot de passe et déconnectez tous vos appareils."],
    },
  },
  two_factor_disabled: {
    en: {
      subject: () => 'Two-factor authentication was disabled',
      lines: (v) => [`Two-factor authentication was disabled on your account on ${v.date}: a password alone now signs in.`,
        'If it was not you, change your password, sign out of every device and enable two-factor authentication again.'],
    },
    fr: {
      subject: () => 'La double authentification a été désactivée',
      lines: (v) => [`La double authentification a été désactivée sur votre compte le ${v.date} : un mot de passe seul permet désormais de se connecter.`,
        "Si ce n'était pas vous, changez votre mot de passe, déconnectez tous vos appareils et réactivez la double authentification."],
    },
  },
  two_factor_reset: {
    en: {
      subject: () => 'Two-factor authentication was reset by an administrator',
      lines: (v) => [`An administrator reset two-factor authentication on your account on ${v.date}: every device was signed out, `
        + 'and a password alone now signs in. Set up two-factor authentication again after your next sign-in.',
      'If you did not ask for it, change your password and contact your administrator.'],
    },
    fr: {
      subject: () => 'La double authentification a été réinitialisée par un administrateur',
      lines: (v) => [`Un administrateur a réinitialisé la double authentification de votre compte le ${v.date} : tous vos appareils `
        + 'ont été déconnectés et un mot de passe seul permet désormais de se connecter. Réactivez la double authentification '
        + 'après votre prochaine connexion.',
      "Si vous ne l'avez pas demandé, changez votre mot de passe et contactez votre administrateur."],
    },
  },
  agent_token_created: {
    en: {
      subject: () => 'An agent token was created on your account',
      lines: (v) => [`An agent token was created on your account on ${v.date}, for the agent "${v.agent}".`,
        `Permissions granted: ${v.permissions || 'none'}. It expires on ${v.expires}.`,
        'If it was not you, revoke your agent tokens, change your password and sign out of every device.'],
    },
    fr: {
      subject: () => 'Un jeton d\'agent a été créé sur votre compte',
      lines: (v) => [`Un jeton d'agent a été créé sur votre compte le ${v.date}, pour l'agent « ${v.agent} ».`,
        `Permissions accordées : ${v.permissions || 'aucune'}. Il expire le ${v.expires}.`,
        "Si ce n'était pas vous, révoquez vos jetons d'agent, changez votre mot de passe et déconnectez tous vos appareils."],
    },
  },
};

export const languageOf = (language: string | null | undefined): Language =>
  language?.toLowerCase().startsWith('fr') ? 'fr' : 'en';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The values Gatehouse makes itself, or an address it verified: whole, since a cut link or address would mislead. */
const NOT_CUT: ReadonlySet<string> = new Set(['code', 'link', 'token', 'reference', 'date', 'event', 'inviter_email', 'permissions',
  'expires']);

/**
 * Every value on one line and without control characters; every value not listed above — what users wrote: an
 * organization's name, a person's name, a role's name — also cut to 80 characters (docs/organizations.md). Done here,
 * where text becomes a message, so that no caller can forget it, and a variable added later is cut unless listed.
 */
function plainVars(vars: TemplateVars): TemplateVars {
  return Object.fromEntries(Object.entries(vars).map(([key, value]) =>
    [key, typeof value === 'string' ? plainLine(value, NOT_CUT.has(key) ? undefined : MAX_USER_TEXT) : value]));
}

export function renderEmail(purpose: Purpose, language: Language, raw: TemplateVars): RenderedEmail {
  const copy = COPY[purpose][language];
  const vars = plainVars(raw);
  const lines = copy.lines(vars);
  const linkLabel = language === 'fr' ? 'Ouvrir le lien' : 'Open the link';
  const text = [...lines, ...(vars.link ? ['', vars.link] : [])].join('\n');
  const html = `<!doctype html><html lang="${language}"><body style="font-family:sans-serif;line-height:1.5">`
    + lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')
    + (vars.link ? `<p><a href="${escapeHtml(vars.link)}">${linkLabel}</a></p>` : '')
    + '</body></html>';
  // The subject is a header: nothing in it may start another one.
  return { subject: plainLine(copy.subject(vars)), text, html };
}

export function renderSms(purpose: Purpose, language: Language, raw: TemplateVars): string {
  const copy = COPY[purpose][language];
  const vars = plainVars(raw);
  return copy.sms ? copy.sms(vars) : [...copy.lines(vars), ...(vars.link ? [vars.link] : [])].join(' ');
}
