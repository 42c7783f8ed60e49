/**
 * The sign-in page's one script (docs/oauth.md "Sign-in and consent"): where the browser can run a WebAuthn ceremony it
 * shows the passkey button; a click asks the page's options (with the form's CSRF field), lets the authenticator
 * answer, and posts the assertion as JSON in the form's `credential` field, so the server answers it like any form.
 * A ceremony the person cancels leaves the page as it was. Served from the issuer's origin, under the page's CSP.
 */
export const PASSKEY_SCRIPT = `'use strict';
(() => {
  const button = document.getElementById('passkey');
  const form = document.getElementById('passkey-form');
  if (!button || !form || !window.PublicKeyCredential || !navigator.credentials) return;
  const bytes = (text) => {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
    return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
  };
  const text = (buffer) => {
    let binary = '';
    for (const b of new Uint8Array(buffer)) binary += String.fromCharCode(b);
    return btoa(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  };
  button.hidden = false;
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const asked = await fetch(button.dataset.options, {
        method: 'POST', credentials: 'same-origin',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf_token: form.elements.csrf_token.value }),
      });
      if (!asked.ok) throw new Error('no options');
      const { publicKey } = await asked.json();
      const credential = await navigator.credentials.get({ publicKey: {
        ...publicKey,
        challenge: bytes(publicKey.challenge),
        allowCredentials: (publicKey.allowCredentials || []).map((c) => ({ ...c, id: bytes(c.id) })),
      } });
      const r = credential.response;
      form.elements.credential.value = JSON.stringify({
        id: credential.id, rawId: text(credential.rawId), type: credential.type,
        authenticatorAttachment: credential.authenticatorAttachment || undefined,
        clientExtensionResults: credential.getClientExtensionResults(),
        response: {
          clientDataJSON: text(r.clientDataJSON), authenticatorData: text(r.authenticatorData), signature: text(r.signature),
          ...(r.userHandle ? { userHandle: text(r.userHandle) } : {}),
        },
      });
      form.submit();
    } catch {
      button.disabled = false;
    }
  });
})();
`;
