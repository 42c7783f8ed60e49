/**
 * Message templates (subject, text and HTML) in English and French, chosen by the user's `language`
 * (`fr`, `fr-CA`… → French; anything else → English).
 */
export type Purpose = 'otp' | 'password_reset' | 'magic_link' | 'invitation' | 'security_alert' | 'account_deletion';
export const PURPOSES: readonly Purpose[] = ['otp', 'password_reset', 'magic_link', 'invitation', 'security_alert', 'account_deletion'];
export type Language = 'en' | 'fr';

/** Template variables. Every value is plain text; HTML escaping happens here, never in callers. */
export interface TemplateVars {
  code?: string;
  link?: string;
  minutes?: number;
  organization?: string;
  inviter?: string;
  /** An invitation's role and lifetime, and its token when there is no link to carry it. */
  role?: string;
  days?: number;
  token?: string;
  event?: string;
  date?: string;
  app?: string;
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
        `${v.inviter ?? 'A member'} invited you to join ${v.organization}${v.role ? ` as ${v.role}` : ''}.`,
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
        `${v.inviter ?? 'Un membre'} vous invite à rejoindre ${v.organization}${v.role ? ` en tant que ${v.role}` : ''}.`,
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
  account_deletion: {
    en: {
      subject: () => 'Your account deletion',
      lines: (v) => [v.event ?? 'Your account deletion request has been updated.', ...(v.date ? [`Date: ${v.date}.`] : [])],
    },
    fr: {
      subject: () => 'Suppression de votre compte',
      lines: (v) => [v.event ?? 'Votre demande de suppression de compte a été mise à jour.', ...(v.date ? [`Date : ${v.date}.`] : [])],
    },
  },
};

export const languageOf = (language: string | null | undefined): Language =>
  language?.toLowerCase().startsWith('fr') ? 'fr' : 'en';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderEmail(purpose: Purpose, language: Language, vars: TemplateVars): RenderedEmail {
  const copy = COPY[purpose][language];
  const lines = copy.lines(vars);
  const linkLabel = language === 'fr' ? 'Ouvrir le lien' : 'Open the link';
  const text = [...lines, ...(vars.link ? ['', vars.link] : [])].join('\n');
  const html = `<!doctype html><html lang="${language}"><body style="font-family:sans-serif;line-height:1.5">`
    + lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')
    + (vars.link ? `<p><a href="${escapeHtml(vars.link)}">${linkLabel}</a></p>` : '')
    + '</body></html>';
  return { subject: copy.subject(vars), text, html };
}

export function renderSms(purpose: Purpose, language: Language, vars: TemplateVars): string {
  const copy = COPY[purpose][language];
  return copy.sms ? copy.sms(vars) : [...copy.lines(vars), ...(vars.link ? [vars.link] : [])].join(' ');
}
