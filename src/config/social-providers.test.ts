import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from './errors.js';
import { loadConfig } from './load.js';
import { parseSocialProviders, resolveProvider } from './social-providers.js';

const SECRET = 'client-secret-value';
const parse = (value: unknown) => parseSocialProviders(JSON.stringify(value));
const refused = (value: unknown, message: RegExp) => assert.throws(() => parse(value), (err: unknown) => {
  assert.ok(err instanceof ConfigError);
  assert.match(err.message, message);
  assert.doesNotMatch(err.message, new RegExp(SECRET), 'never repeats a client secret');
  return true;
});

describe('SVC_SOCIAL_PROVIDERS (docs/social-login.md)', () => {
  it('is empty when unset', () => {
    assert.equal(parseSocialProviders(null).size, 0);
    assert.equal(parseSocialProviders('').size, 0);
  });

  it('gives the built-in providers their kind, public endpoints and scopes', () => {
    const providers = parse({
      google: { client_id: 'g', client_secret: SECRET }, microsoft: { client_id: 'm', client_secret: SECRET },
      github: { client_id: 'h', client_secret: SECRET }, facebook: { client_id: 'f', client_secret: SECRET },
    });
    assert.deepEqual([...providers.values()].map((p) => [p.name, p.kind]),
      [['google', 'oidc'], ['microsoft', 'oidc'], ['github', 'oauth2'], ['facebook', 'oauth2']]);
    assert.equal(providers.get('google')!.issuer, 'https://accounts.google.com');
    assert.equal(providers.get('google')!.tokeninfo_url, 'https://oauth2.googleapis.com/tokeninfo');
    assert.equal(providers.get('microsoft')!.issuer, 'https://login.microsoftonline.com/common/v2.0');
    assert.equal(providers.get('github')!.emails_url, 'https://api.github.com/user/emails');
    assert.equal(providers.get('github')!.token_check_url, 'https://api.github.com/applications/{client_id}/token');
    assert.deepEqual(providers.get('github')!.scopes, ['read:user', 'user:email']);
    assert.ok(providers.get('facebook')!.debug_token_url);
  });

  it('lets every URL and the scopes be overridden; http only on a loopback address', () => {
    const github = parse({ github: { client_id: 'h', client_secret: SECRET, token_url: 'http://127.0.0.1:4000/token',
      userinfo_url: 'https://idp.example/user', scopes: ['user'] } }).get('github')!;
    assert.equal(github.token_url, 'http://127.0.0.1:4000/token');
    assert.equal(github.userinfo_url, 'https://idp.example/user');
    assert.equal(github.authorization_url, 'https://github.com/login/oauth/authorize');
    assert.deepEqual(github.scopes, ['user']);
    refused({ github: { client_id: 'h', client_secret: SECRET, token_url: 'http://idp.example/token' } }, /github\.token_url must use https/);
    refused({ google: { client_id: 'g', client_secret: SECRET, issuer: 'not a url' } }, /google\.issuer must be a URL/);
  });

  it('accepts any OpenID provider with an issuer, and nothing else', () => {
    const acme = parse({ acme: { kind: 'oidc', issuer: 'https://id.acme.example', client_id: 'a', client_secret: SECRET } }).get('acme')!;
    assert.equal(acme.kind, 'oidc');
    assert.deepEqual(acme.scopes, ['openid', 'email', 'profile']);
    refused({ acme: { kind: 'oidc', client_id: 'a', client_secret: SECRET } }, /acme\.issuer is required/);
    refused({ acme: { client_id: 'a', client_secret: SECRET, issuer: 'https://id.acme.example' } }, /acme\.kind must be "oidc"/);
    refused({ acme: { kind: 'oauth2', client_id: 'a', client_secret: SECRET } }, /only OpenID providers/);
    refused({ github: { kind: 'oidc', client_id: 'h', client_secret: SECRET } }, /kind cannot change/);
  });

  it('refuses malformed entries with a message naming the problem', () => {
    assert.throws(() => parseSocialProviders('{not json'), /must be a JSON object/);
    assert.throws(() => parseSocialProviders('[]'), /must be a JSON object/);
    refused({ google: 'x' }, /google must be an object/);
    refused({ google: { client_secret: SECRET } }, /google\.client_id is required/);
    refused({ google: { client_id: 'g' } }, /google\.client_secret is required/);
    refused({ google: { client_id: 'g', client_secret: SECRET, clientid: 'x' } }, /unknown keys: clientid/);
    refused({ google: { client_id: 'g', client_secret: SECRET, scopes: [] } }, /scopes must be a non-empty array/);
    refused({ Google: { client_id: 'g', client_secret: SECRET } }, /provider name "Google"/);
    refused({ provider_a: { client_id: 'g', client_secret: SECRET } }, /alias of google/);
  });

  it('resolves the neutral names provider_a…provider_d to the configured built-in providers', () => {
    const providers = parse({ google: { client_id: 'g', client_secret: SECRET }, github: { client_id: 'h', client_secret: SECRET } });
    assert.equal(resolveProvider(providers, 'provider_a')?.name, 'google');
    assert.equal(resolveProvider(providers, 'provider_b')?.name, 'github');
    assert.equal(resolveProvider(providers, 'github')?.name, 'github');
    assert.equal(resolveProvider(providers, 'provider_c'), undefined, 'microsoft is not configured');
    assert.equal(resolveProvider(providers, 'unknown'), undefined);
  });

  it('stops the start-up on a bad value, without repeating the setting', () => {
    assert.throws(() => loadConfig({ SVC_DEBUG: 'true', SVC_SOCIAL_PROVIDERS: JSON.stringify({ google: { client_id: 'g' } }) }),
      /Invalid setting SVC_SOCIAL_PROVIDERS: google\.client_secret is required/);
    const { config } = loadConfig({ SVC_DEBUG: 'true', SVC_SHORTCUT_SECURE_MODE: 'robust' });
    assert.equal(config.SOCIAL_CALLBACK_TOKENS_IN_FRAGMENT, true);
  });
});
